//! The shader cache: compiled code keyed by the structural form of what the code depends on,
//! so relinking the same program (or two programs sharing a stage) reuses its code.
//!
//! The key is a word encoding of the stage and the function (vars, arrays, body, outputs),
//! floats by their bits — no `Debug` text and no float equality (a NaN constant must still
//! hit). Left out of the key because they do not change generated code: names, uniform,
//! block and interface declarations, `version` and the fragment flags (`uses_discard` &
//! co.) — the body already says all they would.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::{CompileError, ShaderCode};
use crate::ir::{Lod, Module, Op, Stage, Stmt, StorageAccess};

/// Entries kept before the cache starts over (code stays alive while anyone holds it).
const CAPACITY: usize = 1024;

type Cache = Mutex<HashMap<Vec<u32>, Arc<dyn ShaderCode>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Returns cached code for `module`, or compiles it with `compile` and caches the result.
/// Errors are not cached (they are cheap to reproduce and rare).
pub(crate) fn get_or_compile(
    module: &Module,
    compile: impl FnOnce(&Module) -> Result<Arc<dyn ShaderCode>, CompileError>,
) -> Result<Arc<dyn ShaderCode>, CompileError> {
    let key = encode(module);
    if let Some(code) = lock().get(&key) {
        return Ok(code.clone());
    }
    // Compiling outside the lock lets other threads use the cache meanwhile; two threads
    // compiling the same module both succeed and one result wins.
    let code = compile(module)?;
    let mut map = lock();
    if map.len() >= CAPACITY {
        map.clear();
    }
    Ok(map.entry(key).or_insert(code).clone())
}

fn lock() -> std::sync::MutexGuard<'static, HashMap<Vec<u32>, Arc<dyn ShaderCode>>> {
    // A poisoned cache only means a panic elsewhere while holding it; the map is still
    // consistent (inserts are single operations).
    cache().lock().unwrap_or_else(|p| p.into_inner())
}

/// The cache key: everything generated code depends on, as words.
pub(crate) fn encode(module: &Module) -> Vec<u32> {
    let f = &module.func;
    let mut w = Vec::with_capacity(64);
    w.push(match module.stage {
        Stage::Vertex => 0,
        Stage::Fragment => 1,
        Stage::Compute => 2,
        Stage::Geometry => 3,
        Stage::TessControl => 4,
        Stage::TessEval => 5,
    });
    w.push(f.vars.len() as u32);
    for k in &f.vars {
        w.push(*k as u32);
    }
    w.push(f.arrays.len() as u32);
    for a in &f.arrays {
        w.push(a.kind as u32);
        w.push(a.len);
    }
    w.push(f.outputs.len() as u32);
    w.extend(f.outputs.iter().map(|v| v.0));
    w.push(f.output_rows.len() as u32);
    w.extend(f.output_rows.iter().copied());
    encode_body(&f.body, &mut w);
    w
}

fn encode_body(body: &[Stmt], w: &mut Vec<u32>) {
    w.push(body.len() as u32);
    for s in body {
        encode_stmt(s, w);
    }
}

fn encode_lod(lod: &Lod, w: &mut Vec<u32>) {
    match lod {
        Lod::Implicit => w.push(0),
        Lod::Bias(v) => w.extend([1, v.0]),
        Lod::Explicit(v) => w.extend([2, v.0]),
        Lod::Gather(v) => w.extend([3, v.0]),
        Lod::QueryLod => w.push(4),
    }
}

