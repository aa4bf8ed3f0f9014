//! Primitive restart (GL 4.5 core §10.3.6) and adjacency topologies (§10.1.11–10.1.14)
//! rewritten into plain lists before the front end assembles anything: a draw whose indices
//! hold the restart index, or whose mode carries adjacent vertices (ignored without a
//! geometry shader), becomes a GL_POINTS, GL_LINES or GL_TRIANGLES draw over a generated
//! 32-bit index array. Each primitive keeps its vertices in an order that gives the same
//! winding and, under the draw's provoking-vertex convention, the same provoking vertex as
//! the original topology (§13.6, table 13.2). Draws without either pass through untouched,
//! at the cost of one scan of their indices when restart is on.

use std::sync::Arc;

use super::draw::{DrawCall, IndexSource, Topology};
use super::fetch;

/// Rewrites `call` into a list draw when it uses adjacency or restarts primitives.
pub fn expand(call: &mut DrawCall) {
    let adjacency = matches!(
        call.topology,
        Topology::LinesAdjacency
            | Topology::LineStripAdjacency
            | Topology::TrianglesAdjacency
            | Topology::TriangleStripAdjacency
    );
    let input = &call.vertices;
    let restart = input.indices.as_ref().and_then(|i| i.restart);
    // The raw index of each element (None: the restart index); gl_VertexID of non-indexed
    // draws is first + i, which the generated array carries with base vertex 0.
    let raw = |i: u32| -> Option<u32> {
        match &input.indices {
            None => Some(input.first.wrapping_add(i)),
            Some(src) => {
                let r = fetch::raw_index(src, input.first as u64 + i as u64);
                (Some(r) != restart).then_some(r)
            }
        }
    };
    let has_restart = restart.is_some() && (0..input.count).any(|i| raw(i).is_none());
    if !adjacency && !has_restart {
        return;
    }
    let first_conv = call.state.provoking_first;
    let mut out: Vec<u32> = Vec::new();
    let mut seg: Vec<u32> = Vec::new();
    let topology = call.topology;
    let flush = |seg: &mut Vec<u32>, out: &mut Vec<u32>| {
        emit_segment(topology, seg, first_conv, out);
        seg.clear();
    };
    for i in 0..input.count {
        match raw(i) {
            Some(r) => seg.push(r),
            None => flush(&mut seg, &mut out),
        }
    }
    flush(&mut seg, &mut out);
    let list = match topology {
        Topology::Points => Topology::Points,
        Topology::Patches => Topology::Patches,
        Topology::Lines
        | Topology::LineStrip
        | Topology::LineLoop
        | Topology::LinesAdjacency
        | Topology::LineStripAdjacency => Topology::Lines,
        _ => Topology::Triangles,
    };
    let bytes: Vec<u8> = out.iter().flat_map(|i| i.to_le_bytes()).collect();
    let v = &mut call.vertices;
    if v.indices.is_none() {
        v.base_vertex = 0;
    }
    v.first = 0;
    v.count = out.len() as u32;
    v.indices = Some(IndexSource {
        data: Arc::new(bytes),
        offset: 0,
        index_bytes: 4,
        restart: None,
    });
    call.topology = list;
}

