//! End-to-end tests of the rasterizer with shaders written in Rust (`FnShader`): coverage
//! against brute force, shared edges, determinism across thread counts, depth, blending,
//! clipping, culling, interpolation and the vertex stage.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use proptest::prelude::*;

use super::draw::*;
use super::fixed;
use super::ops::ClearColor;
use super::setup::{self, SetupCtx};
use super::Rasterizer;
use crate::gl::enums as gl;
use crate::gl::{AttribType, BlendEquation, BlendFactor, CompareFunc, CullFace, FrontFace};
use crate::ir::link::VaryingLink;
use crate::ir::{Builtin, Interpolation};
use crate::jit::abi::{Invocation, ShaderEnv};
use crate::jit::ShaderCode;
use crate::jit::StageData;
use crate::sampler::{Format, Image, SampleContext};

type ShaderFn = dyn Fn(&[u32], &[u32], &mut [u32], u32) -> u32 + Send + Sync;

/// A shader written in Rust: `f(inputs, builtins, outputs, mask) -> alive` over SoA slices.
struct FnShader {
    inw: u32,
    outw: u32,
    f: Box<ShaderFn>,
}

impl ShaderCode for FnShader {
    fn input_words(&self) -> u32 {
        self.inw
    }
    fn output_words(&self) -> u32 {
        self.outw
    }
    unsafe fn call(&self, _env: *const ShaderEnv, inv: *mut Invocation) -> u32 {
        // SAFETY: the caller guarantees `inv` is valid and its slices hold at least
        // input_words * 4, output_words * 4 and Builtin::COUNT * 4 words (ShaderCode::call).
        let (inputs, builtins, outputs, mask) = unsafe {
            let inv = &*inv;
            (
                std::slice::from_raw_parts(inv.inputs, self.inw as usize * 4),
                std::slice::from_raw_parts(inv.builtins, Builtin::COUNT * 4),
                std::slice::from_raw_parts_mut(inv.outputs, self.outw as usize * 4),
                inv.mask,
            )
        };
        (self.f)(inputs, builtins, outputs, mask)
    }
}

fn shader(
    inw: u32,
    outw: u32,
    f: impl Fn(&[u32], &[u32], &mut [u32], u32) -> u32 + Send + Sync + 'static,
) -> Arc<dyn ShaderCode> {
    Arc::new(FnShader {
        inw,
        outw,
        f: Box::new(f),
    })
}

/// Vertex shader: outputs = inputs (position in words 0..4, colour in 4..8).
fn pass_vs() -> Arc<dyn ShaderCode> {
    shader(8, 8, |i, _, o, m| {
        for w in 0..8 {
            for l in 0..4 {
                if m & (1 << l) != 0 {
                    o[w * 4 + l] = i[w * 4 + l];
                }
            }
        }
        m
    })
}

/// Fragment shader: colour = the interpolated varying colour.
fn varying_fs() -> Arc<dyn ShaderCode> {
    shader(4, 4, |i, _, o, m| {
        o[..16].copy_from_slice(&i[..16]);
        m
    })
}

/// Fragment shader: a constant colour.
fn const_fs(c: [f32; 4]) -> Arc<dyn ShaderCode> {
    shader(4, 4, move |_, _, o, m| {
        for (k, v) in c.iter().enumerate() {
            o[k * 4..k * 4 + 4].fill(v.to_bits());
        }
        m
    })
}

fn state(w: i32, h: i32) -> RasterState {
    RasterState::initial(w, h)
}

/// Additive blending: a target that counts how often each pixel is written.
fn counting(mut st: RasterState) -> RasterState {
    st.blend.enabled = true;
    st.blend.dst_rgb = BlendFactor::One;
    st.blend.dst_alpha = BlendFactor::One;
    st
}

fn target(w: u32, h: u32, format: Format, depth: Option<Format>) -> RenderTarget {
    let depth = depth.map(|f| Arc::new(Image::new(w, h, f)));
    RenderTarget {
        colors: vec![Some(Arc::new(Image::new(w, h, format)))],
        // A D24S8 image is the stencil buffer too, as the API's surfaces have it.
        stencil: depth
            .clone()
            .filter(|d| d.format() == Format::Depth24Stencil8),
        depth,
        width: w,
        height: h,
        samples: 0,
        planes: Vec::new(),
    }
}

fn program(fs: Arc<dyn ShaderCode>, interp: Interpolation) -> ProgramCode {
    ProgramCode {
        vs: pass_vs(),
        fs,
        vs_output_words: 8,
        position_slot: 0,
        point_size_slot: None,
        clip_distances: None,
        cull_distances: None,
        src1_slot: None,
        fs_input_words: 4,
        varyings: (0..4)
            .map(|c| VaryingLink {
                fs_slot: c,
                vs_slot: 4 + c,
                interpolation: interp,
            })
            .collect(),
        fs_output_words: 4,
        color_slots: vec![Some(0)],
        frag_depth_slot: None,
        uses_discard: false,
        early_fragment_tests: false,
        frag_coord_origin_upper_left: false,
        frag_coord_pixel_center_integer: false,
        gs: None,
        vs_select_slots: [None; 2],
        tess: None,
    }
}

/// Vertices of (position, colour), interleaved, as one float array attribute pair.
fn vertex_input(verts: &[[f32; 8]]) -> VertexInput {
    let data: Arc<Vec<u8>> = Arc::new(
        verts
            .iter()
            .flat_map(|v| v.iter().flat_map(|f| f.to_le_bytes()))
            .collect(),
    );
    let attr = |slot: u32, offset: usize| VertexAttrib {
        slot,
        source: AttribSource::Array {
            data: data.clone(),
            offset,
            stride: 32,
            size: 4,
            ty: AttribType::Float,
            normalized: false,
            mode: AttribMode::Float,
            divisor: 0,
        },
    };
    VertexInput {
        attribs: vec![attr(0, 0), attr(4, 16)],
        input_words: 8,
        indices: None,
        first: 0,
        count: verts.len() as u32,
        instance_count: 1,
        base_vertex: 0,
        base_instance: 0,
    }
}

fn draw(
    topology: Topology,
    verts: &[[f32; 8]],
    program: ProgramCode,
    state: RasterState,
    target: &RenderTarget,
) -> DrawCall {
    DrawCall {
        topology,
        vertices: vertex_input(verts),
        program: Arc::new(program),
        vs_data: StageData::default(),
        fs_data: StageData::default(),
        sampler: Arc::new(SampleContext::default()),
        state,
        target: target.clone(),
        samples: None,
        preshaded: None,
        select: None,
    }
}

fn color_image(t: &RenderTarget) -> &Image {
    t.colors[0].as_deref().unwrap()
}

