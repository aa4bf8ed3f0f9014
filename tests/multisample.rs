//! Multisampling end to end through the Rust `Context` (GL 4.5 core §9.2.4, §14.3.1,
//! §17.3.3, §18.3.1): multisample renderbuffers, completeness, the sample positions, a
//! triangle drawn into 4 samples and resolved by glBlitFramebuffer (edge pixels take exactly
//! k/4 of the colour, k the samples inside the triangle at the standard positions, counted
//! here from the edge functions), GL_MULTISAMPLE off, the sample mask, clears of every
//! sample, per-sample depth, occlusion counts of samples, float resolves, and the errors.
//! Every image is the same with 1 and 2 threads.

use softgl::{enums as gl, Context};

mod common;

const W: i32 = 16;
const H: i32 = 16;

const VS: &str = "#version 330
uniform vec2 p[3];
uniform float z;
void main() { gl_Position = vec4(p[gl_VertexID], z, 1.0); }";

const FS: &str = "#version 330
uniform vec4 colour;
out vec4 o;
void main() { o = colour; }";

/// The standard 4-sample positions (llvmpipe's `lp_sample_pos_4x`).
const POS4: [[f32; 2]; 4] = [
    [0.375, 0.125],
    [0.875, 0.375],
    [0.125, 0.625],
    [0.625, 0.875],
];

fn context(threads: usize) -> Context {
    let mut c = Context::with_threads(W as u32, H as u32, threads);
    let vao = c.gen_vertex_arrays(1)[0];
    c.bind_vertex_array(vao);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    c
}

/// A renderbuffer of `samples` samples of `format`, W×H.
fn renderbuffer(c: &mut Context, samples: i32, format: u32) -> u32 {
    let rb = c.gen_renderbuffers(1)[0];
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    c.renderbuffer_storage_multisample(gl::RENDERBUFFER, samples, format, W, H);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    rb
}

/// A framebuffer with `color` (and `depth` at the depth-stencil point), bound to both
/// targets.
fn fbo(c: &mut Context, color: u32, depth: Option<u32>) -> u32 {
    let f = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f);
    c.framebuffer_renderbuffer(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::RENDERBUFFER,
        color,
    );
    if let Some(d) = depth {
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::DEPTH_STENCIL_ATTACHMENT,
            gl::RENDERBUFFER,
            d,
        );
    }
    f
}

/// A 4× RGBA8 framebuffer (with a 4× D24S8 buffer when `depth`) and a single-sample RGBA8
/// one to resolve into: (multisample, single-sample).
fn pair(c: &mut Context, samples: i32, format: u32, depth: bool) -> (u32, u32) {
    let ms_color = renderbuffer(c, samples, format);
    let ms_depth = depth.then(|| renderbuffer(c, samples, gl::DEPTH24_STENCIL8));
    let ms = fbo(c, ms_color, ms_depth);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    let ss_color = renderbuffer(c, 0, format);
    let ss = fbo(c, ss_color, None);
    c.bind_framebuffer(gl::FRAMEBUFFER, ms);
    c.viewport(0, 0, W, H);
    (ms, ss)
}

/// Draws the triangle with window-space corners `t` (pixels) at NDC depth `z` in `colour`.
fn triangle(c: &mut Context, t: [[f32; 2]; 3], z: f32, colour: [f32; 4]) {
    let p = c.get_integerv(gl::CURRENT_PROGRAM)[0] as u32;
    let ndc: Vec<f32> = t
        .iter()
        .flat_map(|v| [v[0] / W as f32 * 2.0 - 1.0, v[1] / H as f32 * 2.0 - 1.0])
        .collect();
    let (lp, lz, lc) = (
        c.get_uniform_location(p, "p"),
        c.get_uniform_location(p, "z"),
        c.get_uniform_location(p, "colour"),
    );
    c.uniform_2fv(lp, &ndc);
    c.uniform_1f(lz, z);
    c.uniform_4f(lc, colour[0], colour[1], colour[2], colour[3]);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
}

