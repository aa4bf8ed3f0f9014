//! Tessellation (GL 4.5 core §11.2, GLSL 4.00 §4.3.8.1–2, §7.1, §8.16) in the IR: the
//! layout qualifiers of both stages, the limits, the fixed-function tessellator (a pure,
//! deterministic function: integer and f32 add/sub/mul/div only), the rewrite of a
//! tessellation control shader that runs every invocation of one patch in one lane (its
//! `barrier()`s become the seams between regions run invocation after invocation), and
//! the links VS → TCS → TES (where each input word of the two stages comes from).
//! Running the stages over a draw is the rasterizer's job (`raster::tess`).
//!
//! Output record of one control lane (one patch): the module's outputs in slot order,
//! per-vertex outputs as arrays of `vertices` elements (`gl_out[]` first: 13 words per
//! vertex, as `gl_in[]`), then the patch outputs and gl_TessLevelOuter[4] /
//! gl_TessLevelInner[2] (`BuiltinOutput::TessLevelOuter` / `TessLevelInner`).

use std::collections::HashMap;

use super::geometry::PER_VERTEX_WORDS;
use super::link::LinkError;
use super::{
    ArrayId, BuiltinOutput, InterfaceVar, Label, Module, Op, Scalar, ScalarKind, Stage, Stmt,
    UnaryOp, Var,
};

/// `GL_MAX_PATCH_VERTICES` (GL 4.5 core table 23.64's minimum, llvmpipe's 32).
pub const MAX_PATCH_VERTICES: u32 = 32;
/// `GL_MAX_TESS_GEN_LEVEL` (the minimum, llvmpipe's 64).
pub const MAX_GEN_LEVEL: u32 = 64;
/// `GL_MAX_TESS_CONTROL_INPUT_COMPONENTS` and the other per-stage component limits
/// (llvmpipe's 128).
pub const MAX_STAGE_COMPONENTS: u32 = 128;
/// `GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS` (llvmpipe's 4096).
pub const MAX_CONTROL_TOTAL_OUTPUT_COMPONENTS: u32 = 4096;
/// `GL_MAX_TESS_PATCH_COMPONENTS` (llvmpipe's 120).
pub const MAX_PATCH_COMPONENTS: u32 = 120;

/// The primitive mode of a tessellation evaluation shader (`layout(triangles) in;`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Triangles,
    Quads,
    Isolines,
}

/// The spacing of a tessellation evaluation shader (default `equal_spacing`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Spacing {
    #[default]
    Equal,
    FractionalEven,
    FractionalOdd,
}

/// Both tessellation stages' layout qualifiers, and which of a stage's inputs or outputs
/// are per patch (`patch in` / `patch out`, by name).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TessLayout {
    /// Control: `layout(vertices = N) out;`.
    pub vertices: Option<u32>,
    /// Evaluation: the primitive mode (required at link).
    pub mode: Option<Mode>,
    pub spacing: Option<Spacing>,
    /// `cw` (`Some(true)`) or `ccw`; ccw when not declared.
    pub cw: Option<bool>,
    pub point_mode: bool,
    /// Names of the `patch` inputs (evaluation) or outputs (control).
    pub patch: Vec<String>,
}

impl TessLayout {
    /// Whether `name` is a per-patch variable.
    pub fn is_patch(&self, name: &str) -> bool {
        self.patch.iter().any(|p| p == name)
    }
}

/// What one patch becomes (GL 4.5 core §11.2.2): tessellation coordinates, and the
/// primitives over them (indices into `coords`, 3 per triangle, 2 per line, 1 per point).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tessellation {
    pub coords: Vec<[f32; 3]>,
    pub indices: Vec<u32>,
    /// Vertices per primitive: 3, 2 or 1.
    pub per_prim: u32,
}

/// The primitives one patch of `mode` makes, whatever its levels: triangles, lines or
/// points.
pub fn prim_vertices(mode: Mode, point_mode: bool) -> u32 {
    match (mode, point_mode) {
        (_, true) => 1,
        (Mode::Isolines, false) => 2,
        _ => 3,
    }
}

/// ceil(f) for 1 <= f <= 64 (f finite), by integer conversion (no libm).
fn ceil_small(f: f32) -> u32 {
    let i = f as u32;
    if (i as f32) < f {
        i + 1
    } else {
        i
    }
}

/// A tessellation level clamped and rounded as `spacing` says (GL 4.5 core §11.2.2):
/// (the clamped level f, the segment count n). NaN clamps to the low end.
pub fn round_level(level: f32, spacing: Spacing) -> (f32, u32) {
    let max = MAX_GEN_LEVEL as f32;
    match spacing {
        Spacing::Equal => {
            let f = level.max(1.0).min(max);
            (f, ceil_small(f))
        }
        Spacing::FractionalEven => {
            let f = level.max(2.0).min(max);
            let n = ceil_small(f);
            (f, n + n % 2)
        }
        Spacing::FractionalOdd => {
            let f = level.max(1.0).min(max - 1.0);
            let n = ceil_small(f);
            (f, n + (1 - n % 2))
        }
    }
}

/// The `n + 1` points that subdivide an edge at level (f, n): pairs (t, 1 − t) with
/// pair `n − j` the mirror of pair `j` exactly (swapped), so that an edge walked from
/// either end gets the same points. Equal spacing: n equal segments. Fractional: n − 2
/// segments of length 1/f and two shorter ones of (f − n + 2) / 2f at the two ends
/// (GL 4.5 core §11.2.2 leaves where they go to the implementation, placed symmetrically).
pub fn edge_points(f: f32, n: u32, spacing: Spacing) -> Vec<(f32, f32)> {
    let n = n.max(1);
    let t = |j: u32| -> f32 {
        if j == 0 {
            return 0.0;
        }
        match spacing {
            Spacing::Equal => j as f32 / n as f32,
            _ if n < 2 => j as f32 / n as f32,
            _ => {
                let short = (f - (n - 2) as f32) / (2.0 * f);
                short + (j - 1) as f32 / f
            }
        }
    };
    (0..=n)
        .map(|j| {
            if 2 * j <= n {
                let a = t(j);
                (a, 1.0 - a)
            } else {
                let b = t(n - j);
                (1.0 - b, b)
            }
        })
        .collect()
}