/// R32F / RGBA32F texel component reader.
fn read_f32(img: &Image) -> Vec<f32> {
    img.to_bytes()
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// A vertex at window position (x, y) for a `vw × vh` viewport at the origin.
fn at(x: f64, y: f64, vw: f64, vh: f64, color: [f32; 4]) -> [f32; 8] {
    [
        (x / vw * 2.0 - 1.0) as f32,
        (y / vh * 2.0 - 1.0) as f32,
        0.0,
        1.0,
        color[0],
        color[1],
        color[2],
        color[3],
    ]
}

/// Brute-force coverage of one snapped triangle at pixel centres, written independently of
/// `fixed::Edge` (exact signed areas; ties by the top-left rule).
fn brute_inside(p: [[i64; 2]; 3], px: i32, py: i32) -> bool {
    let mut p = p;
    let area =
        (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
    if area == 0 {
        return false;
    }
    if area < 0 {
        p.swap(1, 2);
    }
    let (cx, cy) = (px as i64 * 256 + 128, py as i64 * 256 + 128);
    (0..3).all(|k| {
        let (a, b) = (p[k], p[(k + 1) % 3]);
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let e = dx * (cy - a[1]) - dy * (cx - a[0]);
        e > 0 || (e == 0 && (dy < 0 || (dy == 0 && dx < 0)))
    })
}

// Viewport 256×256 (window = ndc * 128 + 128 exactly), target 200×130: partial tiles.
const VP: f64 = 256.0;
const TW: u32 = 200;
const TH: u32 = 130;

fn snapped(v: &[f32; 8]) -> [i64; 2] {
    let ctx = SetupCtx::new(&state(VP as i32, VP as i32), TW, TH, vec![]).unwrap();
    setup::snap_vertex(&ctx, v)
}

/// Renders triangles (as `topology`) into a counting R32F target; returns per-pixel counts.
fn count_coverage(topology: Topology, verts: &[[f32; 8]], threads: usize) -> Vec<f32> {
    let t = target(TW, TH, Format::R32F, None);
    let mut r = Rasterizer::new(threads);
    r.draw(draw(
        topology,
        verts,
        program(const_fs([1.0; 4]), Interpolation::Smooth),
        counting(state(VP as i32, VP as i32)),
        &t,
    ));
    r.flush();
    read_f32(color_image(&t))
}

fn coord() -> impl Strategy<Value = f64> {
    prop_oneof![
        // Half-pixel grid: vertices on pixel centres and edges, the fill rule's hard cases.
        (-40i32..480).prop_map(|v| v as f64 / 2.0),
        (-20.0f64..250.0),
    ]
}

fn point() -> impl Strategy<Value = (f64, f64)> {
    (coord(), coord())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn binned_coverage_equals_brute_force(a in point(), b in point(), c in point()) {
        let v = [a, b, c].map(|(x, y)| at(x, y, VP, VP, [0.0; 4]));
        let counts = count_coverage(Topology::Triangles, &v, 2);
        let p = [snapped(&v[0]), snapped(&v[1]), snapped(&v[2])];
        for py in 0..TH as i32 {
            for px in 0..TW as i32 {
                let want = brute_inside(p, px, py) as u32 as f32;
                prop_assert_eq!(counts[(py * TW as i32 + px) as usize], want, "pixel {} {}", px, py);
            }
        }
    }

    #[test]
    fn shared_edge_is_covered_exactly_once(a in point(), b in point(), c in point(), d in point()) {
        let v = [a, b, c, d].map(|(x, y)| at(x, y, VP, VP, [0.0; 4]));
        let p = v.map(|v| snapped(&v));
        let side = |q: [i64; 2]| (p[1][0] - p[0][0]) * (q[1] - p[0][1]) - (p[1][1] - p[0][1]) * (q[0] - p[0][0]);
        let (sc, sd) = (side(p[2]), side(p[3]));
        prop_assume!((sc > 0 && sd < 0) || (sc < 0 && sd > 0));
        // Triangles (a, b, c) and (b, a, d) share the edge a–b, walked in opposite directions.
        let counts = count_coverage(Topology::Triangles, &[v[0], v[1], v[2], v[1], v[0], v[3]], 3);
        let t1 = [p[0], p[1], p[2]];
        let t2 = [p[1], p[0], p[3]];
        for py in 0..TH as i32 {
            for px in 0..TW as i32 {
                let n = counts[(py * TW as i32 + px) as usize];
                prop_assert!(n <= 1.0, "pixel {} {} hit {} times", px, py, n);
                let want = brute_inside(t1, px, py) as u32 + brute_inside(t2, px, py) as u32;
                prop_assert_eq!(n, want as f32);
                // A centre on the open shared segment belongs to exactly one triangle.
                let (cx, cy) = (px as i64 * 256 + 128, py as i64 * 256 + 128);
                let on_edge = side([cx, cy]) == 0;
                let between = {
                    let dot = (cx - p[0][0]) * (p[1][0] - p[0][0]) + (cy - p[0][1]) * (p[1][1] - p[0][1]);
                    let len2 = (p[1][0] - p[0][0]).pow(2) + (p[1][1] - p[0][1]).pow(2);
                    dot > 0 && dot < len2
                };
                if on_edge && between {
                    prop_assert_eq!(n, 1.0, "shared-edge pixel {} {} missed", px, py);
                }
            }
        }
    }

    #[test]
    fn fan_covers_each_pixel_at_most_once(
        centre in (40.0f64..160.0, 30.0f64..100.0),
        steps in proptest::collection::vec((0.15f64..1.0, 15.0f64..90.0), 2..7),
    ) {
        let mut verts = vec![at(centre.0, centre.1, VP, VP, [0.0; 4])];
        let mut angle = 0.0f64;
        // Test code, not a shader path: host trigonometry is fine here.
        let (s0, c0) = angle.sin_cos();
        verts.push(at(centre.0 + 40.0 * c0, centre.1 + 40.0 * s0, VP, VP, [0.0; 4]));
        for (da, r) in &steps {
            angle += da;
            let (s, c) = angle.sin_cos();
            verts.push(at(centre.0 + r * c, centre.1 + r * s, VP, VP, [0.0; 4]));
        }
        let counts = count_coverage(Topology::TriangleFan, &verts, 2);
        let p: Vec<[i64; 2]> = verts.iter().map(snapped).collect();
        for py in 0..TH as i32 {
            for px in 0..TW as i32 {
                let n = counts[(py * TW as i32 + px) as usize];
                prop_assert!(n <= 1.0, "pixel {} {} hit {} times", px, py, n);
                let want: u32 = (1..p.len() - 1)
                    .map(|i| brute_inside([p[0], p[i], p[i + 1]], px, py) as u32)
                    .sum();
                prop_assert_eq!(n, want as f32, "pixel {} {}", px, py);
            }
        }
    }
}

/// A deterministic pseudo-random sequence (tests must not depend on a global RNG).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32) / (1u64 << 24) as f32
    }
}