/// Resolves `ms` into `ss` and reads the RGBA8 result.
fn resolve(c: &mut Context, ms: u32, ss: u32) -> Vec<u8> {
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, ms);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, ss);
    c.blit_framebuffer(0, 0, W, H, 0, 0, W, H, gl::COLOR_BUFFER_BIT, gl::NEAREST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, ss);
    let b = c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    b
}

/// A triangle whose corners (multiples of 1/256 pixel, exact in f32 and in window space)
/// sit off the 1/16-pixel grid of the sample positions, so no sample lies on an edge and
/// the count below needs no tie rule (`covered` asserts it).
const TRI: [[f32; 2]; 3] = [
    [337.0 / 256.0, 208.0 / 256.0],
    [3866.0 / 256.0, 1588.0 / 256.0],
    [1178.0 / 256.0, 3955.0 / 256.0],
];

/// The samples of pixel (x, y) inside `t`, from exact edge functions over the corners
/// snapped to 1/256 pixel (as the rasterizer snaps them).
fn covered(t: [[f32; 2]; 3], x: i32, y: i32) -> usize {
    covered_at(t, x, y, &POS4)
}

/// As `covered`, for the sample positions `pos`.
fn covered_at(t: [[f32; 2]; 3], x: i32, y: i32, pos: &[[f32; 2]]) -> usize {
    let snap = |v: f32| (v as f64 * 256.0).round() as i64;
    let p = t.map(|v| [snap(v[0]), snap(v[1])]);
    let area =
        (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
    pos.iter()
        .filter(|s| {
            let q = [
                x as i64 * 256 + (s[0] * 256.0) as i64,
                y as i64 * 256 + (s[1] * 256.0) as i64,
            ];
            let e = |a: [i64; 2], b: [i64; 2]| {
                (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0])
            };
            let es = [e(p[0], p[1]), e(p[1], p[2]), e(p[2], p[0])];
            assert!(es.iter().all(|&v| v != 0), "a sample on an edge");
            es.iter().all(|&v| (v > 0) == (area > 0))
        })
        .count()
}

/// The resolved unorm8 value of `k` of 4 samples at 255 and the rest at 0.
fn quarter(k: usize) -> u8 {
    ((255 * k as u32 + 2) / 4) as u8
}