/// Builds the primitives of one patch.
struct Mesh {
    coords: Vec<[f32; 3]>,
    indices: Vec<u32>,
}

impl Mesh {
    fn vertex(&mut self, c: [f32; 3]) -> u32 {
        self.coords.push(c);
        self.coords.len() as u32 - 1
    }
    /// A counter-clockwise triangle (in (u, v) space).
    fn tri(&mut self, a: u32, b: u32, c: u32) {
        self.indices.extend([a, b, c]);
    }
    /// Fills the band between an outer polyline `p` and an inner polyline `q` that run
    /// the same way along one side of a ring (counter-clockwise around the domain, the
    /// inside on the left): each step advances the polyline whose next point comes first
    /// in proportion (exact integer comparison), the outer one on a tie.
    fn band(&mut self, p: &[u32], q: &[u32]) {
        let (a, b) = (p.len() as u64 - 1, q.len() as u64 - 1);
        let (mut i, mut j) = (0u64, 0u64);
        while i < a || j < b {
            let outer = j == b || (i < a && (i + 1) * b <= (j + 1) * a);
            if outer {
                self.tri(p[i as usize], p[i as usize + 1], q[j as usize]);
                i += 1;
            } else {
                self.tri(p[i as usize], q[j as usize + 1], q[j as usize]);
                j += 1;
            }
        }
    }
}