fn encode_stmt(s: &Stmt, w: &mut Vec<u32>) {
    match s {
        Stmt::Image {
            op,
            dim,
            handle,
            coord,
            sample,
            data,
            dst,
        } => {
            w.extend([40, *op as u32, *dim as u32]);
            w.extend(handle.iter().map(|v| v.0));
            for v in coord.iter().chain([sample]).chain(data).chain(dst) {
                encode_opt(*v, w);
            }
        }
        Stmt::Assign { dst, op } => {
            w.extend([0, dst.0]);
            encode_op(op, w);
        }
        Stmt::StoreArray {
            array,
            index,
            value,
        } => w.extend([1, array.0, index.0, value.0]),
        Stmt::If {
            cond,
            then_body,
            else_body,
        } => {
            w.extend([2, cond.0]);
            encode_body(then_body, w);
            encode_body(else_body, w);
        }
        Stmt::Loop {
            label,
            body,
            continuing,
        } => {
            w.extend([3, label.0]);
            encode_body(body, w);
            encode_body(continuing, w);
        }
        Stmt::Break(l) => w.extend([4, l.0]),
        Stmt::Continue(l) => w.extend([5, l.0]),
        Stmt::Block { label, body } => {
            w.extend([6, label.0]);
            encode_body(body, w);
        }
        Stmt::Leave(l) => w.extend([7, l.0]),
        Stmt::Return => w.push(8),
        Stmt::Discard => w.push(9),
        Stmt::Barrier => w.push(15),
        Stmt::EmitVertex(s) => w.extend([40, *s]),
        Stmt::EndPrimitive(s) => w.extend([41, *s]),
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
            w.push(10);
            w.extend(dst.iter().map(|v| v.0));
            w.extend(handle.iter().map(|v| v.0));
            w.extend(coord.iter().map(|v| v.0));
            encode_lod(lod, w);
            w.extend(offset.iter().map(|o| *o as u32));
            encode_opt(*compare, w);
            encode_opt(*layer, w);
            encode_opt(*cube_layer, w);
        }
        Stmt::TexelFetch {
            dst,
            handle,
            coord,
            lod,
            layer,
        } => {
            w.push(11);
            w.extend(dst.iter().map(|v| v.0));
            w.extend(handle.iter().map(|v| v.0));
            w.extend(coord.iter().map(|v| v.0));
            w.push(lod.0);
            encode_opt(*layer, w);
        }
        Stmt::TextureSize {
            dst,
            handle,
            lod,
            layers,
            samples,
        } => {
            w.push(12);
            w.extend(dst.iter().map(|v| v.0));
            w.extend(handle.iter().map(|v| v.0));
            w.push(lod.0);
            encode_opt(*layers, w);
            encode_opt(*samples, w);
        }
        Stmt::Storage {
            dst,
            block,
            offset,
            dynamic,
            access,
        } => {
            w.extend([13, *block, *offset]);
            encode_opt(*dst, w);
            encode_opt(*dynamic, w);
            match *access {
                StorageAccess::Store(v) => w.extend([0, v.0]),
                StorageAccess::Atomic(op, v) => w.extend([1, op as u32, v.0]),
                StorageAccess::CompSwap { compare, value } => w.extend([2, compare.0, value.0]),
            }
        }
    }
}

/// An optional var: 0, or 1 and the var.
fn encode_opt(v: Option<crate::ir::Var>, w: &mut Vec<u32>) {
    match v {
        None => w.push(0),
        Some(v) => w.extend([1, v.0]),
    }
}

fn encode_op(op: &Op, w: &mut Vec<u32>) {
    match op {
        Op::Const(s) => w.extend([0, s.kind() as u32, s.bits()]),
        Op::Copy(v) => w.extend([1, v.0]),
        Op::Unary(u, v) => w.extend([2, *u as u32, v.0]),
        Op::Binary(b, x, y) => w.extend([3, *b as u32, x.0, y.0]),
        Op::Select { cond, a, b } => w.extend([4, cond.0, a.0, b.0]),
        Op::Fma(a, b, c) => w.extend([5, a.0, b.0, c.0]),
        Op::FClamp(a, b, c) => w.extend([6, a.0, b.0, c.0]),
        Op::FMix(a, b, c) => w.extend([7, a.0, b.0, c.0]),
        Op::BitfieldExtract {
            value,
            offset,
            bits,
        } => w.extend([8, value.0, offset.0, bits.0]),
        Op::BitfieldInsert {
            base,
            insert,
            offset,
            bits,
        } => w.extend([9, base.0, insert.0, offset.0, bits.0]),
        Op::F64 { op, args, word } => {
            w.extend([17, *op as u32, u32::from(*word)]);
            w.extend(args[..op.arg_words()].iter().map(|v| v.0));
        }
        Op::Input(r) => w.extend([10, *r]),
        Op::Builtin(b) => w.extend([11, b.index() as u32]),
        Op::Uniform { offset, index } => {
            w.extend([12, *offset]);
            match index {
                None => w.push(0),
                Some((v, stride, count)) => w.extend([1, v.0, *stride, *count]),
            }
        }
        Op::BlockLoad {
            block,
            offset,
            dynamic,
        } => {
            w.extend([13, *block, *offset]);
            match dynamic {
                None => w.push(0),
                Some(v) => w.extend([1, v.0]),
            }
        }
        Op::LoadArray { array, index } => w.extend([14, array.0, index.0]),
        Op::StorageLoad {
            block,
            offset,
            dynamic,
        } => {
            w.extend([15, *block, *offset]);
            encode_opt(*dynamic, w);
        }
        Op::StorageSize { block } => w.extend([16, *block]),
    }
}
