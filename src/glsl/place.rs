//! Places: where an lvalue or a variable read lives (IR vars, the default uniform block, a
//! std140 uniform block), how indexing, member selection and swizzles move through that
//! storage, and how a place is read into a `Value` or written. Dynamic indices into vars
//! become `Select` chains (reads) and guarded `Select` writes; into uniforms and blocks they
//! become the IR's indexed loads.

use std::rc::Rc;

use crate::ir::{BinaryOp, Op, Scalar, ScalarKind, Stmt, StorageAccess, UnaryOp, Var};

use super::diag::Span;
use super::lower::{bail, Lowerer, Root, Value, R};
use super::types::{self, comp_words, BlockLayout, Type};

/// Dynamic index terms are expanded into at most this many cases.
const MAX_DYNAMIC_CASES: u64 = 4096;

#[derive(Clone, Debug)]
pub struct Place {
    pub root: Root,
    pub ty: Type,
    /// Offset of this sub-object inside the root: words (vars, uniforms) or bytes (blocks).
    pub base: u32,
    /// Dynamic index terms: (index var, stride, element count).
    pub dyns: Vec<(Var, u32, u32)>,
    /// Explicit word offsets relative to `base` (swizzles, row-major columns).
    pub comps: Option<Vec<u32>>,
    pub writable: bool,
}

impl Place {
    pub fn of_value(v: Value) -> Place {
        Place {
            root: Root::Vars(v.vars.into()),
            ty: v.ty,
            base: 0,
            dyns: Vec::new(),
            comps: None,
            writable: false,
        }
    }
    /// The block layout of a place in a uniform or storage block; None for tight storage.
    fn std140(&self) -> Option<BlockLayout> {
        match self.root {
            Root::Block { row_major, .. } | Root::BlockArray { row_major, .. } => {
                Some(BlockLayout::std140(row_major))
            }
            Root::Storage { layout, .. }
            | Root::StorageArray { layout, .. }
            | Root::StorageOneOf { layout, .. } => Some(layout),
            _ => None,
        }
    }
}

/// Word offsets of each flattened word of `t`, in the tight layout (words) or a block
/// layout (bytes).
pub fn leaf_offsets(t: &Type, std140: Option<BlockLayout>, out: &mut Vec<u32>, base: u32) {
    match (t, std140) {
        (_, None) => {
            for i in 0..t.words() {
                out.push(base + i);
            }
        }
        (Type::Basic(v), Some(l)) => {
            let cw = comp_words(v.base);
            let ms = l.matrix_stride(v);
            for c in 0..v.cols as u32 {
                for r in 0..v.rows as u32 {
                    for w in 0..cw {
                        let off = if v.cols > 1 {
                            if l.row_major {
                                r * ms + c * cw * 4 + w * 4
                            } else {
                                c * ms + r * cw * 4 + w * 4
                            }
                        } else {
                            r * cw * 4 + w * 4
                        };
                        out.push(base + off);
                    }
                }
            }
        }
        (Type::Array(e, n), Some(l)) => {
            let stride = types::block_array_stride(e, l);
            for k in 0..*n {
                leaf_offsets(e, std140, out, base + k * stride);
            }
        }
        (Type::Struct(s), Some(l)) => {
            let offs = types::block_member_offsets(s, l);
            for ((_, mt), o) in s.members.iter().zip(offs) {
                leaf_offsets(mt, std140, out, base + o);
            }
        }
        (Type::Void, _) => {}
    }
}