/// Appends the list form of one restart-free run of indices `s` of `topology`.
fn emit_segment(topology: Topology, s: &[u32], first_conv: bool, out: &mut Vec<u32>) {
    let n = s.len();
    // A triangle (a, b, c) with provoking vertex p of it: rotations keep the winding, so put
    // p where the list form's convention looks (first: position 0, last: position 2).
    let tri = |a: u32, b: u32, c: u32, p: usize, out: &mut Vec<u32>| {
        let t = [a, b, c];
        let want = if first_conv { 0 } else { 2 };
        let r = (p + 3 - want) % 3;
        out.extend([t[r], t[(r + 1) % 3], t[(r + 2) % 3]]);
    };
    match topology {
        // Patches are cut after restart (`raster::tess::input_patches`): kept as points.
        Topology::Points | Topology::Patches => out.extend_from_slice(s),
        // Lists drop the partial primitive at the end of a run.
        Topology::Lines => out.extend_from_slice(&s[..n - n % 2]),
        Topology::LineStrip | Topology::LineLoop => {
            for w in s.windows(2) {
                out.extend_from_slice(w);
            }
            if topology == Topology::LineLoop && n >= 2 {
                out.extend([s[n - 1], s[0]]);
            }
        }
        Topology::LinesAdjacency => {
            for q in s.chunks_exact(4) {
                out.extend([q[1], q[2]]);
            }
        }
        Topology::LineStripAdjacency => {
            for i in 0..n.saturating_sub(3) {
                out.extend([s[i + 1], s[i + 2]]);
            }
        }
        Topology::Triangles => out.extend_from_slice(&s[..n - n % 3]),
        Topology::TriangleStrip => {
            for i in 0..n.saturating_sub(2) {
                // GL 4.5 core §10.1.3 and table 13.2: odd triangles swap their first two
                // vertices; the provoking vertex is i (first) or i + 2 (last).
                let p = if first_conv { i % 2 } else { 2 };
                if i % 2 == 0 {
                    tri(s[i], s[i + 1], s[i + 2], p, out);
                } else {
                    tri(s[i + 1], s[i], s[i + 2], p, out);
                }
            }
        }
        Topology::TriangleFan => {
            for i in 0..n.saturating_sub(2) {
                let p = if first_conv { 1 } else { 2 };
                tri(s[0], s[i + 1], s[i + 2], p, out);
            }
        }
        Topology::TrianglesAdjacency => {
            for h in s.chunks_exact(6) {
                tri(h[0], h[2], h[4], if first_conv { 0 } else { 2 }, out);
            }
        }
        Topology::TriangleStripAdjacency => {
            // §10.1.14: triangle i is made of vertices 2i, 2i + 2, 2i + 4 (odd i: the first
            // two swapped); the provoking vertex is 2i (first) or 2i + 4 (last).
            for i in 0..n.saturating_sub(4) / 2 {
                let (a, b, c) = (s[2 * i], s[2 * i + 2], s[2 * i + 4]);
                if i % 2 == 0 {
                    tri(a, b, c, if first_conv { 0 } else { 2 }, out);
                } else {
                    tri(b, a, c, if first_conv { 1 } else { 2 }, out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(t: Topology, s: &[u32], first: bool) -> Vec<u32> {
        let mut out = Vec::new();
        emit_segment(t, s, first, &mut out);
        out
    }

    #[test]
    fn strips_and_fans_become_lists_with_the_same_winding_and_provoking_vertex() {
        assert_eq!(
            seg(Topology::TriangleStrip, &[0, 1, 2, 3], false),
            [0, 1, 2, 2, 1, 3]
        );
        // First convention: strip triangle 1 (2, 1, 3) provokes with vertex 1, rotated first.
        assert_eq!(
            seg(Topology::TriangleStrip, &[0, 1, 2, 3], true),
            [0, 1, 2, 1, 3, 2]
        );
        assert_eq!(
            seg(Topology::TriangleFan, &[0, 1, 2, 3], false),
            [0, 1, 2, 0, 2, 3]
        );
        assert_eq!(
            seg(Topology::TriangleFan, &[0, 1, 2, 3], true),
            [1, 2, 0, 2, 3, 0]
        );
        assert_eq!(seg(Topology::Triangles, &[0, 1, 2, 3, 4], false), [0, 1, 2]);
        assert_eq!(seg(Topology::Lines, &[5, 6, 7], false), [5, 6]);
        assert_eq!(
            seg(Topology::LineLoop, &[5, 6, 7], false),
            [5, 6, 6, 7, 7, 5]
        );
        assert_eq!(seg(Topology::LineStrip, &[5], false), Vec::<u32>::new());
        assert_eq!(
            seg(Topology::LineStripAdjacency, &[0, 1, 2, 3, 4], false),
            [1, 2, 2, 3]
        );
        assert_eq!(seg(Topology::LinesAdjacency, &[0, 1, 2, 3], false), [1, 2]);
        assert_eq!(
            seg(Topology::TrianglesAdjacency, &[0, 1, 2, 3, 4, 5], false),
            [0, 2, 4]
        );
        assert_eq!(
            seg(
                Topology::TriangleStripAdjacency,
                &[0, 1, 2, 3, 4, 5, 6, 7],
                false
            ),
            [0, 2, 4, 4, 2, 6]
        );
        assert_eq!(
            seg(
                Topology::TriangleStripAdjacency,
                &[0, 1, 2, 3, 4, 5, 6, 7],
                true
            ),
            [0, 2, 4, 2, 6, 4]
        );
    }
}