#[test]
fn resolved_edges_take_exact_quarters() {
    let mut images = Vec::new();
    for threads in [1, 2] {
        let mut c = context(threads);
        let (ms, ss) = pair(&mut c, 4, gl::RGBA8, false);
        c.clear_color(0.0, 0.0, 0.0, 0.0);
        c.clear(gl::COLOR_BUFFER_BIT);
        triangle(&mut c, TRI, 0.0, [1.0, 1.0, 1.0, 1.0]);
        images.push(resolve(&mut c, ms, ss));
    }
    assert!(images[0] == images[1], "1 and 2 threads differ");
    let img = &images[0];
    let mut seen = [0usize; 5];
    for y in 0..H {
        for x in 0..W {
            let k = covered(TRI, x, y);
            seen[k] += 1;
            let i = ((y * W + x) * 4) as usize;
            assert_eq!(
                img[i..i + 4],
                [quarter(k); 4],
                "pixel ({x}, {y}): {k} samples"
            );
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "every fraction occurs: {seen:?}"
    );
}

#[test]
fn multisample_off_and_sample_mask() {
    let mut c = context(1);
    let (ms, ss) = pair(&mut c, 4, gl::RGBA8, false);
    // GL_MULTISAMPLE off: every sample takes the pixel centre's coverage.
    c.disable(gl::MULTISAMPLE);
    c.clear(gl::COLOR_BUFFER_BIT);
    triangle(&mut c, TRI, 0.0, [1.0, 1.0, 1.0, 1.0]);
    let img = resolve(&mut c, ms, ss);
    assert!(img.iter().all(|&v| v == 0 || v == 255));
    assert!(img.contains(&255));
    c.enable(gl::MULTISAMPLE);
    // The sample mask keeps samples 0 and 2: a full-screen draw covers half of each pixel.
    c.bind_framebuffer(gl::FRAMEBUFFER, ms);
    c.clear(gl::COLOR_BUFFER_BIT);
    c.enable(gl::SAMPLE_MASK);
    c.sample_maski(0, 0b0101);
    assert_eq!(c.get_integeri_v(gl::SAMPLE_MASK_VALUE, 0), vec![0b0101]);
    let full = [[-1.0, -1.0], [40.0, -1.0], [-1.0, 40.0]];
    triangle(&mut c, full, 0.0, [1.0, 1.0, 1.0, 1.0]);
    let img = resolve(&mut c, ms, ss);
    assert!(img.iter().all(|&v| v == 128), "{:?}", &img[..8]);
    c.sample_maski(1, 0);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
}

#[test]
fn clears_reach_every_sample_and_depth_is_per_sample() {
    let mut c = context(2);
    let (ms, ss) = pair(&mut c, 4, gl::RGBA8, true);
    c.clear_color(0.2, 0.4, 0.6, 0.8);
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    let img = resolve(&mut c, ms, ss);
    assert!(img.chunks(4).all(|p| p == [51, 102, 153, 204]));
    // A near triangle, then a full-screen far one under the depth test: the far colour
    // fills exactly the samples the near one missed.
    c.bind_framebuffer(gl::FRAMEBUFFER, ms);
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    c.enable(gl::DEPTH_TEST);
    triangle(&mut c, TRI, -0.5, [0.0, 0.0, 0.0, 0.0]);
    let q = c.gen_queries(1)[0];
    c.begin_query(gl::SAMPLES_PASSED, q);
    let full = [[-1.0, -1.0], [40.0, -1.0], [-1.0, 40.0]];
    triangle(&mut c, full, 0.5, [1.0, 1.0, 1.0, 1.0]);
    c.end_query(gl::SAMPLES_PASSED);
    let img = resolve(&mut c, ms, ss);
    let mut passed = 0;
    for y in 0..H {
        for x in 0..W {
            let k = 4 - covered(TRI, x, y);
            passed += k as u64;
            let i = ((y * W + x) * 4) as usize;
            assert_eq!(img[i], quarter(k), "pixel ({x}, {y})");
        }
    }
    // SAMPLES_PASSED counts samples in a multisample framebuffer (GL 4.5 core §17.3.7).
    assert_eq!(c.get_query_object(q, gl::QUERY_RESULT), Some(passed));
}

#[test]
fn float_resolve_sums_in_sample_order() {
    let mut c = context(1);
    let (ms, ss) = pair(&mut c, 8, gl::RGBA32F, false);
    c.clear(gl::COLOR_BUFFER_BIT);
    triangle(&mut c, TRI, 0.0, [1.0, 0.5, 0.25, 1.0]);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, ms);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, ss);
    c.blit_framebuffer(0, 0, W, H, 0, 0, W, H, gl::COLOR_BUFFER_BIT, gl::LINEAR);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, ss);
    let b = c.read_pixels(0, 0, W, H, gl::RGBA, gl::FLOAT);
    let f: Vec<f32> = b
        .chunks_exact(4)
        .map(|p| f32::from_le_bytes([p[0], p[1], p[2], p[3]]))
        .collect();
    // Each value is k/8 of the colour: exact in f32.
    let mut fractions = std::collections::BTreeSet::new();
    for p in f.chunks_exact(4) {
        let k = p[0] * 8.0;
        assert_eq!(k, k.round());
        assert_eq!(p, [k / 8.0, k / 16.0, k / 32.0, k / 8.0]);
        fractions.insert(k as u32);
    }
    assert!(fractions.len() > 4, "{fractions:?}");
}

