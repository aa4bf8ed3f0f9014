//! The IR's text form: readable and stable, for snapshot tests and `SOFTGL_DUMP=ir`.
//! Not parsed back. One statement per line, nested bodies indented by two spaces:
//!
//! ```text
//! fragment 450 discard
//! in color: vec4 @0..4 smooth loc=0
//! out frag: vec4 @0..4 loc=0
//! uniform scale: float @0
//! array a0: f32[4]
//! v0:f32 = input 0
//! v2:f32 = fadd v0, v1
//! loop L0 {
//!   if v3 {
//!     break L0
//!   }
//! } continuing {
//!   v4:i32 = iadd v4, v5
//! }
//! out 0 = v2
//! ```

use std::fmt::Write;

use super::module::*;

/// The mnemonic of a unary op.
pub fn unary_name(op: UnaryOp) -> &'static str {
    use UnaryOp::*;
    match op {
        FNeg => "fneg",
        FAbs => "fabs",
        FSign => "fsign",
        Floor => "floor",
        Ceil => "ceil",
        Trunc => "trunc",
        RoundEven => "roundeven",
        Fract => "fract",
        Sqrt => "sqrt",
        InverseSqrt => "inversesqrt",
        Sin => "sin",
        Cos => "cos",
        Tan => "tan",
        Asin => "asin",
        Acos => "acos",
        Atan => "atan",
        Sinh => "sinh",
        Cosh => "cosh",
        Tanh => "tanh",
        Asinh => "asinh",
        Acosh => "acosh",
        Atanh => "atanh",
        Exp => "exp",
        Exp2 => "exp2",
        Log => "log",
        Log2 => "log2",
        IsNan => "isnan",
        IsInf => "isinf",
        DFdxFine => "dfdx_fine",
        DFdyFine => "dfdy_fine",
        DFdxCoarse => "dfdx_coarse",
        DFdyCoarse => "dfdy_coarse",
        INeg => "ineg",
        IAbs => "iabs",
        ISign => "isign",
        Not => "not",
        BitReverse => "bitreverse",
        BitCount => "bitcount",
        FindLsb => "findlsb",
        FindMsbI => "findmsb_i",
        FindMsbU => "findmsb_u",
        LogicalNot => "lnot",
        F2I => "f2i",
        F2U => "f2u",
        I2F => "i2f",
        U2F => "u2f",
        I2U => "i2u",
        U2I => "u2i",
        B2F => "b2f",
        B2I => "b2i",
        B2U => "b2u",
        F2B => "f2b",
        I2B => "i2b",
        BitcastF2I => "bitcast_f2i",
        BitcastF2U => "bitcast_f2u",
        BitcastI2F => "bitcast_i2f",
        BitcastU2F => "bitcast_u2f",
    }
}

/// The mnemonic of a binary op.
pub fn binary_name(op: BinaryOp) -> &'static str {
    use BinaryOp::*;
    match op {
        FAdd => "fadd",
        FSub => "fsub",
        FMul => "fmul",
        FDiv => "fdiv",
        FMod => "fmod",
        FMin => "fmin",
        FMax => "fmax",
        Pow => "pow",
        Atan2 => "atan2",
        Step => "step",
        IAdd => "iadd",
        ISub => "isub",
        IMul => "imul",
        SDiv => "sdiv",
        UDiv => "udiv",
        SRem => "srem",
        URem => "urem",
        SMin => "smin",
        SMax => "smax",
        UMin => "umin",
        UMax => "umax",
        And => "and",
        Or => "or",
        Xor => "xor",
        Shl => "shl",
        ShrS => "shr_s",
        ShrU => "shr_u",
        FEq => "feq",
        FNe => "fne",
        FLt => "flt",
        FLe => "fle",
        FGt => "fgt",
        FGe => "fge",
        IEq => "ieq",
        INe => "ine",
        SLt => "slt",
        SLe => "sle",
        SGt => "sgt",
        SGe => "sge",
        ULt => "ult",
        ULe => "ule",
        UGt => "ugt",
        UGe => "uge",
        LogicalAnd => "land",
        LogicalOr => "lor",
        LogicalXor => "lxor",
        LogicalEq => "leq",
    }
}