/// Tessellates one patch (GL 4.5 core §11.2.2): `None` when an outer level the mode uses
/// is <= 0 or NaN (the patch is discarded). Levels are clamped to [1 or 2,
/// MAX_GEN_LEVEL] and rounded per `spacing`. Triangles come counter-clockwise in (u, v)
/// space unless `cw`; `point_mode` gives each vertex once as a point.
pub fn tessellate(
    mode: Mode,
    spacing: Spacing,
    cw: bool,
    point_mode: bool,
    outer: [f32; 4],
    inner: [f32; 2],
) -> Option<Tessellation> {
    let used = match mode {
        Mode::Triangles => 3,
        Mode::Quads => 4,
        Mode::Isolines => 2,
    };
    // NaN is not greater than 0 either.
    if outer[..used]
        .iter()
        .any(|&l| l.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
    {
        return None;
    }
    let mut mesh = Mesh {
        coords: Vec::new(),
        indices: Vec::new(),
    };
    let per_prim = match mode {
        Mode::Triangles => {
            triangles(&mut mesh, spacing, outer, inner[0]);
            3
        }
        Mode::Quads => {
            quads(&mut mesh, spacing, outer, inner);
            3
        }
        Mode::Isolines => {
            isolines(&mut mesh, spacing, outer);
            2
        }
    };
    if point_mode {
        let n = mesh.coords.len() as u32;
        return Some(Tessellation {
            coords: mesh.coords,
            indices: (0..n).collect(),
            per_prim: 1,
        });
    }
    if cw && per_prim == 3 {
        for t in mesh.indices.chunks_exact_mut(3) {
            t.swap(1, 2);
        }
    }
    Some(Tessellation {
        coords: mesh.coords,
        indices: mesh.indices,
        per_prim,
    })
}

/// The inner level of a patch whose outer levels are not all 1: a level that rounds to 1
/// is taken as 1 + ε (GL 4.5 core §11.2.2.1–2), i.e. the next n the spacing allows, with
/// the level itself at 1.
fn inner_level(level: f32, spacing: Spacing) -> (f32, u32) {
    let (f, n) = round_level(level, spacing);
    if n > 1 {
        return (f, n);
    }
    match spacing {
        Spacing::FractionalOdd => (1.0, 3),
        _ => (f, 2),
    }
}

/// GL 4.5 core §11.2.2.1: concentric triangles. Corners u = (1,0,0), v = (0,1,0), w =
/// (0,0,1) (counter-clockwise); outer[0] subdivides the edge u = 0, [1] v = 0, [2] w = 0.
/// Inner ring k's points lie where the perpendiculars through the inner level's points
/// t_k..t_{n−k} of an outer edge meet the ring (one third of t_k in from each side).
fn triangles(mesh: &mut Mesh, spacing: Spacing, outer: [f32; 4], inner: f32) {
    let o: Vec<(f32, u32)> = (0..3).map(|k| round_level(outer[k], spacing)).collect();
    let (fi, ni) = round_level(inner, spacing);
    if o.iter().all(|&(_, n)| n == 1) && ni == 1 {
        let a = mesh.vertex([1.0, 0.0, 0.0]);
        let b = mesh.vertex([0.0, 1.0, 0.0]);
        let c = mesh.vertex([0.0, 0.0, 1.0]);
        mesh.tri(a, b, c);
        return;
    }
    let (fi, ni) = if ni == 1 {
        inner_level(inner, spacing)
    } else {
        (fi, ni)
    };
    // Side s of the ring runs from corner s to corner s+1 (u → v → w → u); its points
    // as barycentrics from the pair (t, 1 − t) and the ring's inset d (= t_k / 3).
    let at = |side: usize, (a, b): (f32, f32), d: f32| -> [f32; 3] {
        let (x, y, z) = (b - d, a - d, d + d);
        match side {
            0 => [x, y, z],
            1 => [z, x, y],
            _ => [y, z, x],
        }
    };
    // Outer ring: side 0 (w = 0) takes outer[2], side 1 (u = 0) outer[0], side 2 outer[1].
    let outer_level = [o[2], o[0], o[1]];
    let mut ring: Vec<Vec<u32>> = Vec::new();
    for (side, &(f, n)) in outer_level.iter().enumerate() {
        let pts = edge_points(f, n, spacing);
        let line: Vec<u32> = pts[..n as usize]
            .iter()
            .map(|&p| mesh.vertex(at(side, p, 0.0)))
            .collect();
        ring.push(line);
    }
    let close = |ring: &Vec<Vec<u32>>| -> Vec<Vec<u32>> {
        (0..3)
            .map(|s| {
                let mut l = ring[s].clone();
                l.push(ring[(s + 1) % 3][0]);
                l
            })
            .collect()
    };
    let mut outer_sides = close(&ring);
    let inner_pts = edge_points(fi, ni, spacing);
    let mut k = 1u32;
    loop {
        let segs = ni as i64 - 2 * k as i64;
        if segs < 0 {
            break;
        }
        if segs == 0 {
            let c = 1.0f32 / 3.0;
            let centre = mesh.vertex([c, c, c]);
            for side in &outer_sides {
                mesh.band(side, &[centre]);
            }
            break;
        }
        let d = inner_pts[k as usize].0 / 3.0;
        let mut ring: Vec<Vec<u32>> = Vec::new();
        for side in 0..3 {
            let line: Vec<u32> = (k..ni - k)
                .map(|j| mesh.vertex(at(side, inner_pts[j as usize], d)))
                .collect();
            ring.push(line);
        }
        let sides = close(&ring);
        for s in 0..3 {
            mesh.band(&outer_sides[s], &sides[s]);
        }
        if segs == 1 {
            mesh.tri(ring[0][0], ring[1][0], ring[2][0]);
            break;
        }
        outer_sides = sides;
        k += 1;
    }
}

/// GL 4.5 core §11.2.2.2: a rectangle. outer[0] subdivides the edge u = 0, [1] v = 0,
/// [2] u = 1, [3] v = 1; inner[0] the u direction inside, inner[1] the v direction. The
/// inside is the grid of the inner levels' points (its concentric rectangles are its
/// rings), the outer ring joins it to the outer edges.
fn quads(mesh: &mut Mesh, spacing: Spacing, outer: [f32; 4], inner: [f32; 2]) {
    let o: Vec<(f32, u32)> = (0..4).map(|k| round_level(outer[k], spacing)).collect();
    let i0 = round_level(inner[0], spacing);
    let i1 = round_level(inner[1], spacing);
    if o.iter().all(|&(_, n)| n == 1) && i0.1 == 1 && i1.1 == 1 {
        let a = mesh.vertex([0.0, 0.0, 0.0]);
        let b = mesh.vertex([1.0, 0.0, 0.0]);
        let c = mesh.vertex([1.0, 1.0, 0.0]);
        let d = mesh.vertex([0.0, 1.0, 0.0]);
        mesh.tri(a, b, c);
        mesh.tri(a, c, d);
        return;
    }
    let (fu, nu) = if i0.1 == 1 {
        inner_level(inner[0], spacing)
    } else {
        i0
    };
    let (fv, nv) = if i1.1 == 1 {
        inner_level(inner[1], spacing)
    } else {
        i1
    };
    // Outer ring, counter-clockwise from (0, 0): v = 0 (outer[1]), u = 1 ([2]), v = 1
    // ([3]), u = 0 ([0]).
    let levels = [o[1], o[2], o[3], o[0]];
    let mut ring: Vec<Vec<u32>> = Vec::new();
    for (side, &(f, n)) in levels.iter().enumerate() {
        let pts = edge_points(f, n, spacing);
        let line: Vec<u32> = pts[..n as usize]
            .iter()
            .map(|&(a, b)| {
                let c = match side {
                    0 => [a, 0.0, 0.0],
                    1 => [1.0, a, 0.0],
                    2 => [b, 1.0, 0.0],
                    _ => [0.0, b, 0.0],
                };
                mesh.vertex(c)
            })
            .collect();
        ring.push(line);
    }
    // The inner grid: points (i, j) for 1 <= i <= nu − 1, 1 <= j <= nv − 1.
    let pu = edge_points(fu, nu, spacing);
    let pv = edge_points(fv, nv, spacing);
    let (cu, cv) = (nu as usize - 1, nv as usize - 1);
    let mut grid = vec![0u32; cu * cv];
    for j in 0..cv {
        for i in 0..cu {
            grid[j * cu + i] = mesh.vertex([pu[i + 1].0, pv[j + 1].0, 0.0]);
        }
    }
    let g = |i: usize, j: usize| grid[j * cu + i];
    for j in 0..cv - 1 {
        for i in 0..cu - 1 {
            let (a, b, c, d) = (g(i, j), g(i + 1, j), g(i + 1, j + 1), g(i, j + 1));
            mesh.tri(a, b, c);
            mesh.tri(a, c, d);
        }
    }
    // The grid's boundary, counter-clockwise, one polyline per side (corners shared).
    let inner_sides: [Vec<u32>; 4] = [
        (0..cu).map(|i| g(i, 0)).collect(),
        (0..cv).map(|j| g(cu - 1, j)).collect(),
        (0..cu).rev().map(|i| g(i, cv - 1)).collect(),
        (0..cv).rev().map(|j| g(0, j)).collect(),
    ];
    for s in 0..4 {
        let mut p = ring[s].clone();
        p.push(ring[(s + 1) % 4][0]);
        mesh.band(&p, &inner_sides[s]);
    }
}

/// GL 4.5 core §11.2.2.3: outer[0] lines (rounded as equal spacing) at v = i / n, each
/// subdivided per outer[1] and the spacing.
fn isolines(mesh: &mut Mesh, spacing: Spacing, outer: [f32; 4]) {
    let (_, lines) = round_level(outer[0], Spacing::Equal);
    let (f, n) = round_level(outer[1], spacing);
    let pts = edge_points(f, n, spacing);
    for l in 0..lines {
        let v = l as f32 / lines as f32;
        let first = mesh.coords.len() as u32;
        for &(a, _) in &pts {
            mesh.vertex([a, v, 0.0]);
        }
        for s in 0..n {
            mesh.indices.extend([first + s, first + s + 1]);
        }
    }
}

/// Calls `f` on every var and array a statement names, nested lists included, to rename
/// them (`lower_control`).
fn rename(body: &mut [Stmt], var: &mut dyn FnMut(Var) -> Var, array: &dyn Fn(ArrayId) -> ArrayId) {
    for s in body {
        rename_stmt(s, var, array);
    }
}

fn rename_stmt(s: &mut Stmt, v: &mut dyn FnMut(Var) -> Var, array: &dyn Fn(ArrayId) -> ArrayId) {
    s.for_each_var_mut(|x| *x = v(*x));
    match s {
        Stmt::Assign {
            op: Op::LoadArray { array: a, .. },
            ..
        }
        | Stmt::StoreArray { array: a, .. } => *a = array(*a),
        Stmt::If {
            then_body,
            else_body,
            ..
        } => {
            rename(then_body, v, array);
            rename(else_body, v, array);
        }
        Stmt::Loop {
            body, continuing, ..
        } => {
            rename(body, v, array);
            rename(continuing, v, array);
        }
        Stmt::Block { body, .. } => rename(body, v, array),
        _ => {}
    }
}

/// Moves every label of `body` up by `by`.
fn relabel(body: &mut [Stmt], by: u32) {
    for s in body {
        match s {
            Stmt::Break(l) | Stmt::Continue(l) | Stmt::Leave(l) => l.0 += by,
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                relabel(then_body, by);
                relabel(else_body, by);
            }
            Stmt::Loop {
                label,
                body,
                continuing,
            } => {
                label.0 += by;
                relabel(body, by);
                relabel(continuing, by);
            }
            Stmt::Block { label, body } => {
                label.0 += by;
                relabel(body, by);
            }
            _ => {}
        }
    }
}