/// Many overlapping blended triangles, one small-triangle draw big enough to be cut into
/// parallel chunks, a clear and a depth test, in RGBA8 and RGBA16F.
fn busy_scene(threads: usize) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let (w, h) = (300u32, 200u32);
    let mut t = target(w, h, Format::Rgba8, Some(Format::Depth24Stencil8));
    t.colors
        .push(Some(Arc::new(Image::new(w, h, Format::Rgba16F))));
    let mut r = Rasterizer::new(threads);
    r.clear(ClearCall {
        target: t.clone(),
        color: Some(ClearColor::Float([0.1, 0.2, 0.3, 1.0])),
        color_mask: [[true; 4]; 8],
        depth: Some(1.0),
        stencil: Some(3),
        stencil_mask: 0xFF,
        scissor: None,
    });
    let mut rng = Lcg(7);
    let mut st = state(w as i32, h as i32);
    st.blend.enabled = true;
    st.blend.src_rgb = BlendFactor::SrcAlpha;
    st.blend.dst_rgb = BlendFactor::OneMinusSrcAlpha;
    st.blend.dst_alpha = BlendFactor::One;
    st.depth_func = Some(CompareFunc::Lequal);
    let mut prog = program(varying_fs(), Interpolation::Smooth);
    prog.color_slots = vec![Some(0), Some(0)];
    let prog = Arc::new(prog);
    for _ in 0..60 {
        let mut verts = vec![];
        for _ in 0..3 {
            let mut v = [0.0f32; 8];
            v[0] = rng.next() * 2.6 - 1.3;
            v[1] = rng.next() * 2.6 - 1.3;
            v[2] = rng.next() * 2.0 - 1.0;
            v[3] = 0.5 + rng.next();
            for c in &mut v[4..8] {
                *c = rng.next();
            }
            verts.push(v);
        }
        let mut d = draw(
            Topology::Triangles,
            &verts,
            program(varying_fs(), Interpolation::Smooth),
            st,
            &t,
        );
        d.program = prog.clone();
        r.draw(d);
    }
    // 2,400 small triangles: more than one front-end chunk.
    let mut verts = vec![];
    for _ in 0..2400 {
        let (cx, cy) = (rng.next() * 2.0 - 1.0, rng.next() * 2.0 - 1.0);
        for k in 0..3 {
            let mut v = [0.0f32; 8];
            v[0] = cx + [0.0, 0.05, 0.0][k];
            v[1] = cy + [0.0, 0.0, 0.07][k];
            v[2] = rng.next() * 0.5;
            v[3] = 1.0;
            for c in &mut v[4..8] {
                *c = rng.next();
            }
            verts.push(v);
        }
    }
    let mut d = draw(
        Topology::Triangles,
        &verts,
        program(varying_fs(), Interpolation::Smooth),
        st,
        &t,
    );
    d.program = prog.clone();
    r.draw(d);
    r.flush();
    (
        color_image(&t).to_bytes(),
        t.colors[1].as_ref().unwrap().to_bytes(),
        t.depth.as_ref().unwrap().to_bytes(),
    )
}

#[test]
fn images_are_bit_identical_for_any_thread_count() {
    let one = busy_scene(1);
    assert!(
        one.0.chunks(4).any(|p| p != [26, 51, 77, 255]),
        "nothing drawn"
    );
    for threads in [2, 3] {
        let n = busy_scene(threads);
        assert!(one.0 == n.0, "RGBA8 differs with {threads} threads");
        assert!(one.1 == n.1, "RGBA16F differs with {threads} threads");
        assert!(one.2 == n.2, "depth differs with {threads} threads");
    }
}

/// Draws a full-viewport quad at NDC depth `z` with colour `c` on a `w × h` target.
fn quad(z: f32, c: [f32; 4]) -> Vec<[f32; 8]> {
    [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]]
        .iter()
        .map(|p| [p[0], p[1], z, 1.0, c[0], c[1], c[2], c[3]])
        .collect()
}