/// The short name of a kind: `f32`, `i32`, `u32`, `bool`.
pub fn kind_name(k: ScalarKind) -> &'static str {
    match k {
        ScalarKind::F32 => "f32",
        ScalarKind::I32 => "i32",
        ScalarKind::U32 => "u32",
        ScalarKind::Bool => "bool",
    }
}

/// The GLSL spelling of a value type (`vec4`, `mat3x2`, `uint64_t`, `sampler2D`).
pub fn type_name(t: ValueType) -> String {
    let (scalar, prefix) = match t.base {
        BaseType::Float => ("float", ""),
        BaseType::Int => ("int", "i"),
        BaseType::Uint => ("uint", "u"),
        BaseType::Bool => ("bool", "b"),
        BaseType::Uint64 => ("uint64_t", "u64"),
        BaseType::AtomicUint => return "atomic_uint".into(),
        b => return b.sampler_name().unwrap_or("sampler").into(),
    };
    match (t.cols, t.rows) {
        (1, 1) => scalar.into(),
        (1, r) => format!("{prefix}vec{r}"),
        (c, r) if c == r => format!("mat{c}"),
        (c, r) => format!("mat{c}x{r}"),
    }
}

/// Writes `module` in its text form.
pub fn dump(module: &Module) -> String {
    let mut out = String::new();
    let stage = match module.stage {
        Stage::Vertex => "vertex",
        Stage::Fragment => "fragment",
        Stage::Compute => "compute",
        Stage::Geometry => "geometry",
        Stage::TessControl => "tess_control",
        Stage::TessEval => "tess_eval",
    };
    let _ = write!(out, "{stage} {}", module.version);
    for (flag, name) in [
        (module.uses_discard, "discard"),
        (module.writes_depth, "writes_depth"),
        (module.early_fragment_tests, "early_fragment_tests"),
        (module.frag_coord_origin_upper_left, "origin_upper_left"),
        (
            module.frag_coord_pixel_center_integer,
            "pixel_center_integer",
        ),
        (module.global_bindless_sampler, "bindless_sampler"),
        (module.global_bound_sampler, "bound_sampler"),
    ] {
        if flag {
            let _ = write!(out, " {name}");
        }
    }
    out.push('\n');
    for (dir, vars) in [("in", &module.inputs), ("out", &module.outputs)] {
        for v in vars {
            write_interface(&mut out, dir, v);
        }
    }
    for u in &module.uniforms {
        let _ = write!(out, "uniform {}: {}", u.name, type_name(u.ty));
        if let Some(n) = u.array_len {
            let _ = write!(out, "[{n}]");
        }
        let _ = write!(out, " @{}", u.offset);
        if u.array_len.is_some() {
            let _ = write!(out, " stride={}", u.stride);
        }
        if u.bindless {
            out.push_str(" bindless");
        }
        if u.bound {
            out.push_str(" bound");
        }
        if let Some(b) = u.binding {
            let _ = write!(out, " binding={b}");
        }
        out.push('\n');
    }
    if module.uniform_words != 0 {
        let _ = writeln!(out, "uniform_words {}", module.uniform_words);
    }
    let uniform_blocks = module
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| ("block b", i, b));
    let storage_blocks =
        (module.storage_blocks.iter().enumerate()).map(|(i, b)| ("storage s", i, b));
    for (what, i, b) in uniform_blocks.chain(storage_blocks) {
        let _ = write!(out, "{what}{i} {} size={}", b.name, b.size);
        if let Some(binding) = b.binding {
            let _ = write!(out, " binding={binding}");
        }
        out.push('\n');
        for m in &b.members {
            let _ = write!(out, "  {}: {}", m.name, type_name(m.ty));
            if let Some(n) = m.array_len {
                let _ = write!(out, "[{n}] stride={}", m.array_stride);
            }
            let _ = write!(out, " +{}", m.offset);
            if m.ty.cols > 1 {
                let _ = write!(out, " matrix_stride={}", m.matrix_stride);
                if m.row_major {
                    out.push_str(" row_major");
                }
            }
            out.push('\n');
        }
    }
    for (i, a) in module.func.arrays.iter().enumerate() {
        let _ = writeln!(out, "array a{i}: {}[{}]", kind_name(a.kind), a.len);
    }
    write_list(&mut out, &module.func, &module.func.body, 0);
    for (slot, v) in module.func.outputs.iter().enumerate() {
        let _ = writeln!(out, "out {slot} = v{}", v.0);
    }
    out
}