/// Replaces `Return` in `body` (nested lists included) with `done = true; leave exit`.
fn returns_to_leave(body: &mut Vec<Stmt>, done: Var, t: Var, exit: Label) -> bool {
    let mut found = false;
    let old = std::mem::take(body);
    for mut s in old {
        match &mut s {
            Stmt::Return => {
                body.push(Stmt::Assign {
                    dst: done,
                    op: Op::Copy(t),
                });
                body.push(Stmt::Leave(exit));
                found = true;
                continue;
            }
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                found |= returns_to_leave(then_body, done, t, exit);
                found |= returns_to_leave(else_body, done, t, exit);
            }
            Stmt::Loop {
                body: b,
                continuing,
                ..
            } => {
                found |= returns_to_leave(b, done, t, exit);
                found |= returns_to_leave(continuing, done, t, exit);
            }
            Stmt::Block { body: b, .. } => found |= returns_to_leave(b, done, t, exit),
            _ => {}
        }
        body.push(s);
    }
    found
}

/// The highest label of `body` plus one (0 when it has none).
fn label_count(body: &[Stmt]) -> u32 {
    let mut best = 0;
    let mut pending: Vec<&[Stmt]> = vec![body];
    while let Some(list) = pending.pop() {
        for s in list {
            if let Stmt::Loop { label, .. } | Stmt::Block { label, .. } = s {
                best = best.max(label.0 + 1);
            }
            pending.extend(s.children());
        }
    }
    best
}