#[test]
fn depth_funcs_end_to_end() {
    // Stored depth 0.5; fragments at 0.25, 0.5 and 0.75 in three columns of 4 pixels.
    let cases = [
        (gl::NEVER, [false, false, false]),
        (gl::LESS, [true, false, false]),
        (gl::EQUAL, [false, true, false]),
        (gl::LEQUAL, [true, true, false]),
        (gl::GREATER, [false, false, true]),
        (gl::NOTEQUAL, [true, false, true]),
        (gl::GEQUAL, [false, true, true]),
        (gl::ALWAYS, [true, true, true]),
    ];
    for depth_format in [Format::Depth24Stencil8, Format::Depth32F] {
        for (func, want) in cases {
            for mask in [true, false] {
                let t = target(12, 4, Format::Rgba8, Some(depth_format));
                let mut r = Rasterizer::new(1);
                r.clear(ClearCall {
                    target: t.clone(),
                    color: Some(ClearColor::Float([0.0; 4])),
                    color_mask: [[true; 4]; 8],
                    depth: Some(0.5),
                    stencil: Some(0xAB),
                    stencil_mask: 0xFF,
                    scissor: None,
                });
                for (col, z) in [-0.5f32, 0.0, 0.5].iter().enumerate() {
                    let mut st = state(4, 4);
                    st.viewport = [col as i32 * 4, 0, 4, 4];
                    st.depth_func = Some(CompareFunc::from_gl(func).unwrap());
                    st.depth_mask = mask;
                    r.draw(draw(
                        Topology::TriangleStrip,
                        &quad(*z, [1.0; 4]),
                        program(const_fs([1.0; 4]), Interpolation::Smooth),
                        st,
                        &t,
                    ));
                }
                r.flush();
                let px = color_image(&t).to_bytes();
                let depth = t.depth.as_ref().unwrap().to_bytes();
                for col in 0..3 {
                    for y in 0..4 {
                        let x = col * 4 + 1;
                        let i = (y * 12 + x) * 4;
                        assert_eq!(px[i] == 255, want[col], "{func:#x} column {col}");
                        let word = u32::from_le_bytes([
                            depth[i],
                            depth[i + 1],
                            depth[i + 2],
                            depth[i + 3],
                        ]);
                        let z = match depth_format {
                            Format::Depth24Stencil8 => {
                                assert_eq!(word >> 24, 0xAB, "stencil kept");
                                (word & 0xFF_FFFF) as f32 / 16777215.0
                            }
                            _ => f32::from_bits(word),
                        };
                        let written = want[col] && mask;
                        let want_z = if written { [0.25, 0.5, 0.75][col] } else { 0.5 };
                        assert!(
                            (z - want_z).abs() < 1e-6,
                            "{func:#x} mask {mask} column {col}: {z}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn blending_end_to_end_matches_the_formula() {
    let t = target(8, 8, Format::Rgba8, None);
    let mut r = Rasterizer::new(2);
    let clear = [0.5, 0.25, 0.0, 1.0];
    r.clear(ClearCall {
        target: t.clone(),
        color: Some(ClearColor::Float(clear)),
        color_mask: [[true; 4]; 8],
        depth: None,
        stencil: None,
        stencil_mask: 0xFF,
        scissor: None,
    });
    let mut st = state(8, 8);
    st.blend = BlendState {
        enabled: true,
        src_rgb: BlendFactor::SrcAlpha,
        dst_rgb: BlendFactor::OneMinusSrcAlpha,
        src_alpha: BlendFactor::One,
        dst_alpha: BlendFactor::Zero,
        eq_rgb: BlendEquation::Add,
        eq_alpha: BlendEquation::Add,
        color: [0.0; 4],
    };
    st.color_mask = [true, true, false, true];
    let src = [1.0, 0.5, 0.25, 0.5];
    r.draw(draw(
        Topology::TriangleStrip,
        &quad(0.0, [0.0; 4]),
        program(const_fs(src), Interpolation::Smooth),
        st,
        &t,
    ));
    r.flush();
    // Unorm8 blends in integers (ops.rs): source (255, 128, 64, 128) over (128, 64, 0, 255);
    // red = round((255·128 + 128·127) / 255) = round(191.75); blue is masked and keeps
    // the clear value.
    let mut want_px = [128u8, 64, 0, 255];
    super::ops::blend_and_pack(
        Format::Rgba8,
        Some(&super::ops::PreparedBlend::new(&st.blend, true)),
        src,
        st.color_mask,
        &mut want_px,
    );
    let px = color_image(&t).to_bytes();
    assert_eq!(want_px, [192, 96, 0, 128]);
    for p in px.chunks(4) {
        assert_eq!(p, want_px);
    }
}

#[test]
fn clears_honour_scissor_and_colour_mask() {
    let t = target(100, 70, Format::Rgba8, Some(Format::Depth32F));
    let mut r = Rasterizer::new(2);
    r.clear(ClearCall {
        target: t.clone(),
        color: Some(ClearColor::Float([1.0, 0.0, 0.0, 1.0])),
        color_mask: [[true; 4]; 8],
        depth: Some(0.25),
        stencil: None,
        stencil_mask: 0xFF,
        scissor: None,
    });
    r.clear(ClearCall {
        target: t.clone(),
        color: Some(ClearColor::Float([0.0, 1.0, 1.0, 0.0])),
        color_mask: [[false, true, false, true]; 8],
        depth: Some(2.0),
        stencil: None,
        stencil_mask: 0xFF,
        scissor: Some([60, 10, 30, 100]),
    });
    assert!(r.pending());
    r.flush();
    assert!(!r.pending());
    let px = color_image(&t).to_bytes();
    let depth = read_f32(t.depth.as_ref().unwrap());
    for y in 0..70 {
        for x in 0..100 {
            let inside = (60..90).contains(&x) && y >= 10;
            let i = (y * 100 + x) as usize;
            let want: [u8; 4] = if inside {
                [255, 255, 0, 0]
            } else {
                [255, 0, 0, 255]
            };
            assert_eq!(&px[i * 4..i * 4 + 4], &want, "pixel {x} {y}");
            assert_eq!(depth[i], if inside { 1.0 } else { 0.25 });
        }
    }
}

#[test]
fn triangle_crossing_near_is_clipped() {
    // z = x + y - 1 in NDC over the viewport (w = 1): the near plane z = -1 cuts along
    // x + y = 0, the anti-diagonal; pixels with x + y < 0 must stay empty.
    let (w, h) = (64u32, 64u32);
    let t = target(w, h, Format::R32F, None);
    let mut r = Rasterizer::new(2);
    let v = [
        [-1.0, -1.0, -3.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [3.0, -1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [-1.0, 3.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0],
    ];
    r.draw(draw(
        Topology::Triangles,
        &v,
        program(const_fs([1.0; 4]), Interpolation::Smooth),
        counting(state(64, 64)),
        &t,
    ));
    // A triangle wholly behind the near plane draws nothing.
    let behind = [
        [-1.0, -1.0, -3.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [1.0, -1.0, -3.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [-1.0, 1.0, -3.0, 1.0, 0.0, 0.0, 0.0, 0.0],
    ];
    r.draw(draw(
        Topology::Triangles,
        &behind,
        program(const_fs([1.0; 4]), Interpolation::Smooth),
        counting(state(64, 64)),
        &t,
    ));
    // A vertex behind the eye (w < 0) must not wrap around the screen.
    let eye = [
        [-0.5, -0.5, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [0.5, -0.5, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, -2.0, -1.0, 0.0, 0.0, 0.0, 0.0],
    ];
    r.draw(draw(
        Topology::Triangles,
        &eye,
        program(const_fs([1.0; 4]), Interpolation::Smooth),
        counting(state(64, 64)),
        &t,
    ));
    r.flush();
    let counts = read_f32(color_image(&t));
    let mut drawn = 0;
    for y in 0..h {
        for x in 0..w {
            let nx = (x as f64 + 0.5) / 32.0 - 1.0;
            let ny = (y as f64 + 0.5) / 32.0 - 1.0;
            let n = counts[(y * w + x) as usize];
            // The eye triangle only reaches the lower part (y < 32 in window coords).
            let eye_part = if y < 32 { 1.0 } else { 0.0 };
            if nx + ny > 0.05 {
                assert!(n == 1.0 || n == 1.0 + eye_part, "pixel {x} {y}: {n}");
            } else if nx + ny < -0.05 {
                assert!(n == 0.0 || (n == eye_part && y < 32), "pixel {x} {y}: {n}");
            }
            drawn += (n > 0.0) as u32;
        }
    }
    assert!(drawn > 1000);
    // Nothing of the eye triangle lands in the upper half.
    for y in 33..h {
        for x in 0..w {
            let nx = (x as f64 + 0.5) / 32.0 - 1.0;
            let ny = (y as f64 + 0.5) / 32.0 - 1.0;
            if nx + ny < -0.05 {
                assert_eq!(counts[(y * w + x) as usize], 0.0);
            }
        }
    }
}

#[test]
fn culling_and_front_facing() {
    let facing_fs = shader(4, 4, |_, b, o, m| {
        for l in 0..4 {
            let f = b[Builtin::FrontFacing.index() * 4 + l] != 0;
            o[l] = if f { 1.0f32 } else { 0.5 }.to_bits();
        }
        m
    });
    let ccw = [
        at(2.0, 2.0, 16.0, 16.0, [0.0; 4]),
        at(14.0, 2.0, 16.0, 16.0, [0.0; 4]),
        at(2.0, 14.0, 16.0, 16.0, [0.0; 4]),
    ];
    let cw = [ccw[0], ccw[2], ccw[1]];
    for (cull, front_face, tri, want) in [
        (None, gl::CCW, ccw, 1.0),
        (None, gl::CCW, cw, 0.5),
        (None, gl::CW, cw, 1.0),
        (Some(gl::BACK), gl::CCW, cw, 0.0),
        (Some(gl::FRONT), gl::CCW, ccw, 0.0),
        (Some(gl::FRONT), gl::CCW, cw, 0.5),
        (Some(gl::FRONT_AND_BACK), gl::CCW, ccw, 0.0),
    ] {
        let t = target(16, 16, Format::R32F, None);
        let mut st = state(16, 16);
        st.cull_face = cull.map(|c| CullFace::from_gl(c).unwrap());
        st.front_face = FrontFace::from_gl(front_face).unwrap();
        let mut r = Rasterizer::new(1);
        let mut prog = program(facing_fs.clone(), Interpolation::Smooth);
        prog.fs = facing_fs.clone();
        r.draw(draw(Topology::Triangles, &tri, prog, st, &t));
        r.flush();
        assert_eq!(
            read_f32(color_image(&t))[4 * 16 + 4],
            want,
            "{cull:?} {front_face:#x}"
        );
    }
    // A strip keeps one winding: with back faces culled both triangles of a CCW strip draw.
    let t = target(16, 16, Format::R32F, None);
    let mut st = counting(state(16, 16));
    st.cull_face = Some(CullFace::Back);
    let mut r = Rasterizer::new(1);
    r.draw(draw(
        Topology::TriangleStrip,
        &quad(0.0, [0.0; 4]),
        program(const_fs([1.0; 4]), Interpolation::Smooth),
        st,
        &t,
    ));
    r.flush();
    assert!(read_f32(color_image(&t)).iter().all(|&n| n == 1.0));
}

#[test]
fn perspective_correct_noperspective_and_flat_interpolation() {
    let (w, h) = (64u32, 64u32);
    // Window positions and clip w per vertex; the clip position is (ndc * w, w).
    let win = [(4.0, 4.0), (60.0, 10.0), (20.0, 58.0)];
    let ws = [1.0f32, 4.0, 2.0];
    let vals = [
        [0.0f32, 1.0, 10.0, 1.0],
        [1.0, 0.0, 20.0, 1.0],
        [0.5, 0.5, 30.0, 1.0],
    ];
    let verts: Vec<[f32; 8]> = (0..3)
        .map(|i| {
            let v = at(win[i].0, win[i].1, w as f64, h as f64, vals[i]);
            [
                v[0] * ws[i],
                v[1] * ws[i],
                0.0,
                ws[i],
                v[4],
                v[5],
                v[6],
                v[7],
            ]
        })
        .collect();
    for interp in [
        Interpolation::Smooth,
        Interpolation::NoPerspective,
        Interpolation::Flat,
    ] {
        let t = target(w, h, Format::Rgba32F, None);
        let mut r = Rasterizer::new(2);
        r.draw(draw(
            Topology::Triangles,
            &verts,
            program(varying_fs(), interp),
            state(w as i32, h as i32),
            &t,
        ));
        r.flush();
        let img = read_f32(color_image(&t));
        let (x0, y0) = win[0];
        let (x1, y1) = win[1];
        let (x2, y2) = win[2];
        let area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
        let mut checked = 0;
        for py in 0..h {
            for px in 0..w {
                let (cx, cy) = (px as f64 + 0.5, py as f64 + 0.5);
                let b1 = ((cx - x0) * (y2 - y0) - (x2 - x0) * (cy - y0)) / area;
                let b2 = ((x1 - x0) * (cy - y0) - (cx - x0) * (y1 - y0)) / area;
                let b0 = 1.0 - b1 - b2;
                if b0 < 0.01 || b1 < 0.01 || b2 < 0.01 {
                    continue; // stay clear of edges: snapping moves them slightly
                }
                let b = [b0, b1, b2];
                for c in 0..4 {
                    let want = match interp {
                        Interpolation::Smooth => {
                            let num: f64 = (0..3)
                                .map(|i| b[i] * vals[i][c] as f64 / ws[i] as f64)
                                .sum();
                            let den: f64 = (0..3).map(|i| b[i] / ws[i] as f64).sum();
                            num / den
                        }
                        Interpolation::NoPerspective => {
                            (0..3).map(|i| b[i] * vals[i][c] as f64).sum()
                        }
                        Interpolation::Flat => vals[2][c] as f64,
                    };
                    let got = img[((py * w + px) * 4) as usize + c] as f64;
                    let tol = 1e-4 * want.abs().max(1.0);
                    assert!(
                        (got - want).abs() <= tol,
                        "{interp:?} pixel {px} {py} c{c}: {got} vs {want}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 500);
    }
}

#[test]
fn flat_uses_the_last_vertex_of_each_strip_triangle() {
    let colors = [[0.1f32; 4], [0.2; 4], [0.3; 4], [0.4; 4]];
    let pos = [(0.0, 0.0), (16.0, 0.0), (0.0, 16.0), (16.0, 16.0)];
    let verts: Vec<[f32; 8]> = (0..4)
        .map(|i| at(pos[i].0, pos[i].1, 16.0, 16.0, colors[i]))
        .collect();
    let t = target(16, 16, Format::R32F, None);
    let mut r = Rasterizer::new(1);
    r.draw(draw(
        Topology::TriangleStrip,
        &verts,
        program(varying_fs(), Interpolation::Flat),
        state(16, 16),
        &t,
    ));
    r.flush();
    let img = read_f32(color_image(&t));
    assert_eq!(img[2 * 16 + 2], 0.3); // triangle (0, 1, 2): provoking vertex 2
    assert_eq!(img[13 * 16 + 13], 0.4); // triangle (2, 1, 3): provoking vertex 3
}

#[test]
fn vertex_stage_shades_each_index_once_per_instance() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    // Position from slot 0; instance offset from slot 4 (divisor 1) added to x.
    let vs = shader(8, 8, move |i, b, o, m| {
        for l in 0..4 {
            if m & (1 << l) == 0 {
                continue;
            }
            counter.fetch_add(1, Ordering::Relaxed);
            let x = f32::from_bits(i[l]) + f32::from_bits(i[16 + l]);
            o[l] = x.to_bits();
            for w in 1..4 {
                o[w * 4 + l] = i[w * 4 + l];
            }
            // Colour = gl_VertexID / 10 and gl_InstanceID.
            o[16 + l] = (b[Builtin::VertexId.index() * 4 + l] as i32 as f32 / 10.0).to_bits();
            o[20 + l] = (b[Builtin::InstanceId.index() * 4 + l] as f32).to_bits();
        }
        m
    });
    let t = target(32, 16, Format::Rgba32F, None);
    // A 16×16 square on the left half; instance 1 moves right by one NDC unit (16 px).
    let pos: Vec<u8> = [[-1.0f32, -1.0], [0.0, -1.0], [-1.0, 1.0], [0.0, 1.0]]
        .iter()
        .flat_map(|p| p.iter().flat_map(|f| f.to_le_bytes()))
        .collect();
    let offs: Vec<u8> = [0.0f32, 1.0, 5.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let mut d = draw(
        Topology::Triangles,
        &[],
        program(varying_fs(), Interpolation::Flat),
        state(32, 16),
        &t,
    );
    let mut prog = program(varying_fs(), Interpolation::Flat);
    prog.vs = vs;
    d.program = Arc::new(prog);
    d.vertices = VertexInput {
        attribs: vec![
            VertexAttrib {
                slot: 0,
                source: AttribSource::Array {
                    data: Arc::new(pos),
                    offset: 0,
                    stride: 8,
                    size: 2,
                    ty: AttribType::Float,
                    normalized: false,
                    mode: AttribMode::Float,
                    divisor: 0,
                },
            },
            VertexAttrib {
                slot: 4,
                source: AttribSource::Array {
                    data: Arc::new(offs),
                    offset: 0,
                    stride: 4,
                    size: 1,
                    ty: AttribType::Float,
                    normalized: false,
                    mode: AttribMode::Float,
                    divisor: 1,
                },
            },
        ],
        input_words: 8,
        indices: Some(IndexSource {
            // Indices 12..16 with base vertex -12 address vertices 0..4.
            data: Arc::new([12u8, 13, 14, 14, 13, 15].to_vec()),
            offset: 0,
            index_bytes: 1,
            restart: None,
        }),
        first: 0,
        count: 6,
        instance_count: 2,
        base_vertex: -12,
        base_instance: 0,
    };
    let mut r = Rasterizer::new(2);
    r.draw(d);
    r.flush();
    assert_eq!(
        calls.load(Ordering::Relaxed),
        8,
        "4 unique vertices × 2 instances"
    );
    let img = read_f32(color_image(&t));
    let px = |x: u32, y: u32| &img[((y * 32 + x) * 4) as usize..((y * 32 + x) * 4 + 4) as usize];
    // Flat colour of the first triangle comes from index 14 → gl_VertexID 2.
    assert_eq!(px(1, 1)[..2], [0.2, 0.0]);
    assert_eq!(px(17, 1)[..2], [0.2, 1.0]);
    // Second triangle: provoking index 15 → gl_VertexID 3.
    assert_eq!(px(14, 14)[..2], [0.3, 0.0]);
    assert_eq!(px(30, 14)[..2], [0.3, 1.0]);
}

#[test]
fn discard_late_depth_and_helper_lanes() {
    // Discards pixels with x < 4; writes gl_FragDepth = 0.125 for the others.
    let fs = shader(4, 5, |_, b, o, m| {
        let mut alive = 0;
        for l in 0..4 {
            o[l] = 1.0f32.to_bits();
            o[16 + l] = 0.125f32.to_bits();
            if f32::from_bits(b[Builtin::FragCoordX.index() * 4 + l]) >= 4.0 {
                alive |= 1 << l;
            }
        }
        m & alive
    });
    let t = target(8, 8, Format::R32F, Some(Format::Depth32F));
    let mut r = Rasterizer::new(1);
    r.clear(ClearCall {
        target: t.clone(),
        color: Some(ClearColor::Float([0.0; 4])),
        color_mask: [[true; 4]; 8],
        depth: Some(1.0),
        stencil: None,
        stencil_mask: 0xFF,
        scissor: None,
    });
    let mut st = state(8, 8);
    st.depth_func = Some(CompareFunc::Less);
    let mut prog = program(fs.clone(), Interpolation::Smooth);
    prog.fs_output_words = 5;
    prog.frag_depth_slot = Some(4);
    prog.uses_discard = true;
    r.draw(draw(
        Topology::TriangleStrip,
        &quad(0.5, [0.0; 4]),
        prog,
        st,
        &t,
    ));
    // One pixel-sized triangle around pixel (6, 6): its quad's helper lanes must not write.
    let tiny = [
        at(6.1, 6.1, 8.0, 8.0, [0.0; 4]),
        at(6.95, 6.1, 8.0, 8.0, [0.0; 4]),
        at(6.1, 6.95, 8.0, 8.0, [0.0; 4]),
    ];
    r.draw(draw(
        Topology::Triangles,
        &tiny,
        program(const_fs([7.0; 4]), Interpolation::Smooth),
        state(8, 8),
        &t,
    ));
    r.flush();
    let color = read_f32(color_image(&t));
    let depth = read_f32(t.depth.as_ref().unwrap());
    for y in 0..8 {
        for x in 0..8 {
            let i = y * 8 + x;
            if (x, y) == (6, 6) {
                assert_eq!(color[i], 7.0);
            } else {
                assert_eq!(color[i], if x >= 4 { 1.0 } else { 0.0 }, "pixel {x} {y}");
            }
            assert_eq!(depth[i], if x >= 4 { 0.125 } else { 1.0 }, "depth {x} {y}");
        }
    }
}

#[test]
fn scene_memory_stays_flat_across_frames() {
    let t = target(256, 256, Format::Rgba8, None);
    let mut r = Rasterizer::new(2);
    let mut caps = vec![];
    for _ in 0..5 {
        for i in 0..50 {
            let o = i as f64;
            let v = [
                at(o, o, 256.0, 256.0, [1.0; 4]),
                at(o + 150.0, o, 256.0, 256.0, [1.0; 4]),
                at(o, o + 150.0, 256.0, 256.0, [1.0; 4]),
            ];
            r.draw(draw(
                Topology::Triangles,
                &v,
                program(const_fs([1.0; 4]), Interpolation::Smooth),
                state(256, 256),
                &t,
            ));
        }
        r.flush();
        caps.push(r.scene.bins.iter().map(|b| b.capacity()).sum::<usize>());
    }
    assert!(caps[0] > 0);
    assert!(caps.iter().all(|&c| c == caps[0]), "{caps:?}");
    assert!(r.scene.draws.capacity() >= 50);
}

#[test]
fn snapping_matches_fixed_point() {
    let ctx = SetupCtx::new(&state(256, 256), 256, 256, vec![]).unwrap();
    let v = at(10.25, 3.5, 256.0, 256.0, [0.0; 4]);
    assert_eq!(
        setup::snap_vertex(&ctx, &v),
        [10 * fixed::ONE + 64, 3 * fixed::ONE + 128]
    );
}

#[test]
fn vertex_list_dedupes_compact_and_sparse_indices() {
    let t = target(4, 4, Format::R8, None);
    for (indices, want_ids) in [
        (vec![5u32, 6, 7, 7, 6, 8], vec![5i64, 6, 7, 8]),
        (
            vec![0u32, 4_000_000, 2, 2, 4_000_000, 9],
            vec![0, 4_000_000, 2, 9],
        ),
    ] {
        let mut d = draw(
            Topology::Triangles,
            &[],
            program(varying_fs(), Interpolation::Smooth),
            state(4, 4),
            &t,
        );
        d.vertices.count = indices.len() as u32;
        d.vertices.indices = Some(IndexSource {
            data: Arc::new(indices.iter().flat_map(|i| i.to_le_bytes()).collect()),
            offset: 0,
            index_bytes: 4,
            restart: None,
        });
        let list = super::vertex::VertexList::new(&d, 0..indices.len() as u32, false);
        assert_eq!(list.ids, want_ids);
        let recs: Vec<usize> = (0..indices.len() as u32).map(|i| list.record(i)).collect();
        assert_eq!(recs, vec![0, 1, 2, 2, 1, 3]);
        // A later window of a fan also lists the pivot element 0.
        let list = super::vertex::VertexList::new(&d, 3..6, true);
        assert_eq!(
            list.ids,
            [want_ids[2], want_ids[1], want_ids[3], want_ids[0]]
        );
        assert_eq!([0, 3, 4, 5].map(|e| list.record(e)), [3, 0, 1, 2]);
    }
}

#[test]
fn non_finite_positions_are_dropped() {
    let t = target(16, 16, Format::R32F, None);
    let mut r = Rasterizer::new(2);
    let bad = [
        [f32::NAN, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [1.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [-1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [f32::INFINITY, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [1.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [-1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [f32::MAX, -f32::MAX, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [-f32::MAX, -f32::MAX, 0.0, 1e-30, 0.0, 0.0, 0.0, 0.0],
        [0.0, f32::MAX, f32::MAX, 1.0, 0.0, 0.0, 0.0, 0.0],
    ];
    r.draw(draw(
        Topology::Triangles,
        &bad,
        program(const_fs([1.0; 4]), Interpolation::Smooth),
        counting(state(16, 16)),
        &t,
    ));
    r.flush();
    let counts = read_f32(color_image(&t));
    assert!(counts.iter().all(|&n| n <= 1.0), "{counts:?}");
    assert_eq!(counts[0], 0.0);
}

#[test]
fn rasterizer_can_move_to_another_thread() {
    fn assert_send<T: Send>() {}
    assert_send::<Rasterizer>();
    assert_send::<DrawCall>();
}

/// Signed distance (pixels) of `p` from the line a→b; positive on the left.
fn line_dist(a: (f64, f64), b: (f64, f64), p: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    (dx * (p.1 - a.1) - dy * (p.0 - a.0)) / (dx * dx + dy * dy).sqrt()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Two triangles sharing an edge, crossing the near plane: clipping keeps the shared
    /// edge watertight (no pixel twice, none missed in front of the plane, none behind it).
    #[test]
    fn near_clipped_shared_edge_stays_watertight(
        pts in proptest::collection::vec((-20.0f64..220.0, -20.0f64..150.0, -2.5f32..0.9), 4),
    ) {
        let pos: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
        let (a, b, c, d) = (pos[0], pos[1], pos[2], pos[3]);
        let (sc, sd) = (line_dist(a, b, c), line_dist(a, b, d));
        prop_assume!((sc > 2.0 && sd < -2.0) || (sc < -2.0 && sd > 2.0));
        prop_assume!(((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt() > 2.0);
        let v: Vec<[f32; 8]> = pts
            .iter()
            .map(|p| {
                let mut v = at(p.0, p.1, VP, VP, [0.0; 4]);
                v[2] = p.2;
                v
            })
            .collect();
        let counts = count_coverage(Topology::Triangles, &[v[0], v[1], v[2], v[1], v[0], v[3]], 2);
        // z (NDC, w = 1 so screen-linear) at p inside triangle (p0, p1, p2).
        let z_at = |t: [usize; 3], p: (f64, f64)| -> f64 {
            let [i, j, k] = t;
            let area = line_dist(pos[i], pos[j], pos[k]);
            let wk = line_dist(pos[i], pos[j], p) / area;
            let wi = line_dist(pos[j], pos[k], p) / line_dist(pos[j], pos[k], pos[i]);
            let wj = 1.0 - wi - wk;
            wi * pts[i].2 as f64 + wj * pts[j].2 as f64 + wk * pts[k].2 as f64
        };
        let eps = 0.02;
        for py in 0..TH as i32 {
            for px in 0..TW as i32 {
                let n = counts[(py * TW as i32 + px) as usize];
                prop_assert!(n <= 1.0, "pixel {} {} hit {} times", px, py, n);
                let p = (px as f64 + 0.5, py as f64 + 0.5);
                // Inside (a, b, c) away from its outer edges, on c's side of a–b (inclusive);
                // likewise for (b, a, d).
                let s = sc.signum();
                let in1 = line_dist(b, c, p) * s > eps && line_dist(c, a, p) * s > eps && line_dist(a, b, p) * s >= 0.0;
                let in2 = line_dist(a, d, p) * s > eps && line_dist(d, b, p) * s > eps && line_dist(a, b, p) * s <= 0.0;
                let out1 = line_dist(b, c, p) * s < -eps
                    || line_dist(c, a, p) * s < -eps
                    || line_dist(a, b, p) * s < -eps;
                let out2 = line_dist(a, d, p) * s < -eps
                    || line_dist(d, b, p) * s < -eps
                    || line_dist(a, b, p) * s > eps;
                let outside = out1 && out2;
                let z = if in1 { Some(z_at([0, 1, 2], p)) } else if in2 { Some(z_at([1, 0, 3], p)) } else { None };
                match z {
                    Some(z) if z > -0.95 => prop_assert_eq!(n, 1.0, "hole at {} {} (z {})", px, py, z),
                    Some(z) if z < -1.05 => prop_assert_eq!(n, 0.0, "behind near at {} {}", px, py),
                    _ => {}
                }
                if outside && !in1 && !in2 {
                    prop_assert_eq!(n, 0.0, "outside pixel {} {} drawn", px, py);
                }
            }
        }
    }
}

/// A strip, a fan and an indexed list with blending, rendered with the given window size and
/// scene cap.
fn windowed_scene(window_prims: usize, cap: Option<(usize, usize)>) -> Vec<u8> {
    let t = target(96, 80, Format::Rgba8, None);
    let mut r = Rasterizer::new(2);
    r.front.window_prims = window_prims;
    r.scene.cap = cap;
    let mut st = state(96, 80);
    st.blend.enabled = true;
    st.blend.src_rgb = BlendFactor::SrcAlpha;
    st.blend.dst_rgb = BlendFactor::OneMinusSrcAlpha;
    let mut rng = Lcg(11);
    let rnd_vert = |rng: &mut Lcg| -> [f32; 8] {
        let mut v = [0.0f32; 8];
        v[0] = rng.next() * 2.2 - 1.1;
        v[1] = rng.next() * 2.2 - 1.1;
        v[3] = 1.0;
        for c in &mut v[4..8] {
            *c = rng.next();
        }
        v
    };
    let strip: Vec<[f32; 8]> = (0..40).map(|_| rnd_vert(&mut rng)).collect();
    r.draw(draw(
        Topology::TriangleStrip,
        &strip,
        program(varying_fs(), Interpolation::Smooth),
        st,
        &t,
    ));
    let fan: Vec<[f32; 8]> = (0..30).map(|_| rnd_vert(&mut rng)).collect();
    r.draw(draw(
        Topology::TriangleFan,
        &fan,
        program(varying_fs(), Interpolation::Flat),
        st,
        &t,
    ));
    let verts: Vec<[f32; 8]> = (0..12).map(|_| rnd_vert(&mut rng)).collect();
    let mut d = draw(
        Topology::Triangles,
        &verts,
        program(varying_fs(), Interpolation::Smooth),
        st,
        &t,
    );
    let idx: Vec<u8> = (0..60).map(|_| (rng.next() * 12.0) as u8).collect();
    d.vertices.indices = Some(IndexSource {
        data: Arc::new(idx),
        offset: 0,
        index_bytes: 1,
        restart: None,
    });
    d.vertices.count = 60;
    d.vertices.instance_count = 2;
    r.draw(d);
    r.flush();
    color_image(&t).to_bytes()
}

#[test]
fn windows_and_mid_draw_flushes_do_not_change_pixels() {
    let whole = windowed_scene(0, None);
    assert!(whole.iter().any(|&b| b != 0));
    for window in [1, 2, 5, 7] {
        assert!(windowed_scene(window, None) == whole, "window {window}");
        assert!(
            windowed_scene(window, Some((usize::MAX, 3))) == whole,
            "window {window}, flushes"
        );
    }
}

#[test]
fn fragments_stay_inside_viewport_and_scissor() {
    let t = target(100, 80, Format::R32F, None);
    let mut r = Rasterizer::new(2);
    // A triangle far larger than the viewport (inside the guard band: no x/y clipping).
    let big = [
        [-30.0, -30.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [60.0, -30.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [-30.0, 60.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
    ];
    let mut st = counting(state(40, 30));
    st.viewport = [10, 20, 40, 30];
    r.draw(draw(
        Topology::Triangles,
        &big,
        program(const_fs([1.0; 4]), Interpolation::Smooth),
        st,
        &t,
    ));
    st.viewport = [0, 0, 100, 80];
    st.scissor = Some([70, 5, 20, 10]);
    r.draw(draw(
        Topology::Triangles,
        &big,
        program(const_fs([1.0; 4]), Interpolation::Smooth),
        st,
        &t,
    ));
    r.flush();
    let counts = read_f32(color_image(&t));
    for y in 0..80 {
        for x in 0..100 {
            let in_vp = (10..50).contains(&x) && (20..50).contains(&y);
            let in_sc = (70..90).contains(&x) && (5..15).contains(&y);
            let want = (in_vp as u32 + in_sc as u32) as f32;
            assert_eq!(counts[y * 100 + x], want, "pixel {x} {y}");
        }
    }
}

#[test]
fn stencil_only_and_depth_only_clears_keep_the_other_half() {
    let t = target(70, 3, Format::Rg8, Some(Format::Depth24Stencil8));
    let mut r = Rasterizer::new(2);
    let clear = |color: Option<[f32; 4]>, depth, stencil| ClearCall {
        target: t.clone(),
        color: color.map(ClearColor::Float),
        color_mask: [[true; 4]; 8],
        depth,
        stencil,
        stencil_mask: 0xFF,
        scissor: None,
    };
    r.clear(clear(Some([0.2, 0.6, 1.0, 1.0]), Some(0.75), Some(9)));
    r.clear(clear(None, None, Some(0x5A)));
    r.clear(clear(None, Some(0.25), None));
    // glStencilMask masks clears (GL 4.5 core §17.4.3): only the low nibble is written,
    // with the depth clear and without it.
    r.clear(ClearCall {
        stencil_mask: 0x0F,
        ..clear(None, None, Some(0xF3))
    });
    r.clear(ClearCall {
        stencil_mask: 0x00,
        ..clear(None, Some(0.25), Some(0xFF))
    });
    r.flush();
    let words: Vec<u32> = t
        .depth
        .as_ref()
        .unwrap()
        .to_bytes()
        .chunks(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let d24 = super::ops::depth_to_d24(0.25);
    assert!(
        words.iter().all(|&w| w == (0x53 << 24) | d24),
        "{:#x}",
        words[0]
    );
    assert!(color_image(&t).to_bytes().chunks(2).all(|p| p == [51, 153]));
}

/// Occlusion counting on the reference path (shaders that are not JIT code): the counter a
/// draw carries gets exactly the samples it wrote, after discard and the depth test, the
/// same with 1 and 3 threads; a draw without a counter counts nothing.
#[test]
fn occlusion_counter_counts_the_samples_written() {
    let mut seen = None;
    for threads in [1, 3] {
        let t = target(TW, TH, Format::R32F, Some(Format::Depth32F));
        let mut r = Rasterizer::new(threads);
        r.clear(ClearCall {
            target: t.clone(),
            color: Some(ClearColor::Float([0.0; 4])),
            color_mask: [[true; 4]; 8],
            depth: Some(1.0),
            stencil: None,
            stencil_mask: 0xFF,
            scissor: None,
        });
        let mut st = state(VP as i32, VP as i32);
        st.depth_func = Some(CompareFunc::Less);
        // Writes 1.0, discarding left of x = 37.
        let fs = shader(4, 4, |_, b, o, m| {
            let mut alive = 0;
            for l in 0..4 {
                for c in 0..4 {
                    o[c * 4 + l] = 1.0f32.to_bits();
                }
                if f32::from_bits(b[Builtin::FragCoordX.index() * 4 + l]) >= 37.0 {
                    alive |= 1 << l;
                }
            }
            m & alive
        });
        let mut prog = program(fs, Interpolation::Smooth);
        prog.uses_discard = true;
        let tri = [
            at(3.0, 5.0, VP, VP, [0.0; 4]),
            at(190.5, 20.25, VP, VP, [0.0; 4]),
            at(60.0, 125.75, VP, VP, [0.0; 4]),
        ];
        // A quad in front over the middle first, drawn without a counter.
        let front: Vec<[f32; 8]> = [[80.0, 30.0], [150.0, 30.0], [80.0, 90.0], [150.0, 90.0]]
            .iter()
            .map(|p| {
                let mut v = at(p[0], p[1], VP, VP, [0.0; 4]);
                v[2] = -0.5;
                v
            })
            .collect();
        let mut d = draw(
            Topology::TriangleStrip,
            &front,
            program(const_fs([2.0; 4]), Interpolation::Smooth),
            st,
            &t,
        );
        d.samples = None;
        r.draw(d);
        let counter = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut d = draw(Topology::Triangles, &tri, prog, st, &t);
        d.samples = Some(counter.clone());
        r.draw(d);
        r.flush();
        let written = read_f32(color_image(&t))
            .iter()
            .filter(|&&v| v == 1.0)
            .count() as u64;
        let n = counter.load(Ordering::Relaxed);
        assert!(written > 1000, "{written}");
        assert_eq!(n, written, "{threads} threads");
        assert_eq!(*seen.get_or_insert(n), n);
    }
}

/// The stencil test and operations on the reference path (Rust-written shaders run through
/// `ops::depth_stencil` in the tile loop): a front (CCW) full-target strip and a back (CW)
/// one, each face with its own function, operations and masks, over a stencil with a
/// value per column; then a draw that discards half its lanes leaves those untouched.
/// Exact bytes, the same with 1 and 3 threads, every pixel checked against
/// `ops::depth_stencil` evaluated independently per pixel.
#[test]
fn stencil_on_the_reference_path() {
    use super::ops;
    use crate::gl::StencilOp;
    let (w, h) = (70u32, 9u32);
    let front = StencilFace {
        func: CompareFunc::Lequal,
        sfail: StencilOp::DecrWrap,
        dpfail: StencilOp::Zero,
        dppass: StencilOp::IncrWrap,
        reference: 0x30,
        value_mask: 0xF0,
        write_mask: 0xFF,
    };
    let back = StencilFace {
        func: CompareFunc::Notequal,
        sfail: StencilOp::Invert,
        dpfail: StencilOp::Keep,
        dppass: StencilOp::Replace,
        reference: 0x5C,
        value_mask: 0xFF,
        write_mask: 0x3C,
    };
    // Column x starts with stencil x * 3 (written directly), depth 0.5.
    let initial = |x: u32| ((x * 3) as u8 as u32) << 24 | ops::depth_to_d24(0.5);
    let mut seen: Option<Vec<u8>> = None;
    for threads in [1, 3] {
        let t = target(w, h, Format::Rgba8, Some(Format::Depth24Stencil8));
        let zs = t.depth.clone().unwrap();
        let bytes: Vec<u8> = (0..w * h)
            .flat_map(|i| initial(i % w).to_le_bytes())
            .collect();
        let mut r = Rasterizer::new(threads);
        let flushed = r.flush();
        zs.write_bytes_flushed(&flushed, 0, &bytes);
        let mut st = state(w as i32, h as i32);
        st.depth_func = Some(CompareFunc::Less);
        st.depth_mask = true;
        st.stencil = Some(StencilState { front, back });
        // Front: CCW strip at depth 0.25 on the left half (passes depth where stencil
        // passes); back: CW (mirrored) strip at 0.75 on the right half (fails depth).
        let strip = |x0: f32, x1: f32, z: f32| -> Vec<[f32; 8]> {
            [[x0, -1.0], [x1, -1.0], [x0, 1.0], [x1, 1.0]]
                .iter()
                .map(|p| [p[0], p[1], z, 1.0, 1.0, 0.0, 0.0, 1.0])
                .collect()
        };
        let fs = const_fs([1.0, 0.0, 0.0, 1.0]);
        r.draw(draw(
            Topology::TriangleStrip,
            &strip(-1.0, 0.0, -0.5),
            program(fs.clone(), Interpolation::Smooth),
            st,
            &t,
        ));
        r.draw(draw(
            Topology::TriangleStrip,
            &strip(1.0, 0.0, 0.5),
            program(fs, Interpolation::Smooth),
            st,
            &t,
        ));
        r.flush();
        let got = zs.to_bytes();
        for y in 0..h {
            for x in 0..w {
                let i = ((y * w + x) * 4) as usize;
                let word = u32::from_le_bytes([got[i], got[i + 1], got[i + 2], got[i + 3]]);
                let left = x < w / 2;
                let (face, z) = if left { (&front, 0.25) } else { (&back, 0.75) };
                let depth = Some(ops::DepthTest {
                    format: Format::Depth24Stencil8,
                    func: CompareFunc::Less,
                    write: true,
                });
                let (want, _) = ops::depth_stencil(initial(x), depth, Some(face), z);
                assert_eq!(word, want, "({x}, {y}) threads {threads}");
            }
        }
        match &seen {
            None => seen = Some(got),
            Some(s) => assert!(*s == got, "1 and 3 threads differ"),
        }
    }
    // The front half changes in every column (LEQUAL against 0x30 under 0xF0 splits it into
    // sfail and dppass, both of which write); the back half fails depth with dpfail KEEP
    // (no column equals 0x5C for sfail), so it must stay: 35 columns exactly.
    let s = seen.unwrap();
    let changed = (0..w)
        .filter(|&x| {
            let i = (x * 4) as usize;
            u32::from_le_bytes([s[i], s[i + 1], s[i + 2], s[i + 3]]) != initial(x)
        })
        .count();
    assert_eq!(changed, 35, "columns changed");
}