/// Sample `s` of an 8-sample buffer lies where glGetMultisamplefv says: with the sample mask
/// keeping only sample `s`, a pixel resolves to 1/8 of the colour exactly when that position
/// is inside the triangle (the 8-sample pattern is not point-symmetric, so a mirrored shift
/// would fail here).
#[test]
fn each_sample_plane_is_its_position() {
    let mut c = context(1);
    let (ms, ss) = pair(&mut c, 8, gl::RGBA8, false);
    c.enable(gl::SAMPLE_MASK);
    for s in 0..8u32 {
        c.bind_framebuffer(gl::FRAMEBUFFER, ms);
        let pos = c.get_multisamplefv(gl::SAMPLE_POSITION, s);
        c.clear(gl::COLOR_BUFFER_BIT);
        c.sample_maski(0, 1 << s);
        triangle(&mut c, TRI, 0.0, [1.0, 1.0, 1.0, 1.0]);
        let img = resolve(&mut c, ms, ss);
        let mut inside = 0;
        for y in 0..H {
            for x in 0..W {
                let k = covered_at(TRI, x, y, &[pos]);
                inside += k;
                let i = ((y * W + x) * 4) as usize;
                // (255 + 4) / 8 = 32.
                assert_eq!(img[i], [0, 32][k], "sample {s} pixel ({x}, {y})");
            }
        }
        assert!(inside > 50, "sample {s}: {inside}");
    }
}

#[test]
fn state_queries_and_positions() {
    let mut c = context(1);
    for p in [
        gl::MAX_SAMPLES,
        gl::MAX_COLOR_TEXTURE_SAMPLES,
        gl::MAX_DEPTH_TEXTURE_SAMPLES,
        gl::MAX_INTEGER_SAMPLES,
    ] {
        assert_eq!(c.get_integerv(p), vec![8]);
    }
    assert_eq!(c.get_integerv(gl::SAMPLES), vec![0]);
    assert_eq!(c.get_integerv(gl::SAMPLE_BUFFERS), vec![0]);
    // A single-sample framebuffer has one sample, at the centre.
    assert_eq!(c.get_multisamplefv(gl::SAMPLE_POSITION, 0), [0.5, 0.5]);
    c.get_multisamplefv(gl::SAMPLE_POSITION, 1);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    let (_ms, _) = pair(&mut c, 3, gl::RGBA8, true);
    assert_eq!(
        c.get_renderbuffer_parameteriv(gl::RENDERBUFFER, gl::RENDERBUFFER_SAMPLES),
        0
    );
    assert_eq!(c.get_integerv(gl::SAMPLES), vec![4], "3 rounds up to 4");
    assert_eq!(c.get_integerv(gl::SAMPLE_BUFFERS), vec![1]);
    for (s, want) in POS4.iter().enumerate() {
        assert_eq!(c.get_multisamplefv(gl::SAMPLE_POSITION, s as u32), *want);
    }
    c.get_multisamplefv(gl::SAMPLE_POSITION, 4);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
    assert_eq!(
        c.get_internalformativ(gl::RENDERBUFFER, gl::RGBA8, gl::NUM_SAMPLE_COUNTS, 1),
        vec![3]
    );
    assert_eq!(
        c.get_internalformativ(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, gl::SAMPLES, 8),
        vec![8, 4, 2]
    );
    assert_eq!(
        c.get_internalformativ(gl::RENDERBUFFER, gl::RGBA8, gl::SAMPLES, 2),
        vec![8, 4]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // DSA storage.
    let rb = c.create_renderbuffers(1)[0];
    c.named_renderbuffer_storage_multisample(rb, 8, gl::RGBA8, 4, 4);
    c.bind_renderbuffer(gl::RENDERBUFFER, rb);
    assert_eq!(
        c.get_renderbuffer_parameteriv(gl::RENDERBUFFER, gl::RENDERBUFFER_SAMPLES),
        8
    );
    c.named_renderbuffer_storage(rb, gl::RGBA8, 4, 4);
    assert_eq!(
        c.get_renderbuffer_parameteriv(gl::RENDERBUFFER, gl::RENDERBUFFER_SAMPLES),
        0
    );
    c.named_renderbuffer_storage_multisample(rb + 100, 4, gl::RGBA8, 4, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
}

#[test]
fn errors() {
    let mut c = context(1);
    let (ms, ss) = pair(&mut c, 4, gl::RGBA8, false);
    // Samples that differ between attachments.
    let depth = renderbuffer(&mut c, 2, gl::DEPTH24_STENCIL8);
    c.bind_framebuffer(gl::FRAMEBUFFER, ms);
    c.framebuffer_renderbuffer(
        gl::FRAMEBUFFER,
        gl::DEPTH_STENCIL_ATTACHMENT,
        gl::RENDERBUFFER,
        depth,
    );
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE
    );
    c.framebuffer_renderbuffer(
        gl::FRAMEBUFFER,
        gl::DEPTH_STENCIL_ATTACHMENT,
        gl::RENDERBUFFER,
        0,
    );
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    // ReadPixels of a multisample framebuffer.
    c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Resolves of another size, into other sample counts.
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, ms);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, ss);
    c.blit_framebuffer(
        0,
        0,
        W,
        H,
        0,
        0,
        W / 2,
        H,
        gl::COLOR_BUFFER_BIT,
        gl::NEAREST,
    );
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // A flip of the same size is allowed.
    c.blit_framebuffer(0, 0, W, H, W, 0, 0, H, gl::COLOR_BUFFER_BIT, gl::NEAREST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let (ms8, _) = pair(&mut c, 8, gl::RGBA8, false);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, ms);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, ms8);
    c.blit_framebuffer(0, 0, W, H, 0, 0, W, H, gl::COLOR_BUFFER_BIT, gl::NEAREST);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // Storage past GL_MAX_SAMPLES.
    c.renderbuffer_storage_multisample(gl::RENDERBUFFER, 9, gl::RGBA8, 4, 4);
    assert_eq!(c.get_error(), gl::INVALID_VALUE);
}

