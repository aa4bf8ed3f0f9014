//! Framebuffers with no attachments (GL 4.5 core §9.2.1, §9.4.2,
//! ARB_framebuffer_no_attachments) through the Rust `Context`: the FRAMEBUFFER_DEFAULT_*
//! parameters and their errors, completeness, the GL_MAX_FRAMEBUFFER_* limits, and draws
//! into such a framebuffer: fragments run (an occlusion query counts them, clipped to the
//! default size, the scissor and the viewport; a shader's storage writes land), and GL_SAMPLES
//! is the default sample count rounded up. Draws run at 1 and 2 threads, which must agree.

mod common;

use softgl::{enums as gl, Context};

const VS: &str = "#version 330
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
}";

/// Discards even columns when `odd` is set.
const FS: &str = "#version 330
uniform int odd;
out vec4 c;
void main() {
    if (odd != 0 && int(gl_FragCoord.x) % 2 == 0) discard;
    c = vec4(1.0);
}";

/// A framebuffer object with no attachment, bound to GL_FRAMEBUFFER.
fn empty_fbo(c: &mut Context) -> u32 {
    let fb = c.gen_framebuffers(1)[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, fb);
    fb
}

#[test]
fn parameters_errors_and_completeness() {
    let mut c = common::context(8, 8, 1);
    // The default framebuffer has no FRAMEBUFFER_DEFAULT_* parameters.
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_WIDTH, 4);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    c.get_framebuffer_parameteriv(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_WIDTH);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // ...but table 23.74's values.
    assert_eq!(
        c.get_framebuffer_parameteriv(gl::FRAMEBUFFER, gl::DOUBLEBUFFER),
        0
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);

    let fb = empty_fbo(&mut c);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
    );
    for pname in [
        gl::FRAMEBUFFER_DEFAULT_WIDTH,
        gl::FRAMEBUFFER_DEFAULT_HEIGHT,
        gl::FRAMEBUFFER_DEFAULT_LAYERS,
        gl::FRAMEBUFFER_DEFAULT_SAMPLES,
        gl::FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS,
    ] {
        assert_eq!(c.get_framebuffer_parameteriv(gl::FRAMEBUFFER, pname), 0);
    }
    let limits = [
        (
            gl::FRAMEBUFFER_DEFAULT_WIDTH,
            gl::MAX_FRAMEBUFFER_WIDTH,
            16384,
        ),
        (
            gl::FRAMEBUFFER_DEFAULT_HEIGHT,
            gl::MAX_FRAMEBUFFER_HEIGHT,
            16384,
        ),
        (
            gl::FRAMEBUFFER_DEFAULT_LAYERS,
            gl::MAX_FRAMEBUFFER_LAYERS,
            2048,
        ),
        (
            gl::FRAMEBUFFER_DEFAULT_SAMPLES,
            gl::MAX_FRAMEBUFFER_SAMPLES,
            4,
        ),
    ];
    for (pname, max_pname, minimum) in limits {
        let max = c.get_integerv(max_pname)[0];
        assert!(max >= minimum, "{max_pname:#x}: {max}");
        for bad in [-1, max + 1] {
            c.framebuffer_parameteri(gl::DRAW_FRAMEBUFFER, pname, bad);
            assert_eq!(c.get_error(), gl::INVALID_VALUE, "{pname:#x} = {bad}");
        }
        c.framebuffer_parameteri(gl::READ_FRAMEBUFFER, pname, max);
        assert_eq!(c.get_named_framebuffer_parameteriv(fb, pname), max);
    }
    c.named_framebuffer_parameteri(fb, gl::FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS, 1);
    assert_eq!(
        c.get_framebuffer_parameteriv(
            gl::FRAMEBUFFER,
            gl::FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS
        ),
        1
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    // Bad enums and names.
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::TEXTURE_2D, 1);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.framebuffer_parameteri(gl::TEXTURE_2D, gl::FRAMEBUFFER_DEFAULT_WIDTH, 1);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.get_framebuffer_parameteriv(gl::FRAMEBUFFER, gl::TEXTURE_2D);
    assert_eq!(c.get_error(), gl::INVALID_ENUM);
    c.named_framebuffer_parameteri(666, gl::FRAMEBUFFER_DEFAULT_WIDTH, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    // A zero width makes it incomplete again.
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_WIDTH, 0);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
    );
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::INVALID_FRAMEBUFFER_OPERATION);
}

