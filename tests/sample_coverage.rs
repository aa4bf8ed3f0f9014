//! GL_SAMPLE_COVERAGE and glSampleCoverage (GL 4.5 core §17.3.3) through the Rust
//! `Context`: the state and its queries, and draws into a 4-sample renderbuffer whose
//! resolve shows how many samples the coverage mask kept (softgl keeps the
//! round(value · samples) lowest samples, inverted on request), ANDed with the sample
//! mask; single-sample targets are not affected. Draws run at 1 and 2 threads.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 330
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";
const FS: &str = "#version 330
out vec4 c;
void main() { c = vec4(1.0); }";

/// Draws white over black into a 4-sample 2×2 renderbuffer with `setup` applied, resolves
/// it into a single-sample one and returns pixel (0, 0)'s red.
fn resolved_red(threads: usize, setup: impl Fn(&mut Context)) -> u8 {
    let mut c = common::context(2, 2, threads);
    let rbs = c.gen_renderbuffers(2);
    let fbs = c.gen_framebuffers(2);
    for (k, samples) in [(0usize, 4), (1, 0)] {
        c.bind_renderbuffer(gl::RENDERBUFFER, rbs[k]);
        c.renderbuffer_storage_multisample(gl::RENDERBUFFER, samples, gl::RGBA8, 2, 2);
        c.bind_framebuffer(gl::FRAMEBUFFER, fbs[k]);
        c.framebuffer_renderbuffer(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0,
            gl::RENDERBUFFER,
            rbs[k],
        );
    }
    c.bind_framebuffer(gl::FRAMEBUFFER, fbs[0]);
    assert_eq!(c.get_integerv(gl::SAMPLES)[0], 4);
    c.clear_color(0.0, 0.0, 0.0, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    c.viewport(0, 0, 2, 2);
    setup(&mut c);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, fbs[0]);
    c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, fbs[1]);
    c.blit_framebuffer(0, 0, 2, 2, 0, 0, 2, 2, gl::COLOR_BUFFER_BIT, gl::NEAREST);
    c.bind_framebuffer(gl::READ_FRAMEBUFFER, fbs[1]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)[0]
}

/// The resolve of `on` of 4 samples white: the average, as the resolve rounds it.
fn of_four(c: impl Fn(&mut Context)) -> (u8, u8) {
    (resolved_red(1, &c), resolved_red(2, &c))
}

#[test]
fn state_and_queries() {
    let mut c = common::context(2, 2, 1);
    assert_eq!(c.get_booleanv(gl::SAMPLE_COVERAGE), [false]);
    assert_eq!(c.get_floatv(gl::SAMPLE_COVERAGE_VALUE), [1.0]);
    assert_eq!(c.get_booleanv(gl::SAMPLE_COVERAGE_INVERT), [false]);
    c.enable(gl::SAMPLE_COVERAGE);
    c.sample_coverage(1.5, true);
    assert_eq!(c.get_booleanv(gl::SAMPLE_COVERAGE), [true]);
    assert_eq!(c.get_floatv(gl::SAMPLE_COVERAGE_VALUE), [1.0]);
    assert_eq!(c.get_booleanv(gl::SAMPLE_COVERAGE_INVERT), [true]);
    c.sample_coverage(-1.0, false);
    assert_eq!(c.get_floatv(gl::SAMPLE_COVERAGE_VALUE), [0.0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn the_mask_keeps_round_value_times_samples() {
    let full = of_four(|_| {});
    assert_eq!(full, (255, 255));
    let disabled = of_four(|c| c.sample_coverage(0.0, false));
    assert_eq!(disabled, (255, 255), "GL_SAMPLE_COVERAGE is off");
    let half = of_four(|c| {
        c.enable(gl::SAMPLE_COVERAGE);
        c.sample_coverage(0.5, false);
    });
    let inverted_quarter = of_four(|c| {
        c.enable(gl::SAMPLE_COVERAGE);
        c.sample_coverage(0.25, true);
    });
    let none = of_four(|c| {
        c.enable(gl::SAMPLE_COVERAGE);
        c.sample_coverage(0.0, false);
    });
    assert_eq!(none, (0, 0));
    assert_eq!(half.0, half.1);
    assert_eq!(inverted_quarter.0, inverted_quarter.1);
    // Two of four samples white, three of four.
    assert!((127..=128).contains(&half.0), "{half:?}");
    assert!(
        (191..=192).contains(&inverted_quarter.0),
        "{inverted_quarter:?}"
    );
    // ANDed with the sample mask: coverage keeps samples 0 and 1, the mask 1 and 2.
    let both = of_four(|c| {
        c.enable(gl::SAMPLE_COVERAGE);
        c.sample_coverage(0.5, false);
        c.enable(gl::SAMPLE_MASK);
        c.sample_maski(0, 0b0110);
    });
    assert!((63..=64).contains(&both.0), "{both:?}");
}

#[test]
fn single_sample_targets_ignore_it() {
    let mut c = common::context(2, 2, 1);
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    c.enable(gl::SAMPLE_COVERAGE);
    c.sample_coverage(0.0, false);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(
        c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE),
        [255; 4]
    );
}
