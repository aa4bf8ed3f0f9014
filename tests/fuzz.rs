//! The fuzz targets of `examples/fuzz/harness.rs`, a bounded number of cases each, in
//! `cargo test` (issue #11 item 6). Long runs: `tools/fuzz.sh`. The seeds are fixed, so a
//! failure here is reproduced by `cargo run --release --example fuzz -- TARGET --seed S`.

#[path = "../examples/fuzz/harness.rs"]
#[allow(dead_code)]
mod harness;

use std::path::Path;

/// GLSL cases: about a second in a debug build.
const CASES: u64 = 1000;

#[test]
fn mutated_shaders_compile_link_and_draw_without_panics() {
    let corpus = harness::corpus(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        corpus.len() > 100,
        "the corpus has {} shaders",
        corpus.len()
    );
    let mut failures = Vec::new();
    let mut drawn = 0;
    for seed in 0..CASES {
        let input = harness::glsl_input(seed, &corpus);
        match harness::glsl_case(&input) {
            Ok(harness::Reached::Drawn) => drawn += 1,
            Ok(_) => {}
            Err(e) => failures.push(format!("seed {seed}: {e}\n{}", input.source)),
        }
    }
    // The harness's panic hook (which counts panics inside softgl) also swallows this
    // test's own assertion message: print the failures first.
    for f in &failures {
        eprintln!("{f}\n");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The mutations leave enough shaders intact to reach the JIT and a draw.
    assert!(drawn >= CASES / 20, "only {drawn} of {CASES} cases drew");
}

#[test]
fn random_command_sequences_run_without_panics() {
    let (mut failures, mut accepted) = (Vec::new(), 0);
    let cases = 60;
    for seed in 0..cases {
        match harness::api_case(seed, 150) {
            Ok(n) => accepted += n,
            Err(e) => failures.push(format!("seed {seed}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Not every command is refused: the sequences reach the work behind the checks.
    assert!(
        accepted > cases as usize * 150 / 5,
        "{accepted} commands accepted"
    );
}

/// Cases are functions of their seed: the same seed gives the same input.
#[test]
fn cases_replay_from_their_seed() {
    let corpus = harness::corpus(Path::new(env!("CARGO_MANIFEST_DIR")));
    for seed in [0, 1, 77, u64::MAX] {
        assert_eq!(
            harness::glsl_input(seed, &corpus).source,
            harness::glsl_input(seed, &corpus).source
        );
    }
    assert_ne!(
        harness::glsl_input(1, &corpus).source,
        harness::glsl_input(2, &corpus).source
    );
}

/// Found by `tools/fuzz.sh glsl` (seed 708, 2026-11-25): a uniform block with
/// `layout(binding = 4294967295u)` compiled, and the first draw indexed the binding table
/// with it and panicked. Now a compile error names GL_MAX_UNIFORM_BUFFER_BINDINGS.
#[test]
fn regression_block_binding_past_the_limit_panicked_at_draw() {
    let vs = "#version 420 core\n\
              layout(std140, binding = 4294967295u) uniform T { mat4 mvp; } xf;\n\
              in vec4 pos;\nvoid main() { gl_Position = xf.mvp * pos; }\n";
    let input = harness::Seed {
        stage: softgl::ir::Stage::Vertex,
        source: vs.to_string(),
        compiles: false,
    };
    assert_eq!(
        harness::glsl_case(&input),
        Ok(harness::Reached::CompileError)
    );
}

/// `layout(location = 4294967295u)` on a vertex input: the link added the attribute's
/// location count to it in u32 (an overflow panic in debug builds; in release the wrapped
/// end passed the limit check). Found by the mutated-shader target (seed 800) once uniform
/// locations landed. Now the link fails naming the location.
#[test]
fn regression_attribute_location_near_u32_max_overflowed_at_link() {
    let vs = "#version 150\n\
              #extension GL_ARB_explicit_attrib_location : require\n\
              layout(location = 4294967295u) in vec4 p;\n\
              void main() { gl_Position = p; }\n";
    let input = harness::Seed {
        stage: softgl::ir::Stage::Vertex,
        source: vs.to_string(),
        compiles: true,
    };
    assert_eq!(harness::glsl_case(&input), Ok(harness::Reached::LinkError));
}

/// A fragment shader writing only locations 1 and 2 (draw buffer 0 alone is set) and no
/// depth buffer: the draw had no image at all, whose block rectangle is all of i32, and the
/// block-pointer setup subtracted i32::MIN from a pixel coordinate (an overflow panic in
/// debug builds; the wrapped value went unused in release). Found by the mutated-shader
/// target once the corpus grew by a geometry scene.
#[test]
fn regression_draw_with_no_image_overflowed_the_block_rect() {
    let fs = "#version 330 core\n\
              layout(location = 2) out vec4 color;\n\
              layout(location = 1) out vec2 extra;\n\
              layout(early_fragment_tests) in;\n\
              void main() {\n\
                  color = gl_FragCoord;\n\
                  extra = gl_FrontFacing ? vec2(1.0) : vec2(0.0);\n\
                  gl_FragDepth = 0.5;\n\
              }\n";
    let input = harness::Seed {
        stage: softgl::ir::Stage::Fragment,
        source: fs.to_string(),
        compiles: true,
    };
    assert_eq!(harness::glsl_case(&input), Ok(harness::Reached::Drawn));
}