/// Samples-passed counts of draws into a `w`×`h` framebuffer without attachments: the whole
/// framebuffer, a 1×1 scissor, a 2×2 viewport, every other column discarded, and after the
/// default size shrinks to half without a rebind.
fn counts(threads: usize) -> [u64; 5] {
    let (w, h) = (10, 6);
    let mut c = common::context(4, 4, threads);
    empty_fbo(&mut c);
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_WIDTH, w);
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_HEIGHT, h);
    assert_eq!(
        c.check_framebuffer_status(gl::FRAMEBUFFER),
        gl::FRAMEBUFFER_COMPLETE
    );
    let p = common::program(&mut c, VS, FS);
    c.use_program(p);
    let odd = c.get_uniform_location(p, "odd");
    let q = c.gen_queries(1)[0];
    let count = |c: &mut Context| {
        c.begin_query(gl::SAMPLES_PASSED, q);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
        c.end_query(gl::SAMPLES_PASSED);
        c.get_query_object(q, gl::QUERY_RESULT).expect("a result")
    };
    c.viewport(0, 0, w, h);
    let all = count(&mut c);
    c.enable(gl::SCISSOR_TEST);
    c.scissor(0, 0, 1, 1);
    let scissored = count(&mut c);
    c.disable(gl::SCISSOR_TEST);
    c.viewport(0, 0, 2, 2);
    let small = count(&mut c);
    c.viewport(0, 0, w, h);
    c.uniform_1i(odd, 1);
    let half = count(&mut c);
    c.uniform_1i(odd, 0);
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_WIDTH, w / 2);
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_HEIGHT, h / 2);
    let resized = count(&mut c);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    [all, scissored, small, half, resized]
}

#[test]
fn fragments_run_and_are_counted() {
    let got = counts(1);
    assert_eq!(got, counts(2), "1 and 2 threads differ");
    assert_eq!(got, [60, 1, 4, 30, 15]);
}

#[test]
fn storage_writes_happen_and_samples_round_up() {
    let mut c = common::context(4, 4, 1);
    empty_fbo(&mut c);
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_WIDTH, 3);
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_HEIGHT, 2);
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_SAMPLES, 3);
    assert_eq!(c.get_integerv(gl::SAMPLES)[0], 4);
    assert_eq!(c.get_integerv(gl::SAMPLE_BUFFERS)[0], 1);
    assert_eq!(
        c.get_framebuffer_parameteriv(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_SAMPLES),
        3
    );
    c.framebuffer_parameteri(gl::FRAMEBUFFER, gl::FRAMEBUFFER_DEFAULT_SAMPLES, 0);
    assert_eq!(c.get_integerv(gl::SAMPLES)[0], 0);
    // Each fragment writes its pixel's slot of a storage buffer.
    let fs = "#version 430
layout(std430, binding = 0) buffer B { uint hit[6]; };
void main() { hit[int(gl_FragCoord.y) * 3 + int(gl_FragCoord.x)] = 7u; }";
    let p = common::program(&mut c, VS, fs);
    c.use_program(p);
    let buf = c.gen_buffers(1)[0];
    c.bind_buffer(gl::SHADER_STORAGE_BUFFER, buf);
    c.buffer_data(
        gl::SHADER_STORAGE_BUFFER,
        24,
        Some(&[0; 24]),
        gl::DYNAMIC_COPY,
    );
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, buf);
    c.viewport(0, 0, 3, 2);
    c.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let got = c.get_buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 0, 24);
    assert_eq!(got, 7u32.to_le_bytes().repeat(6));
}