#[test]
fn single_sample_into_multisample_and_back() {
    // A blit from a single-sample buffer fills every sample; resolving gives it back.
    let mut c = context(1);
    let (ms, ss) = pair(&mut c, 4, gl::RGBA8, false);
    c.bind_framebuffer(gl::FRAMEBUFFER, ss);
    c.clear(gl::COLOR_BUFFER_BIT);
    triangle(&mut c, TRI, 0.0, [0.9, 0.3, 0.1, 1.0]);
    let before = c.read_pixels(0, 0, W, H, gl::RGBA, gl::UNSIGNED_BYTE);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, ss);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, ms);
    c.blit_framebuffer(0, 0, W, H, 0, 0, W, H, gl::COLOR_BUFFER_BIT, gl::NEAREST);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.bind_framebuffer(gl::FRAMEBUFFER, ss);
    c.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(resolve(&mut c, ms, ss), before);
}

/// GL_SAMPLE_SHADING and glMinSampleShading (GL 4.5 core §14.3.1.1) are state: softgl
/// shades every sample of a multisample target anyway, so the resolved image is the same
/// with sample shading on at any minimum as with it off.
#[test]
fn sample_shading_state_changes_no_pixel() {
    let mut c = context(1);
    assert!(!c.is_enabled(gl::SAMPLE_SHADING));
    assert_eq!(c.get_floatv(gl::MIN_SAMPLE_SHADING_VALUE), vec![0.0]);
    let (ms, ss) = pair(&mut c, 4, gl::RGBA8, false);
    let draw = |c: &mut Context| {
        c.bind_framebuffer(gl::FRAMEBUFFER, ms);
        c.clear_color(0.0, 0.0, 0.0, 0.0);
        c.clear(gl::COLOR_BUFFER_BIT);
        triangle(c, TRI, 0.0, [1.0, 0.5, 0.25, 1.0]);
        resolve(c, ms, ss)
    };
    let off = draw(&mut c);
    c.enable(gl::SAMPLE_SHADING);
    c.min_sample_shading(0.5);
    assert!(c.is_enabled(gl::SAMPLE_SHADING));
    assert_eq!(c.get_floatv(gl::MIN_SAMPLE_SHADING_VALUE), vec![0.5]);
    assert_eq!(draw(&mut c), off);
    c.min_sample_shading(7.0);
    assert_eq!(c.get_floatv(gl::MIN_SAMPLE_SHADING_VALUE), vec![1.0]);
    c.min_sample_shading(-1.0);
    assert_eq!(c.get_floatv(gl::MIN_SAMPLE_SHADING_VALUE), vec![0.0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