fn write_interface(out: &mut String, dir: &str, v: &InterfaceVar) {
    let _ = write!(out, "{dir} {}: {}", v.name, type_name(v.ty));
    if let Some(n) = v.array_len {
        let _ = write!(out, "[{n}]");
    }
    let _ = write!(out, " @{}..{}", v.slot, v.slot as u64 + v.words as u64);
    match v.interpolation {
        Interpolation::Smooth => {}
        Interpolation::Flat => out.push_str(" flat"),
        Interpolation::NoPerspective => out.push_str(" noperspective"),
    }
    if let Some(l) = v.location {
        let _ = write!(out, " loc={l}");
    }
    if let Some(b) = v.builtin {
        let _ = write!(out, " builtin={b:?}");
    }
    out.push('\n');
}

/// `v3:f32` — a var with its kind, or `v3:?` for an out-of-range handle (dump must work on
/// invalid modules too: it is how they are debugged).
fn var_with_kind(func: &Function, v: Var) -> String {
    match func.vars.get(v.0 as usize) {
        Some(k) => format!("v{}:{}", v.0, kind_name(*k)),
        None => format!("v{}:?", v.0),
    }
}

fn scalar_text(c: Scalar) -> String {
    match c {
        // `{:?}` prints the shortest text that reads back to the same bits.
        Scalar::F32(f) => format!("{f:?}"),
        Scalar::I32(i) => format!("{i}i"),
        Scalar::U32(u) => format!("{u}u"),
        Scalar::Bool(b) => format!("{b}"),
    }
}

/// The right-hand side of an assignment.
pub fn op_text(op: &Op) -> String {
    match op {
        Op::Const(c) => format!("const {}", scalar_text(*c)),
        Op::Copy(a) => format!("copy v{}", a.0),
        Op::Unary(u, a) => format!("{} v{}", unary_name(*u), a.0),
        Op::Binary(b, x, y) => format!("{} v{}, v{}", binary_name(*b), x.0, y.0),
        Op::Select { cond, a, b } => format!("select v{}, v{}, v{}", cond.0, a.0, b.0),
        Op::Fma(a, b, c) => format!("fma v{}, v{}, v{}", a.0, b.0, c.0),
        Op::FClamp(a, b, c) => format!("fclamp v{}, v{}, v{}", a.0, b.0, c.0),
        Op::FMix(a, b, c) => format!("fmix v{}, v{}, v{}", a.0, b.0, c.0),
        Op::BitfieldExtract {
            value,
            offset,
            bits,
        } => format!("bfextract v{}, v{}, v{}", value.0, offset.0, bits.0),
        Op::BitfieldInsert {
            base,
            insert,
            offset,
            bits,
        } => format!(
            "bfinsert v{}, v{}, v{}, v{}",
            base.0, insert.0, offset.0, bits.0
        ),
        Op::F64 { op, args, word } => {
            let ops: Vec<String> = args[..op.arg_words()]
                .iter()
                .map(|v| format!("v{}", v.0))
                .collect();
            let half = match (op.double_result(), word) {
                (false, _) => "",
                (true, 0) => ".lo",
                _ => ".hi",
            };
            format!("{}{half} {}", f64_name(*op), ops.join(", "))
        }
        Op::Input(w) => format!("input {w}"),
        Op::Builtin(b) => format!("builtin {b:?}"),
        Op::Uniform { offset, index } => match index {
            None => format!("uniform {offset}"),
            Some((v, stride, count)) => {
                format!("uniform {offset} + v{} * {stride} (count {count})", v.0)
            }
        },
        Op::BlockLoad {
            block,
            offset,
            dynamic,
        } => match dynamic {
            None => format!("blockload b{block} + {offset}"),
            Some(v) => format!("blockload b{block} + {offset} + v{}", v.0),
        },
        Op::StorageLoad {
            block,
            offset,
            dynamic,
        } => format!("storageload s{block} + {offset}{}", dyn_text(*dynamic)),
        Op::StorageSize { block } => format!("storagesize s{block}"),
        Op::LoadArray { array, index } => format!("load a{}[v{}]", array.0, index.0),
    }
}