/// Rewrites a tessellation control module so that one lane runs all `vertices`
/// invocations of one patch (GLSL 4.00 §8.16, GL 4.5 core §11.2.1): the body is cut at
/// its top-level `barrier()`s into regions, and region r of every invocation (0, 1, …)
/// runs before region r + 1 of any, each invocation with its own copy of every var and
/// local array (its private state) and gl_InvocationID a constant. Outputs, inputs and
/// constants are shared: an invocation's writes to gl_out[] and patch outputs are seen by
/// the others after the barrier. A `return` ends the invocation's remaining regions.
/// The front end allows `barrier()` only at main's top level (anything else is a compile
/// error), so barriers nested anywhere else cannot occur; any that did would be dropped.
/// Does nothing without `layout(vertices = N)` (a link error then).
pub fn lower_control(m: &mut Module) {
    let Some(n) = m.tess.vertices else {
        return;
    };
    let inv_slot = m
        .inputs
        .iter()
        .find(|i| i.builtin == Some(BuiltinOutput::InvocationId))
        .map(|i| i.slot);
    let f = &mut m.func;
    let body = std::mem::take(&mut f.body);
    // Writes per var, to find the ones written once at the top level from an input or a
    // constant: shared by every invocation.
    let mut writes: HashMap<u32, u32> = HashMap::new();
    let mut pending: Vec<&[Stmt]> = vec![&body];
    while let Some(list) = pending.pop() {
        for s in list {
            if let Stmt::Assign { dst, .. } = s {
                *writes.entry(dst.0).or_default() += 1;
            }
            if let Stmt::Storage { dst: Some(d), .. } = s {
                *writes.entry(d.0).or_default() += 1;
            }
            if let Stmt::Texture { dst, .. } | Stmt::TexelFetch { dst, .. } = s {
                for d in dst {
                    *writes.entry(d.0).or_default() += 1;
                }
            }
            if let Stmt::Image { dst, .. } = s {
                for d in dst.iter().flatten() {
                    *writes.entry(d.0).or_default() += 1;
                }
            }
            pending.extend(s.children());
        }
    }
    let mut shared: Vec<bool> = vec![false; f.vars.len()];
    for o in &f.outputs {
        shared[o.0 as usize] = true;
    }
    let mut hoisted = Vec::new();
    let mut inv_vars = Vec::new();
    let mut rest = Vec::new();
    for s in body {
        match &s {
            Stmt::Assign {
                dst,
                op: Op::Input(slot),
            } if Some(*slot) == inv_slot => inv_vars.push(*dst),
            Stmt::Assign {
                dst,
                op: Op::Input(_) | Op::Const(_),
            } if writes.get(&dst.0) == Some(&1) && !shared[dst.0 as usize] => {
                shared[dst.0 as usize] = true;
                hoisted.push(s);
            }
            _ => rest.push(s),
        }
    }
    // Regions between top-level barriers.
    let mut regions: Vec<Vec<Stmt>> = vec![Vec::new()];
    for s in rest {
        if matches!(s, Stmt::Barrier) {
            regions.push(Vec::new());
        } else {
            if let Some(r) = regions.last_mut() {
                r.push(s);
            }
        }
    }
    let labels = label_count(&regions.concat()) + 1;
    let base_vars = f.vars.len() as u32;
    let base_arrays = f.arrays.clone();
    let mut out = hoisted;
    let t = Var(f.vars.len() as u32);
    f.vars.push(ScalarKind::Bool);
    out.push(Stmt::Assign {
        dst: t,
        op: Op::Const(Scalar::Bool(true)),
    });
    let mut copies: Vec<(HashMap<u32, Var>, u32, Var)> = Vec::new();
    for i in 0..n {
        let first_array = f.arrays.len() as u32;
        f.arrays.extend(base_arrays.iter().cloned());
        let done = Var(f.vars.len() as u32);
        f.vars.push(ScalarKind::Bool);
        let mut map: HashMap<u32, Var> = HashMap::new();
        for &v in &inv_vars {
            let nv = Var(f.vars.len() as u32);
            f.vars.push(ScalarKind::I32);
            map.insert(v.0, nv);
            out.push(Stmt::Assign {
                dst: nv,
                op: Op::Const(Scalar::I32(i as i32)),
            });
        }
        copies.push((map, first_array, done));
    }
    for (r, region) in regions.iter().enumerate() {
        for (i, (map, first_array, done)) in copies.iter_mut().enumerate() {
            let mut code = region.clone();
            remove_barriers(&mut code);
            let vars = &mut f.vars;
            let mut var = |v: Var| -> Var {
                if (v.0 as usize) < shared.len() && shared[v.0 as usize] {
                    return v;
                }
                if v.0 >= base_vars {
                    return v;
                }
                *map.entry(v.0).or_insert_with(|| {
                    vars.push(vars[v.0 as usize]);
                    Var(vars.len() as u32 - 1)
                })
            };
            let fa = *first_array;
            rename(&mut code, &mut var, &|a: ArrayId| ArrayId(a.0 + fa));
            let offset = (i as u32 + r as u32 * n) * labels;
            relabel(&mut code, offset);
            let exit = Label(offset + labels - 1);
            if returns_to_leave(&mut code, *done, t, exit) || r > 0 {
                let go = Var(f.vars.len() as u32);
                f.vars.push(ScalarKind::Bool);
                out.push(Stmt::Assign {
                    dst: go,
                    op: Op::Unary(UnaryOp::LogicalNot, *done),
                });
                out.push(Stmt::If {
                    cond: go,
                    then_body: vec![Stmt::Block {
                        label: exit,
                        body: code,
                    }],
                    else_body: Vec::new(),
                });
            } else {
                out.extend(code);
            }
        }
    }
    f.body = out;
}

fn remove_barriers(body: &mut Vec<Stmt>) {
    body.retain(|s| !matches!(s, Stmt::Barrier));
    for s in body {
        match s {
            Stmt::If {
                then_body,
                else_body,
                ..
            } => {
                remove_barriers(then_body);
                remove_barriers(else_body);
            }
            Stmt::Loop {
                body, continuing, ..
            } => {
                remove_barriers(body);
                remove_barriers(continuing);
            }
            Stmt::Block { body, .. } => remove_barriers(body),
            _ => {}
        }
    }
}

/// Where the draw takes one input word of a tessellation stage from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TessSource {
    /// Output word `word` of the vertex shader for vertex `vertex` of the patch (a
    /// control shader's input, or an evaluation shader's without a control shader).
    Vertex {
        vertex: u32,
        word: u32,
    },
    /// Word `word` of the control shader's output record of the patch.
    Control {
        word: u32,
    },
    /// gl_TessLevelOuter[k] (k < 4) or gl_TessLevelInner[k − 4] from the patch default
    /// levels (glPatchParameterfv), without a control shader.
    DefaultLevel(u32),
    /// gl_TessCoord component k.
    Coord(u32),
    /// gl_PatchVerticesIn.
    PatchVertices,
    /// gl_PrimitiveID: the patch's number in the draw.
    PrimitiveId,
    /// gl_InvocationID (control): the lane runs them all (`lower_control`).
    InvocationId,
    Zero,
}

/// The input links of a tessellation stage.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TessInputs {
    pub control: Vec<TessSource>,
    pub eval: Vec<TessSource>,
}

