//! Long fuzz runs (issue #11 item 6): `cargo run --release --example fuzz -- TARGET
//! [--seed S] [--cases N] [--progress FILE] [--print]`, TARGET `glsl` or `api`. Runs cases
//! S, S+1, … and stops at the first failure with its seed and input. For looking at the
//! GLSL target: `--print` prints the input of seed S, `--why` the first compile error of
//! each of N inputs, `--corpus` how many corpus shaders compile unmutated. With `--progress`, each case's
//! seed is written to FILE before it runs, so `tools/fuzz.sh` can name the case that
//! crashed or hung the process.

mod harness;

use std::io::Write;
use std::path::Path;

/// Commands per API case.
const API_STEPS: usize = 150;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let target = args.first().cloned().unwrap_or_default();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let seed: u64 = value("--seed").map_or(0, |s| s.parse().expect("--seed N"));
    let cases: u64 = value("--cases").map_or(1, |s| s.parse().expect("--cases N"));
    let progress = value("--progress");
    let corpus = harness::corpus(Path::new(env!("CARGO_MANIFEST_DIR")));
    if args.iter().any(|a| a == "--corpus") {
        let ok = corpus
            .iter()
            .filter(|s| softgl::glsl::compile(s.stage, &s.source).compiled)
            .count();
        println!("corpus: {} shaders, {ok} compile unmutated", corpus.len());
        return;
    }
    if args.iter().any(|a| a == "--why") {
        for s in seed..seed.saturating_add(cases) {
            let input = harness::glsl_input(s, &corpus);
            let out = softgl::glsl::compile(input.stage, &input.source);
            let first = out
                .info_log
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("");
            println!("{s}: {}", if out.compiled { "compiled" } else { first });
        }
        return;
    }
    if args.iter().any(|a| a == "--print") {
        print!("{}", harness::glsl_input(seed, &corpus).source);
        return;
    }
    if target != "glsl" && target != "api" {
        eprintln!("usage: fuzz glsl|api [--seed S] [--cases N] [--progress FILE] [--print|--why|--corpus]");
        std::process::exit(2);
    }
    let mut reached = [0u64; 3];
    for s in seed..seed.saturating_add(cases) {
        if let Some(p) = &progress {
            let mut f = std::fs::File::create(p).expect("progress file");
            writeln!(f, "{target} {s}").expect("progress write");
        }
        let result = if target == "glsl" {
            let input = harness::glsl_input(s, &corpus);
            harness::glsl_case(&input)
                .map(|r| reached[r as usize] += 1)
                .map_err(|e| format!("{e}\n--- input ---\n{}", input.source))
        } else {
            harness::api_case(s, API_STEPS).map(|n| reached[0] += n as u64)
        };
        if let Err(e) = result {
            println!("FAIL {target} seed {s}: {e}");
            std::process::exit(1);
        }
    }
    println!("ok: {target} seeds {seed}..{}", seed.saturating_add(cases));
    if target == "glsl" {
        let [compile, link, drawn] = reached;
        println!("  compile errors {compile}, link errors {link}, drawn {drawn}");
    } else {
        let steps = cases * API_STEPS as u64;
        println!("  {} of {steps} commands raised no error", reached[0]);
    }
}