fn dyn_text(dynamic: Option<Var>) -> String {
    dynamic.map_or(String::new(), |v| format!(" + v{}", v.0))
}

fn write_list(out: &mut String, func: &Function, list: &[Stmt], depth: usize) {
    for s in list {
        write_stmt(out, func, s, depth);
    }
}

fn dst_list(func: &Function, dst: &[Var]) -> String {
    dst.iter()
        .map(|v| var_with_kind(func, *v))
        .collect::<Vec<_>>()
        .join(", ")
}

fn write_stmt(out: &mut String, func: &Function, s: &Stmt, depth: usize) {
    let pad = "  ".repeat(depth);
    match s {
        Stmt::Assign { dst, op } => {
            let _ = writeln!(out, "{pad}{} = {}", var_with_kind(func, *dst), op_text(op));
        }
        Stmt::StoreArray {
            array,
            index,
            value,
        } => {
            let _ = writeln!(out, "{pad}store a{}[v{}] = v{}", array.0, index.0, value.0);
        }
        Stmt::If {
            cond,
            then_body,
            else_body,
        } => {
            let _ = writeln!(out, "{pad}if v{} {{", cond.0);
            write_list(out, func, then_body, depth + 1);
            if !else_body.is_empty() {
                let _ = writeln!(out, "{pad}}} else {{");
                write_list(out, func, else_body, depth + 1);
            }
            let _ = writeln!(out, "{pad}}}");
        }
        Stmt::Loop {
            label,
            body,
            continuing,
        } => {
            let _ = writeln!(out, "{pad}loop L{} {{", label.0);
            write_list(out, func, body, depth + 1);
            if !continuing.is_empty() {
                let _ = writeln!(out, "{pad}}} continuing {{");
                write_list(out, func, continuing, depth + 1);
            }
            let _ = writeln!(out, "{pad}}}");
        }
        Stmt::Block { label, body } => {
            let _ = writeln!(out, "{pad}block L{} {{", label.0);
            write_list(out, func, body, depth + 1);
            let _ = writeln!(out, "{pad}}}");
        }
        Stmt::Break(l) => {
            let _ = writeln!(out, "{pad}break L{}", l.0);
        }
        Stmt::Continue(l) => {
            let _ = writeln!(out, "{pad}continue L{}", l.0);
        }
        Stmt::Leave(l) => {
            let _ = writeln!(out, "{pad}leave L{}", l.0);
        }
        Stmt::Return => {
            let _ = writeln!(out, "{pad}return");
        }
        Stmt::Discard => {
            let _ = writeln!(out, "{pad}discard");
        }
        Stmt::Barrier => {
            let _ = writeln!(out, "{pad}barrier");
        }
        Stmt::EmitVertex(stream) => {
            let _ = writeln!(out, "{pad}emit_vertex {stream}");
        }
        Stmt::EndPrimitive(stream) => {
            let _ = writeln!(out, "{pad}end_primitive {stream}");
        }
        Stmt::Texture {
            dst,
            handle,
            coord,
            lod,
            offset,
            compare,
            layer,
            cube_layer,
        } => {
            let lod = match lod {
                Lod::Implicit => String::new(),
                Lod::Bias(v) => format!(" bias v{}", v.0),
                Lod::Explicit(v) => format!(" lod v{}", v.0),
                Lod::Gather(v) => format!(" gather v{}", v.0),
                Lod::QueryLod => " querylod".to_string(),
            };
            let off = if *offset == [0, 0] {
                String::new()
            } else {
                format!(" offset ({}, {})", offset[0], offset[1])
            };
            let cmp = compare.map_or(String::new(), |v| format!(" compare v{}", v.0));
            let cmp = cmp + &layer.map_or(String::new(), |v| format!(" layer v{}", v.0));
            let cmp = cmp + &cube_layer.map_or(String::new(), |v| format!(" cube v{}", v.0));
            let _ = writeln!(
                out,
                "{pad}{} = texture [v{}, v{}] (v{}, v{}){lod}{off}{cmp}",
                dst_list(func, dst),
                handle[0].0,
                handle[1].0,
                coord[0].0,
                coord[1].0
            );
        }
        Stmt::TexelFetch {
            dst,
            handle,
            coord,
            lod,
            layer,
        } => {
            let _ = writeln!(
                out,
                "{pad}{} = texelfetch [v{}, v{}] (v{}, v{}) lod v{}{}",
                dst_list(func, dst),
                handle[0].0,
                handle[1].0,
                coord[0].0,
                coord[1].0,
                lod.0,
                layer.map_or(String::new(), |v| format!(" layer v{}", v.0))
            );
        }
        Stmt::Storage {
            dst,
            block,
            offset,
            dynamic,
            access,
        } => {
            let at = format!("s{block} + {offset}{}", dyn_text(*dynamic));
            let what = match access {
                StorageAccess::Store(v) => format!("storagestore {at} = v{}", v.0),
                StorageAccess::Atomic(op, v) => format!("atomic{op:?} {at}, v{}", v.0),
                StorageAccess::CompSwap { compare, value } => {
                    format!("atomicCompSwap {at}, v{}, v{}", compare.0, value.0)
                }
            };
            match dst {
                Some(d) => {
                    let _ = writeln!(out, "{pad}{} = {what}", var_with_kind(func, *d));
                }
                None => {
                    let _ = writeln!(out, "{pad}{what}");
                }
            }
        }
        Stmt::Image {
            op,
            dim,
            handle,
            coord,
            sample,
            data,
            dst,
        } => {
            let list = |vs: &[Option<Var>]| {
                let v: Vec<String> = vs.iter().flatten().map(|v| format!("v{}", v.0)).collect();
                v.join(", ")
            };
            let dsts: Vec<Var> = dst.iter().flatten().copied().collect();
            let _ = writeln!(
                out,
                "{pad}{}image{op:?} {} [v{}, v{}] ({}){} data ({})",
                if dsts.is_empty() {
                    String::new()
                } else {
                    format!("{} = ", dst_list(func, &dsts))
                },
                dim.suffix(),
                handle[0].0,
                handle[1].0,
                list(coord),
                sample.map_or(String::new(), |v| format!(" sample v{}", v.0)),
                list(data),
            );
        }
        Stmt::TextureSize {
            dst,
            handle,
            lod,
            layers,
            samples,
        } => {
            let _ = writeln!(
                out,
                "{pad}{} = texturesize [v{}, v{}] lod v{}{}{}",
                dst_list(func, dst),
                handle[0].0,
                handle[1].0,
                lod.0,
                layers.map_or(String::new(), |v| format!(" layers v{}", v.0)),
                samples.map_or(String::new(), |v| format!(" samples v{}", v.0))
            );
        }
    }
}