/// Where each word of `consumer`'s inputs comes from. `per_vertex(o, vertex, word)`
/// locates a producer output's word for one vertex (`None` past the producer's
/// vertices); `patch_word(o, word)` a per-patch output's; `levels` the tessellation levels
/// (`None`: the defaults). Unmatched inputs are errors unless `open`.
fn link_stage(
    producer: &Module,
    consumer: &Module,
    per_vertex: &dyn Fn(&InterfaceVar, u32, u32) -> Option<TessSource>,
    control: bool,
    errors: &mut Vec<LinkError>,
) -> Vec<TessSource> {
    let words = consumer
        .inputs
        .iter()
        .map(|v| v.slot + v.words)
        .max()
        .unwrap_or(0);
    let mut out = vec![TessSource::Zero; words as usize];
    let find_builtin = |b: BuiltinOutput| producer.outputs.iter().find(|o| o.builtin == Some(b));
    let user: Vec<&InterfaceVar> = producer
        .outputs
        .iter()
        .filter(|o| o.builtin.is_none())
        .collect();
    for input in &consumer.inputs {
        let at = input.slot as usize;
        match input.builtin {
            Some(BuiltinOutput::PrimitiveIdIn) => out[at] = TessSource::PrimitiveId,
            Some(BuiltinOutput::InvocationId) => out[at] = TessSource::InvocationId,
            Some(BuiltinOutput::PatchVerticesIn) => out[at] = TessSource::PatchVertices,
            Some(BuiltinOutput::TessCoord) => {
                for k in 0..3 {
                    out[at + k] = TessSource::Coord(k as u32);
                }
            }
            Some(b @ (BuiltinOutput::TessLevelOuter | BuiltinOutput::TessLevelInner)) => {
                let first = if b == BuiltinOutput::TessLevelOuter {
                    0
                } else {
                    4
                };
                let src = if control { find_builtin(b) } else { None };
                for k in 0..input.words {
                    out[at + k as usize] = match src {
                        Some(o) => TessSource::Control { word: o.slot + k },
                        None => TessSource::DefaultLevel(first + k),
                    };
                }
            }
            Some(BuiltinOutput::PerVertexIn) => {
                let pos = find_builtin(BuiltinOutput::Position);
                let size = find_builtin(BuiltinOutput::PointSize);
                let clip = find_builtin(BuiltinOutput::ClipDistance);
                let per = find_builtin(BuiltinOutput::PerVertexOut);
                for j in 0..MAX_PATCH_VERTICES {
                    let base = at + (j * PER_VERTEX_WORDS) as usize;
                    for k in 0..PER_VERTEX_WORDS {
                        let from = |o: Option<&InterfaceVar>, w: u32| match o {
                            Some(o) => per_vertex(o, j, w),
                            None => None,
                        };
                        let src = match (per, k) {
                            (Some(p), _) => from(Some(p), k),
                            (None, 0..=3) => from(pos, k),
                            (None, 4) => from(size, 0),
                            (None, _) => clip
                                .filter(|c| k - 5 < c.words)
                                .and_then(|c| per_vertex(c, j, k - 5)),
                        };
                        out[base + k as usize] = src.unwrap_or(TessSource::Zero);
                    }
                }
            }
            Some(_) => {}
            None => {
                let by_loc = input
                    .location
                    .and_then(|l| user.iter().find(|o| o.location == Some(l)));
                let by_name = || {
                    user.iter()
                        .find(|o| input.location.is_none() && o.name == input.name)
                };
                let Some(src) = by_loc.or_else(by_name) else {
                    errors.push(LinkError::TessInputMissing {
                        name: input.name.clone(),
                    });
                    continue;
                };
                let in_patch = consumer.tess.is_patch(&input.name);
                let out_patch =
                    producer.stage == Stage::TessControl && producer.tess.is_patch(&src.name);
                if in_patch != out_patch || src.ty != input.ty {
                    errors.push(LinkError::TessInputType {
                        name: input.name.clone(),
                    });
                    continue;
                }
                if in_patch {
                    if src.words != input.words {
                        errors.push(LinkError::TessInputType {
                            name: input.name.clone(),
                        });
                        continue;
                    }
                    for w in 0..input.words {
                        out[at + w as usize] = TessSource::Control { word: src.slot + w };
                    }
                    continue;
                }
                let per = input.words / MAX_PATCH_VERTICES;
                let src_per = match producer.stage {
                    Stage::TessControl => src.words / producer.tess.vertices.unwrap_or(1).max(1),
                    _ => src.words,
                };
                if per != src_per {
                    errors.push(LinkError::TessInputType {
                        name: input.name.clone(),
                    });
                    continue;
                }
                for j in 0..MAX_PATCH_VERTICES {
                    for w in 0..per {
                        out[at + (j * per + w) as usize] =
                            per_vertex(src, j, w).unwrap_or(TessSource::Zero);
                    }
                }
            }
        }
    }
    out
}

/// Links the vertex shader's outputs to the control shader's inputs (`control`), and
/// the control shader's (or, without one, the vertex shader's) outputs to the evaluation
/// shader's inputs. Unmatched user inputs are errors unless `open` (separate programs,
/// GL 4.5 core §7.4.1: they read 0).
pub fn link_inputs(
    vs: &Module,
    tcs: Option<&Module>,
    tes: &Module,
    open: bool,
    errors: &mut Vec<LinkError>,
) -> TessInputs {
    let mut e = Vec::new();
    let from_vs = |o: &InterfaceVar, j: u32, w: u32| {
        Some(TessSource::Vertex {
            vertex: j,
            word: o.slot + w,
        })
    };
    let mut inputs = TessInputs::default();
    match tcs {
        Some(tcs) => {
            inputs.control = link_stage(vs, tcs, &from_vs, false, &mut e);
            let n = tcs.tess.vertices.unwrap_or(1).max(1);
            let from_tcs = |o: &InterfaceVar, j: u32, w: u32| {
                let per = o.words / n;
                (j < n).then_some(TessSource::Control {
                    word: o.slot + j * per + w,
                })
            };
            inputs.eval = link_stage(tcs, tes, &from_tcs, true, &mut e);
        }
        None => inputs.eval = link_stage(vs, tes, &from_vs, false, &mut e),
    }
    if !open {
        errors.append(&mut e);
    }
    inputs
}