impl Lowerer {
    /// An expression as a place (lvalue-capable expressions keep their storage).
    pub fn place(&mut self, e: &super::ast::Expr) -> R<Place> {
        use super::ast::ExprKind;
        match &e.kind {
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(super::lower::Sym::Var(v)) => {
                    // GLSL 4.60 §7.1: not before `layout(local_size_*) in;`.
                    if n == "gl_WorkGroupSize" && self.local_size_at.is_some_and(|at| at > e.span) {
                        bail!(
                            self,
                            e.span,
                            "gl_WorkGroupSize used before the local size is declared"
                        );
                    }
                    if n == "gl_FragCoord" {
                        let first = self.frag_coord_first_use.get_or_insert(e.span);
                        *first = (*first).min(e.span);
                    }
                    if n == "gl_FragColor" || n == "gl_FragData" {
                        if self.used_frag_color.as_ref().is_some_and(|(f, _)| f != n) {
                            self.error(
                                e.span,
                                "gl_FragColor and gl_FragData cannot both be used".to_string(),
                            );
                        }
                        if self.used_frag_color.is_none() {
                            self.used_frag_color = Some((n.clone(), e.span));
                        }
                    }
                    Ok(Place {
                        root: v.root.clone(),
                        ty: v.ty.clone(),
                        base: v.base,
                        dyns: self.counter_param_place_dyns(&v),
                        comps: None,
                        writable: v.writable,
                    })
                }
                Some(super::lower::Sym::Struct(_)) => {
                    bail!(self, e.span, "`{n}' is a type, not a value")
                }
                None => bail!(self, e.span, "`{n}' undeclared"),
            },
            ExprKind::Index(a, i) => {
                let p = self.place(a)?;
                self.index_place(p, i, e.span)
            }
            ExprKind::Field(a, f) => {
                let p = self.place(a)?;
                self.field_place(p, f, e.span)
            }
            _ => {
                let v = self.expr(e)?;
                Ok(Place::of_value(v))
            }
        }
    }

    pub fn index_place(&mut self, mut p: Place, i: &super::ast::Expr, span: Span) -> R<Place> {
        let cidx = self.const_eval(i).and_then(|c| c.as_index());
        let idx_val = if cidx.is_none() {
            let v = self.expr(i)?;
            if !(v.ty == Type::INT || v.ty == Type::UINT) {
                bail!(self, i.span, "array index must be a scalar int or uint");
            }
            Some(v.vars[0])
        } else {
            None
        };
        if let Some(c) = self.const_eval(i) {
            if c.as_index().is_none() {
                bail!(self, i.span, "array index must be a scalar int or uint");
            }
        }
        let std = p.std140();
        let row_major = std.is_some_and(|l| l.row_major);
        let (elem, len, stride) = match &p.ty {
            Type::Array(e, n) => {
                let stride = match std {
                    Some(l) => types::block_array_stride(e, l),
                    None => e.words(),
                };
                ((**e).clone(), *n, stride)
            }
            Type::Basic(v) if v.cols > 1 => {
                let col = Type::vector(v.base, v.rows);
                // A double component is 8 bytes, 2 words (ARCHITECTURE.md §8).
                let stride = match std {
                    Some(l) if l.row_major => 4 * comp_words(v.base),
                    Some(l) => l.matrix_stride(v),
                    None => v.rows as u32 * comp_words(v.base),
                };
                if let Some(l) = std.filter(|l| l.row_major) {
                    // Row-major: column c's words are r * matrix_stride + c * 4 (c * 8 for
                    // doubles).
                    let ms = l.matrix_stride(v);
                    let cw = comp_words(v.base);
                    let base_comps: Vec<u32> = (0..v.rows as u32)
                        .flat_map(|r| (0..cw).map(move |w| r * ms + w * 4))
                        .collect();
                    if p.comps.is_some() {
                        bail!(self, span, "cannot index a swizzle");
                    }
                    p.comps = Some(base_comps);
                }
                (col, v.cols as u32, stride)
            }
            Type::Basic(v) if v.rows > 1 => {
                let cw = comp_words(v.base);
                let scal = Type::scalar(v.base);
                // A vector component: select its words.
                let mut offs = Vec::new();
                match &p.comps {
                    Some(c) => offs.extend(c.iter().copied()),
                    None => leaf_offsets(&p.ty, std, &mut offs, 0),
                }
                let n = v.rows as u32;
                if let Some(k) = cidx {
                    if k < 0 || k >= n as i64 {
                        bail!(self, i.span, "vector index {k} out of range");
                    }
                    let k = k as usize * cw as usize;
                    p.comps = Some(offs[k..k + cw as usize].to_vec());
                    p.ty = scal;
                    return Ok(p);
                }
                if p.comps.is_some() {
                    // A swizzle's components are not evenly spaced (`v.wzx[i]`): the index
                    // picks its component's offset (relative to the lowest), which then
                    // indexes with stride 1 (GLSL 4.60 §5.5: a swizzle may be indexed).
                    let first: Vec<u32> = offs.iter().step_by(cw as usize).copied().collect();
                    let low = first.iter().copied().min().unwrap_or(0);
                    let kind = idx_val.map_or(ScalarKind::I32, |iv| self.kind_of(iv));
                    let mut sel = self.konst(Scalar::U32(first[0] - low));
                    if let Some(iv) = idx_val {
                        for (k, &o) in first.iter().enumerate().skip(1) {
                            let kc = match kind {
                                ScalarKind::U32 => self.konst(Scalar::U32(k as u32)),
                                _ => self.konst(Scalar::I32(k as i32)),
                            };
                            let eq =
                                self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::IEq, iv, kc));
                            let oc = self.konst(Scalar::U32(o - low));
                            sel = self.assign(
                                ScalarKind::U32,
                                Op::Select {
                                    cond: eq,
                                    a: oc,
                                    b: sel,
                                },
                            );
                        }
                    }
                    let span_words = first.iter().map(|o| o - low).max().unwrap_or(0) + 1;
                    p.comps = Some(
                        offs[..cw as usize]
                            .iter()
                            .map(|o| o - first[0] + low)
                            .collect(),
                    );
                    p.dyns.push((sel, 1, span_words));
                    p.ty = scal;
                    return Ok(p);
                }
                let stride = match std {
                    Some(_) => 4 * cw,
                    None => cw,
                };
                p.comps = Some(offs[..cw as usize].to_vec());
                if let Some(iv) = idx_val {
                    p.dyns.push((iv, stride, n));
                }
                p.ty = scal;
                return Ok(p);
            }
            t => bail!(self, span, "cannot index a value of type {t}"),
        };
        // An array of arrays of blocks (GL_ARB_arrays_of_arrays): its blocks are numbered
        // row-major, so an outer index k skips k times the blocks of one element and
        // leaves an array of blocks.
        let blocks_per_elem = block_count(&elem);
        if let Root::BlockArray { first, row_major } = p.root {
            let Some(k) = cidx else {
                bail!(
                    self,
                    i.span,
                    "uniform block arrays must be indexed with a constant"
                );
            };
            if k < 0 || k >= len as i64 {
                bail!(self, i.span, "array index {k} out of range");
            }
            let block = first + k as u32 * blocks_per_elem;
            p.root = match elem {
                Type::Array(..) => Root::BlockArray {
                    first: block,
                    row_major,
                },
                _ => Root::Block { block, row_major },
            };
            p.ty = elem;
            return Ok(p);
        }
        if let Root::StorageArray { first, layout } = p.root {
            if let (Type::Array(..), Some(k)) = (&elem, cidx) {
                if k < 0 || k >= len as i64 {
                    bail!(self, i.span, "array index {k} out of range");
                }
                p.root = Root::StorageArray {
                    first: first + k as u32 * blocks_per_elem,
                    layout,
                };
                p.ty = elem;
                return Ok(p);
            }
            if matches!(elem, Type::Array(..)) {
                bail!(
                    self,
                    i.span,
                    "an outer dimension of an array of arrays of storage blocks must be indexed with a constant (softgl)"
                );
            }
            let Some(k) = cidx else {
                // GLSL 4.60 §4.3.9: a dynamically uniform index; each access then
                // picks its block (`Root::StorageOneOf`).
                let Some(index) = idx_val else {
                    bail!(self, i.span, "internal error: no index value");
                };
                p.root = Root::StorageOneOf {
                    first,
                    count: len,
                    index,
                    layout,
                };
                p.ty = elem;
                return Ok(p);
            };
            if k < 0 || k >= len as i64 {
                bail!(self, i.span, "array index {k} out of range");
            }
            p.root = Root::Storage {
                block: first + k as u32,
                layout,
            };
            p.ty = elem;
            return Ok(p);
        }
        // The last member of a storage block may be a runtime-sized array (length 0 here):
        // any index is accepted and checked against the bound range when it runs.
        let runtime =
            len == 0 && matches!(p.root, Root::Storage { .. } | Root::StorageOneOf { .. });
        if p.comps.is_some() && !(matches!(p.ty, Type::Basic(_)) && row_major) {
            bail!(self, span, "cannot index a swizzle");
        }
        match cidx {
            Some(k) => {
                if k < 0 || (k >= len as i64 && !runtime) {
                    bail!(self, i.span, "array index {k} out of range");
                }
                if let Some(c) = &mut p.comps {
                    for o in c.iter_mut() {
                        *o += k as u32 * stride;
                    }
                } else {
                    p.base += k as u32 * stride;
                }
            }
            None => {
                if let Some(iv) = idx_val {
                    p.dyns.push((iv, stride, len));
                }
            }
        }
        p.ty = elem;
        Ok(p)
    }

    pub fn field_place(&mut self, mut p: Place, f: &str, span: Span) -> R<Place> {
        match p.ty.clone() {
            Type::Struct(s) => {
                if p.comps.is_some() {
                    bail!(self, span, "invalid member access");
                }
                let Some(i) = s.members.iter().position(|(n, _)| n == f) else {
                    bail!(self, span, "`{f}' is not a member of `{}'", s.name);
                };
                let off = match p.std140() {
                    Some(l) => types::block_member_offsets(&s, l)[i],
                    None => s.members[..i].iter().map(|(_, t)| t.words()).sum(),
                };
                p.base += off;
                p.ty = s.members[i].1.clone();
                Ok(p)
            }
            Type::Basic(v) if v.cols == 1 && !v.base.is_sampler() => {
                let Some(idx) = super::lower::swizzle_indices(f) else {
                    bail!(self, span, "invalid swizzle `{f}'");
                };
                if idx.iter().any(|&k| k >= v.rows as u32) {
                    bail!(
                        self,
                        span,
                        "swizzle `{f}' selects a component beyond {}",
                        p.ty
                    );
                }
                if self.version < 420 && !self.shading_language_420pack && v.rows == 1 {
                    bail!(
                        self,
                        span,
                        "swizzles of scalars require GLSL 4.20 or GL_ARB_shading_language_420pack"
                    );
                }
                let cw = comp_words(v.base) as usize;
                let mut offs = Vec::new();
                match &p.comps {
                    Some(c) => offs.extend(c.iter().copied()),
                    None => leaf_offsets(&p.ty, p.std140(), &mut offs, 0),
                }
                let mut sel = Vec::new();
                for &k in &idx {
                    let k = k as usize * cw;
                    sel.extend_from_slice(&offs[k..k + cw]);
                }
                let mut uniq = idx.clone();
                uniq.sort();
                uniq.dedup();
                if uniq.len() != idx.len() {
                    p.writable = false;
                }
                p.comps = Some(sel);
                p.ty = Type::vector(v.base, idx.len() as u8);
                Ok(p)
            }
            t => bail!(self, span, "type {t} has no member `{f}'"),
        }
    }

    /// Every combination of the dynamic indices: (condition, extra offset).
    fn dyn_cases(&mut self, dyns: &[(Var, u32, u32)], span: Span) -> R<Vec<(Var, u32)>> {
        let total: u64 = dyns.iter().map(|d| d.2 as u64).product();
        if total > MAX_DYNAMIC_CASES {
            bail!(self, span, "dynamically indexed array is too large");
        }
        let mut cases: Vec<(Option<Var>, u32)> = vec![(None, 0)];
        for &(iv, stride, count) in dyns {
            let kind = self.kind_of(iv);
            let mut next = Vec::new();
            for k in 0..count {
                let kc = match kind {
                    ScalarKind::U32 => self.konst(Scalar::U32(k)),
                    _ => self.konst(Scalar::I32(k as i32)),
                };
                let eq = self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::IEq, iv, kc));
                for (c, off) in &cases {
                    let cond = match c {
                        Some(c) => {
                            self.assign(ScalarKind::Bool, Op::Binary(BinaryOp::LogicalAnd, *c, eq))
                        }
                        None => eq,
                    };
                    next.push((Some(cond), off + k * stride));
                }
            }
            cases = next;
        }
        Ok(cases
            .into_iter()
            .filter_map(|(c, o)| c.map(|c| (c, o)))
            .collect())
    }

    /// A single dynamic index (in units of 1) combined from the terms, as u32 or i32.
    pub(super) fn combined_index(&mut self, dyns: &[(Var, u32, u32)], scale: u32) -> Var {
        let mut acc: Option<Var> = None;
        for &(iv, stride, _) in dyns {
            let iv = if self.kind_of(iv) == ScalarKind::I32 {
                self.assign(ScalarKind::U32, Op::Unary(UnaryOp::I2U, iv))
            } else {
                iv
            };
            let s = self.konst(Scalar::U32(stride * scale));
            let t = self.assign(ScalarKind::U32, Op::Binary(BinaryOp::IMul, iv, s));
            acc = Some(match acc {
                Some(a) => self.assign(ScalarKind::U32, Op::Binary(BinaryOp::IAdd, a, t)),
                None => t,
            });
        }
        acc.unwrap_or_else(|| self.konst(Scalar::U32(0)))
    }

    /// Reads a place into fresh vars.
    pub fn read(&mut self, p: &Place, span: Span) -> R<Value> {
        if p.ty.contains_base(crate::ir::BaseType::AtomicUint) {
            // GLSL 4.60 §4.1.7.4: "Except for array indexing, structure member selection,
            // and parentheses, counters are not allowed to be operands in expressions."
            bail!(
                self,
                span,
                "an atomic counter can only be an argument of the atomic counter functions"
            );
        }
        let mut offs = Vec::new();
        match &p.comps {
            Some(c) => offs.extend(c.iter().copied()),
            None => leaf_offsets(&p.ty, p.std140(), &mut offs, 0),
        }
        let mut kinds = Vec::new();
        p.ty.word_kinds(&mut kinds);
        if kinds.len() != offs.len() {
            bail!(self, span, "internal error: layout mismatch");
        }
        let mut vars = Vec::with_capacity(offs.len());
        match &p.root {
            Root::Vars(vs) => {
                let vs = vs.clone();
                let cases = if p.dyns.is_empty() {
                    Vec::new()
                } else {
                    self.dyn_cases(&p.dyns, span)?
                };
                for (o, k) in offs.iter().zip(&kinds) {
                    let at = |extra: u32| vs.get((p.base + o + extra) as usize).copied();
                    let Some(first) = at(0) else {
                        bail!(self, span, "internal error: place out of range");
                    };
                    let mut r = self.assign(*k, Op::Copy(first));
                    for (cond, extra) in &cases {
                        if let Some(src) = at(*extra) {
                            let nr = self.assign(
                                *k,
                                Op::Select {
                                    cond: *cond,
                                    a: src,
                                    b: r,
                                },
                            );
                            r = nr;
                        }
                    }
                    vars.push(r);
                }
            }
            Root::Uniform(ub) => {
                let ub = *ub;
                let index = match p.dyns.as_slice() {
                    [] => None,
                    [(iv, stride, count)] => Some((*iv, *stride, *count)),
                    many => {
                        let iv = self.combined_index(many, 1);
                        let span_words: u32 = many
                            .iter()
                            .map(|d| d.1.saturating_mul(d.2.saturating_sub(1)))
                            .sum();
                        Some((iv, 1, span_words + 1))
                    }
                };
                for (o, k) in offs.iter().zip(&kinds) {
                    // GL stores bool uniforms as 0 / 1 (or any non-zero): normalize to a mask.
                    let load_kind = if *k == ScalarKind::Bool {
                        ScalarKind::U32
                    } else {
                        *k
                    };
                    let v = self.assign(
                        load_kind,
                        Op::Uniform {
                            offset: ub + p.base + o,
                            index,
                        },
                    );
                    let v = if *k == ScalarKind::Bool {
                        self.assign(ScalarKind::Bool, Op::Unary(UnaryOp::I2B, v))
                    } else {
                        v
                    };
                    vars.push(v);
                }
            }
            Root::Block { block, .. } => {
                let block = *block;
                let dynamic = if p.dyns.is_empty() {
                    None
                } else {
                    Some(self.combined_index(&p.dyns, 1))
                };
                for (o, k) in offs.iter().zip(&kinds) {
                    let load_kind = if *k == ScalarKind::Bool {
                        ScalarKind::U32
                    } else {
                        *k
                    };
                    let v = self.assign(
                        load_kind,
                        Op::BlockLoad {
                            block,
                            offset: p.base + o,
                            dynamic,
                        },
                    );
                    let v = if *k == ScalarKind::Bool {
                        self.assign(ScalarKind::Bool, Op::Unary(UnaryOp::I2B, v))
                    } else {
                        v
                    };
                    vars.push(v);
                }
            }
            Root::StorageOneOf { .. } => {
                let vars =
                    self.each_indexed_block(p, &kinds, span, |s, pk| Ok(s.read(pk, span)?.vars))?;
                return Ok(Value {
                    ty: p.ty.clone(),
                    vars,
                });
            }
            Root::Storage { block, .. } => {
                let block = *block;
                self.check_member_access(block, p, &offs, false, span)?;
                let dynamic = if p.dyns.is_empty() {
                    None
                } else {
                    Some(self.combined_index(&p.dyns, 1))
                };
                for (o, k) in offs.iter().zip(&kinds) {
                    let load_kind = if *k == ScalarKind::Bool {
                        ScalarKind::U32
                    } else {
                        *k
                    };
                    let v = self.assign(
                        load_kind,
                        Op::StorageLoad {
                            block,
                            offset: p.base + o,
                            dynamic,
                        },
                    );
                    let v = if *k == ScalarKind::Bool {
                        self.assign(ScalarKind::Bool, Op::Unary(UnaryOp::I2B, v))
                    } else {
                        v
                    };
                    vars.push(v);
                }
            }
            Root::BlockArray { .. } | Root::StorageArray { .. } => {
                bail!(self, span, "a block array cannot be used as a value")
            }
        }
        Ok(Value {
            ty: p.ty.clone(),
            vars,
        })
    }

    /// Writes `v` (already of the place's type) into a writable place.
    pub fn write(&mut self, p: &Place, v: &Value, span: Span) -> R<()> {
        if !p.writable {
            if let Some(c) = &p.comps {
                let mut sorted = c.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != c.len() && matches!(p.root, Root::Vars(_)) {
                    bail!(self, span, "l-value swizzle has repeated components");
                }
            }
            bail!(self, span, "assignment to a read-only value");
        }
        if p.ty.contains_sampler() && !self.bindless {
            bail!(
                self,
                span,
                "assignment of a sampler requires GL_ARB_bindless_texture"
            );
        }
        if let Root::Storage { block, .. } = p.root {
            return self.write_storage(p, block, v, span);
        }
        if let Root::StorageOneOf { .. } = p.root {
            self.each_indexed_block(p, &[], span, |s, pk| {
                s.write(pk, v, span)?;
                Ok(Vec::new())
            })?;
            return Ok(());
        }
        let Root::Vars(vs) = &p.root else {
            bail!(self, span, "assignment to a read-only value");
        };
        let vs: Rc<[Var]> = vs.clone();
        let mut offs = Vec::new();
        match &p.comps {
            Some(c) => offs.extend(c.iter().copied()),
            None => leaf_offsets(&p.ty, None, &mut offs, 0),
        }
        if offs.len() != v.vars.len() {
            bail!(self, span, "internal error: value size mismatch");
        }
        if p.dyns.is_empty() {
            for (o, src) in offs.iter().zip(&v.vars) {
                if let Some(d) = vs.get((p.base + o) as usize) {
                    self.emit(Stmt::Assign {
                        dst: *d,
                        op: Op::Copy(*src),
                    });
                }
            }
            return Ok(());
        }
        let cases = self.dyn_cases(&p.dyns, span)?;
        for (cond, extra) in cases {
            for (o, src) in offs.iter().zip(&v.vars) {
                if let Some(d) = vs.get((p.base + o + extra) as usize) {
                    self.emit(Stmt::Assign {
                        dst: *d,
                        op: Op::Select {
                            cond,
                            a: *src,
                            b: *d,
                        },
                    });
                }
            }
        }
        Ok(())
    }

    /// Writes `v` into a place of storage block `block`: one `Stmt::Storage` store per word
    /// (booleans as 0/1, as GL stores them), at the place's dynamic offset if any.
    fn write_storage(&mut self, p: &Place, block: u32, v: &Value, span: Span) -> R<()> {
        let mut offs = Vec::new();
        match &p.comps {
            Some(c) => offs.extend(c.iter().copied()),
            None => leaf_offsets(&p.ty, p.std140(), &mut offs, 0),
        }
        if offs.len() != v.vars.len() {
            bail!(self, span, "internal error: value size mismatch");
        }
        self.check_member_access(block, p, &offs, true, span)?;
        let dynamic = if p.dyns.is_empty() {
            None
        } else {
            Some(self.combined_index(&p.dyns, 1))
        };
        for (o, src) in offs.iter().zip(&v.vars) {
            let src = if self.kind_of(*src) == ScalarKind::Bool {
                self.assign(ScalarKind::U32, Op::Unary(UnaryOp::B2U, *src))
            } else {
                *src
            };
            self.emit(Stmt::Storage {
                dst: None,
                block,
                offset: p.base + o,
                dynamic,
                access: StorageAccess::Store(src),
            });
        }
        Ok(())
    }
}

/// The blocks one element of a block instance array holds: 1 for a block, the product of
/// the dimensions for an array of blocks.
fn block_count(t: &Type) -> u32 {
    match t {
        Type::Array(e, n) => n * block_count(e),
        _ => 1,
    }
}