/// The mnemonic of a double-precision op (`Op::F64`).
pub fn f64_name(op: crate::ir::F64Op) -> &'static str {
    use crate::ir::F64Op::*;
    match op {
        Add => "dadd",
        Sub => "dsub",
        Mul => "dmul",
        Div => "ddiv",
        Fma => "dfma",
        Sqrt => "dsqrt",
        Floor => "dfloor",
        Ceil => "dceil",
        Trunc => "dtrunc",
        RoundEven => "droundeven",
        Eq => "deq",
        Ne => "dne",
        Lt => "dlt",
        Le => "dle",
        Gt => "dgt",
        Ge => "dge",
        IsNan => "disnan",
        IsInf => "disinf",
        ToF32 => "d2f",
        ToI32 => "d2i",
        ToU32 => "d2u",
        FromF32 => "f2d",
        FromI32 => "i2d",
        FromU32 => "u2d",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::builder::Builder;
    use ScalarKind as K;

    /// Snapshot of a module that uses every kind of statement.
    #[test]
    fn dump_snapshot() {
        let mut b = Builder::new(Stage::Fragment);
        b.module_mut().inputs.push(InterfaceVar {
            name: "uv".into(),
            ty: ValueType::new(BaseType::Float, 2, 1),
            array_len: None,
            location: Some(1),
            slot: 0,
            words: 2,
            interpolation: Interpolation::NoPerspective,
            builtin: None,
        });
        b.module_mut().uniforms.push(UniformDecl {
            name: "tex".into(),
            ty: ValueType::new(BaseType::Sampler2D, 1, 1),
            array_len: None,
            offset: 0,
            stride: 2,
            bindless: true,
            bound: false,
            binding: None,
            init: None,
            location: None,
        });
        let u = b.input(0, K::F32);
        let v = b.input(1, K::F32);
        let lo = b.uniform(0, K::U32);
        let hi = b.uniform(1, K::U32);
        let arr = b.array(K::F32, 4);
        let n = b.i32(-3);
        let c = b.binary(BinaryOp::FLt, u, v);
        b.if_else(c, |b| b.discard(), |b| b.store(arr, n, u));
        let acc = b.f32(0.5);
        b.block(|b, blk| {
            b.loop_(
                |b, l| {
                    b.if_(c, |b| b.break_(l));
                    b.leave(blk);
                },
                |b, _| b.assign(acc, Op::FMix(acc, u, v)),
            );
        });
        let dst = [b.var(K::F32), b.var(K::F32), b.var(K::F32), b.var(K::F32)];
        b.push(Stmt::Texture {
            dst,
            handle: [lo, hi],
            coord: [u, v],
            lod: Lod::Bias(acc),
            offset: [1, -1],
            compare: None,
            layer: None,
            cube_layer: None,
        });
        b.output(dst[0]);
        b.output(acc);
        let text = dump(&b.finish());
        let want = "\
fragment 450 discard
in uv: vec2 @0..2 noperspective loc=1
out out0: float @0..1
out out1: float @1..2
uniform tex: sampler2D @0 bindless
uniform_words 2
array a0: f32[4]
v0:f32 = input 0
v1:f32 = input 1
v2:u32 = uniform 0
v3:u32 = uniform 1
v4:i32 = const -3i
v5:bool = flt v0, v1
if v5 {
  discard
} else {
  store a0[v4] = v0
}
v6:f32 = const 0.5
block L0 {
  loop L1 {
    if v5 {
      break L1
    }
    leave L0
  } continuing {
    v6:f32 = fmix v6, v0, v1
  }
}
v7:f32, v8:f32, v9:f32, v10:f32 = texture [v2, v3] (v0, v1) bias v6 offset (1, -1)
out 0 = v7
out 1 = v6
";
        assert_eq!(text, want, "dump changed:\n{text}");
    }

    #[test]
    fn dump_survives_invalid_handles() {
        let mut b = Builder::new(Stage::Vertex);
        b.assign(Var(7), Op::Unary(UnaryOp::FNeg, Var(8)));
        assert_eq!(dump(&b.finish()), "vertex 450\nv7:? = fneg v8\n");
    }

    #[test]
    fn constants_print_exactly() {
        assert_eq!(scalar_text(Scalar::F32(0.1)), "0.1");
        assert_eq!(scalar_text(Scalar::F32(-0.0)), "-0.0");
        assert_eq!(scalar_text(Scalar::F32(f32::INFINITY)), "inf");
        assert_eq!(scalar_text(Scalar::F32(1e-40)), "1e-40");
        assert_eq!(scalar_text(Scalar::U32(7)), "7u");
        assert_eq!(scalar_text(Scalar::Bool(true)), "true");
        assert_eq!(type_name(ValueType::new(BaseType::Float, 3, 2)), "mat2x3");
        assert_eq!(type_name(ValueType::new(BaseType::Uint, 4, 1)), "uvec4");
    }
}