/// The layout checks of the tessellation stages at link time (GLSL 4.00 §4.3.8.1–2): a
/// control shader declares its output vertices, an evaluation shader its primitive
/// mode.
pub fn check_layout(tcs: Option<&Module>, tes: &Module, errors: &mut Vec<LinkError>) {
    if tcs.is_some_and(|t| t.tess.vertices.is_none()) {
        errors.push(LinkError::TessLayout {
            what: "the output patch size (layout(vertices = N) out;) in the tessellation control shader",
        });
    }
    if tes.tess.mode.is_none() {
        errors.push(LinkError::TessLayout {
            what: "a primitive mode (layout(triangles) in;) in the tessellation evaluation shader",
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twice the signed area of each triangle in (u, v) space.
    fn areas(t: &Tessellation) -> Vec<f64> {
        t.indices
            .chunks_exact(3)
            .map(|i| {
                let p = |k: usize| {
                    let c = t.coords[i[k] as usize];
                    (c[0] as f64, c[1] as f64)
                };
                let (a, b, c) = (p(0), p(1), p(2));
                (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
            })
            .collect()
    }

    fn tri(spacing: Spacing, outer: [f32; 3], inner: f32) -> Tessellation {
        let o = [outer[0], outer[1], outer[2], 0.0];
        tessellate(Mode::Triangles, spacing, false, false, o, [inner, 0.0]).expect("kept")
    }

    #[test]
    fn levels_clamp_and_round_per_spacing() {
        assert_eq!(round_level(2.5, Spacing::Equal), (2.5, 3));
        assert_eq!(round_level(2.5, Spacing::FractionalEven), (2.5, 4));
        assert_eq!(round_level(2.5, Spacing::FractionalOdd), (2.5, 3));
        assert_eq!(round_level(3.5, Spacing::FractionalOdd), (3.5, 5));
        assert_eq!(round_level(4.0, Spacing::FractionalEven), (4.0, 4));
        assert_eq!(round_level(0.3, Spacing::Equal), (1.0, 1));
        assert_eq!(round_level(0.3, Spacing::FractionalEven), (2.0, 2));
        assert_eq!(round_level(1000.0, Spacing::Equal), (64.0, 64));
        assert_eq!(round_level(1000.0, Spacing::FractionalEven), (64.0, 64));
        assert_eq!(round_level(1000.0, Spacing::FractionalOdd), (63.0, 63));
        assert_eq!(round_level(f32::NAN, Spacing::Equal), (1.0, 1));
        assert_eq!(round_level(f32::INFINITY, Spacing::Equal), (64.0, 64));
    }

    #[test]
    fn edge_points_are_mirrored_exactly() {
        for spacing in [
            Spacing::Equal,
            Spacing::FractionalEven,
            Spacing::FractionalOdd,
        ] {
            for level in [1.0f32, 1.5, 2.0, 2.3, 3.0, 3.7, 5.5, 7.01, 17.9, 64.0] {
                let (f, n) = round_level(level, spacing);
                let p = edge_points(f, n, spacing);
                assert_eq!(p.len(), n as usize + 1);
                assert_eq!(p[0], (0.0, 1.0));
                assert_eq!(p[n as usize], (1.0, 0.0));
                for j in 0..=n as usize {
                    let (a, b) = p[j];
                    let (c, d) = p[n as usize - j];
                    assert_eq!((a.to_bits(), b.to_bits()), (d.to_bits(), c.to_bits()));
                    if j > 0 {
                        assert!(p[j].0 >= p[j - 1].0, "{spacing:?} {level}: {p:?}");
                    }
                }
            }
        }
        // Fractional even at 2.5: 2 segments of 1/2.5 and two of (2.5 − 2) / 5 = 0.1.
        let p = edge_points(2.5, 4, Spacing::FractionalEven);
        let t: Vec<f32> = p.iter().map(|x| x.0).collect();
        assert_eq!(t, [0.0, 0.1, 0.5, 0.9, 1.0]);
        // A level equal to its n gives equal segments.
        let p = edge_points(3.0, 3, Spacing::FractionalOdd);
        assert!((p[1].0 - 1.0 / 3.0).abs() < 1e-6 && (p[2].0 - 2.0 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn triangle_counts_follow_the_rings() {
        // All levels 1: the one triangle.
        let t = tri(Spacing::Equal, [1.0; 3], 1.0);
        assert_eq!((t.coords.len(), t.indices.len() / 3), (3, 1));
        // Inner 2: the outer ring around the centre point.
        let t = tri(Spacing::Equal, [2.0; 3], 2.0);
        assert_eq!((t.coords.len(), t.indices.len() / 3), (7, 6));
        assert!(t.coords.contains(&[1.0 / 3.0; 3]));
        // Inner 3: an inner triangle of one segment a side.
        let t = tri(Spacing::Equal, [3.0; 3], 3.0);
        assert_eq!((t.coords.len(), t.indices.len() / 3), (12, 13));
        // Inner 4: one inner ring and the centre.
        let t = tri(Spacing::Equal, [4.0; 3], 4.0);
        assert_eq!((t.coords.len(), t.indices.len() / 3), (19, 24));
        // Inner 1 with an outer level above 1 counts as 1 + ε: inner 2.
        let t = tri(Spacing::Equal, [1.0, 3.0, 1.0], 1.0);
        assert_eq!(t.coords.len(), 5 + 1);
        // Each outer edge has its own level: u = 0 takes outer[0].
        let t = tri(Spacing::Equal, [5.0, 2.0, 3.0], 4.0);
        let on = |k: usize| t.coords.iter().filter(|c| c[k] == 0.0).count();
        assert_eq!((on(0), on(1), on(2)), (6, 3, 4));
    }

    #[test]
    fn triangles_cover_the_domain_once_counter_clockwise() {
        for spacing in [
            Spacing::Equal,
            Spacing::FractionalEven,
            Spacing::FractionalOdd,
        ] {
            for (outer, inner) in [
                ([1.0, 1.0, 1.0], 2.0),
                ([2.0, 3.0, 4.0], 5.0),
                ([7.3, 1.2, 2.9], 3.3),
                ([64.0, 64.0, 64.0], 64.0),
                ([1.0, 9.0, 4.0], 1.0),
            ] {
                let t = tri(spacing, outer, inner);
                let a = areas(&t);
                assert!(a.iter().all(|&x| x >= 0.0), "{spacing:?} {outer:?} {inner}");
                let sum: f64 = a.iter().sum();
                assert!((sum - 1.0).abs() < 1e-4, "{spacing:?} {outer:?}: {sum}");
                for c in &t.coords {
                    let s = c[0] + c[1] + c[2];
                    assert!((s - 1.0).abs() < 1e-5 && c.iter().all(|&x| x >= -1e-6));
                }
            }
        }
        // cw reverses every triangle.
        let o = [3.0, 3.0, 3.0, 0.0];
        let t = tessellate(Mode::Triangles, Spacing::Equal, true, false, o, [3.0, 0.0]).unwrap();
        assert!(areas(&t).iter().all(|&x| x < 0.0));
    }

    #[test]
    fn quads_cover_the_square_once() {
        let q = |spacing, outer, inner, cw| {
            tessellate(Mode::Quads, spacing, cw, false, outer, inner).expect("kept")
        };
        let t = q(Spacing::Equal, [1.0; 4], [1.0; 2], false);
        assert_eq!((t.coords.len(), t.indices.len() / 3), (4, 2));
        let t = q(Spacing::Equal, [2.0, 3.0, 4.0, 5.0], [3.0, 4.0], false);
        assert_eq!(t.coords.len(), 14 + 2 * 3);
        // outer[1] subdivides v = 0, outer[0] u = 0.
        let on_v0 = t.coords.iter().filter(|c| c[1] == 0.0).count();
        let on_u0 = t.coords.iter().filter(|c| c[0] == 0.0).count();
        assert_eq!((on_v0, on_u0), (4, 3));
        for spacing in [
            Spacing::Equal,
            Spacing::FractionalEven,
            Spacing::FractionalOdd,
        ] {
            for (outer, inner) in [
                ([1.0, 1.0, 1.0, 1.0], [2.0, 1.0]),
                ([2.0, 3.0, 4.0, 5.0], [3.0, 4.0]),
                ([6.6, 1.1, 2.2, 9.9], [1.5, 7.7]),
                ([64.0; 4], [64.0; 2]),
            ] {
                let t = q(spacing, outer, inner, false);
                let a = areas(&t);
                assert!(
                    a.iter().all(|&x| x >= 0.0),
                    "{spacing:?} {outer:?} {inner:?}"
                );
                let sum: f64 = a.iter().sum::<f64>() / 2.0;
                assert!((sum - 1.0).abs() < 1e-4, "{spacing:?} {outer:?}: {sum}");
            }
        }
        let t = q(Spacing::Equal, [2.0; 4], [2.0; 2], true);
        assert!(areas(&t).iter().all(|&x| x <= 0.0));
    }

    #[test]
    fn isolines_are_lines_at_equal_v() {
        let t = tessellate(
            Mode::Isolines,
            Spacing::Equal,
            false,
            false,
            [2.0, 3.0, 0.0, 0.0],
            [0.0; 2],
        )
        .expect("kept: only the first two outer levels count");
        assert_eq!(t.per_prim, 2);
        assert_eq!(t.coords.len(), 8);
        assert_eq!(t.indices.len(), 2 * 6);
        let vs: Vec<f32> = t.coords.iter().map(|c| c[1]).collect();
        assert_eq!(vs, [0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.5, 0.5]);
        // The line count rounds up as equal spacing whatever the spacing.
        let t = tessellate(
            Mode::Isolines,
            Spacing::FractionalEven,
            false,
            false,
            [2.2, 1.0, 0.0, 0.0],
            [0.0; 2],
        )
        .unwrap();
        assert_eq!(t.coords.len(), 3 * 3);
    }

    #[test]
    fn a_level_at_or_below_zero_or_nan_discards_the_patch() {
        let none = |mode, outer: [f32; 4]| {
            tessellate(mode, Spacing::Equal, false, false, outer, [1.0; 2]).is_none()
        };
        assert!(none(Mode::Triangles, [0.0, 1.0, 1.0, 1.0]));
        assert!(none(Mode::Triangles, [1.0, f32::NAN, 1.0, 1.0]));
        assert!(!none(Mode::Triangles, [1.0, 1.0, 1.0, 0.0]));
        assert!(none(Mode::Quads, [1.0, 1.0, 1.0, -1.0]));
        assert!(none(Mode::Isolines, [1.0, 0.0, 1.0, 1.0]));
        assert!(!none(Mode::Isolines, [1.0, 1.0, 0.0, 0.0]));
        // Clamped to MAX_GEN_LEVEL.
        let t = tessellate(
            Mode::Isolines,
            Spacing::Equal,
            false,
            false,
            [1.0, 1000.0, 0.0, 0.0],
            [0.0; 2],
        )
        .unwrap();
        assert_eq!(t.coords.len(), MAX_GEN_LEVEL as usize + 1);
    }

    #[test]
    fn point_mode_gives_each_vertex_once() {
        let t = tessellate(Mode::Quads, Spacing::Equal, false, true, [2.0; 4], [2.0; 2]).unwrap();
        assert_eq!(t.per_prim, 1);
        assert_eq!(t.coords.len(), 9);
        assert_eq!(t.indices, (0..9).collect::<Vec<u32>>());
        let mut c = t.coords.clone();
        c.sort_by(|a, b| a.partial_cmp(b).unwrap());
        c.dedup();
        assert_eq!(c.len(), 9);
    }
}
