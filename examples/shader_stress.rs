//! Hostile-size shaders through the GL API (issue #11 item 2): generates one case, compiles
//! and links it as an application would, and prints the outcome and the time taken.
//! `tools/shader-stress.sh` runs every case at full size under `/usr/bin/time -v` (peak
//! memory); `cargo test --example shader_stress` runs the same cases at small sizes.
//!
//! Usage: `shader_stress CASE SIZE` with CASE one of `switch` (SIZE cases), `uniforms`
//! (SIZE float uniforms, all read), `oneline` (SIZE bytes of statements on one line, all on
//! constants: the front end folds them), `oneline_uniform` (the same statements on a uniform,
//! which nothing folds),
//! `parens` (SIZE nested parentheses), `blocks` (SIZE nested blocks).

use std::time::Instant;

use softgl::{enums, Context};

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";

/// The fragment shader of a case.
fn source(case: &str, size: usize) -> Option<String> {
    let mut s = String::from("#version 330\nuniform int sel;\nout vec4 o;\n");
    match case {
        "switch" => {
            s.push_str("void main() {\n\tfloat x = 0.0;\n\tswitch (sel) {\n");
            for i in 0..size {
                s.push_str(&format!("\tcase {i}: x = {i}.5; break;\n"));
            }
            s.push_str("\tdefault: x = -1.0; break;\n\t}\n\to = vec4(x);\n}\n");
        }
        "uniforms" => {
            for i in 0..size {
                s.push_str(&format!("uniform float u{i};\n"));
            }
            s.push_str("void main() {\n\tfloat x = 0.0;\n");
            for i in 0..size {
                s.push_str(&format!("\tx += u{i};\n"));
            }
            s.push_str("\to = vec4(x);\n}\n");
        }
        "oneline" | "oneline_uniform" => {
            let (head, stmt) = if case == "oneline" {
                ("void main() { float x = 0.0;", " x = x * 0.5 + 1.0;")
            } else {
                (
                    "uniform float u;\nvoid main() { float x = 0.0;",
                    " x = x * u + 1.0;",
                )
            };
            s.push_str(head);
            while s.len() + stmt.len() + 16 < size {
                s.push_str(stmt);
            }
            s.push_str(" o = vec4(x); }\n");
        }
        "parens" => {
            s.push_str(&format!(
                "void main() {{ float x = 1.0; o = vec4({}x{}); }}\n",
                "(".repeat(size),
                ")".repeat(size)
            ));
        }
        "blocks" => {
            s.push_str(&format!(
                "void main() {{ float x = 1.0; {} x += 1.0; {} o = vec4(x); }}\n",
                "{".repeat(size),
                "}".repeat(size)
            ));
        }
        _ => return None,
    }
    Some(s)
}

/// What happened to one case.
#[derive(Debug)]
struct Outcome {
    compiled: bool,
    linked: bool,
    /// The first line of the compile or link log, when there is one.
    log: String,
    seconds: f64,
}

fn run(case: &str, size: usize) -> Option<Outcome> {
    let fs = source(case, size)?;
    let mut ctx = Context::new(4, 4);
    let start = Instant::now();
    let p = ctx.create_program();
    let mut compiled = true;
    let mut log = String::new();
    for (ty, src) in [
        (enums::VERTEX_SHADER, VS),
        (enums::FRAGMENT_SHADER, fs.as_str()),
    ] {
        let sh = ctx.create_shader(ty);
        ctx.shader_source(sh, &[src]);
        ctx.compile_shader(sh);
        if ctx.get_shaderiv(sh, enums::COMPILE_STATUS) == 0 {
            compiled = false;
            log = ctx.get_shader_info_log(sh);
        }
        ctx.attach_shader(p, sh);
    }
    let mut linked = false;
    if compiled {
        ctx.link_program(p);
        linked = ctx.get_programiv(p, enums::LINK_STATUS) != 0;
        if !linked {
            log = ctx.get_program_info_log(p);
        }
    }
    Some(Outcome {
        compiled,
        linked,
        log: log.lines().next().unwrap_or("").to_string(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(case), Some(Ok(size))) = (args.get(1), args.get(2).map(|s| s.parse::<usize>()))
    else {
        eprintln!(
            "usage: shader_stress switch|uniforms|oneline|oneline_uniform|parens|blocks SIZE"
        );
        std::process::exit(2);
    };
    let Some(o) = run(case, size) else {
        eprintln!("unknown case {case}");
        std::process::exit(2);
    };
    // Without /usr/bin/time, the script asks for the peak RSS here (Linux's VmHWM, what
    // getrusage's ru_maxrss reports, read without a libc binding).
    let peak = if std::env::var_os("SHADER_STRESS_RUSAGE").is_some() {
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmHWM:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            })
            .map_or(String::new(), |kib| {
                format!(", peak RSS {} MiB", kib / 1024)
            })
    } else {
        String::new()
    };
    println!(
        "{case} {size}: {:.3} s, compiled {}, linked {}{}{peak}",
        o.seconds,
        o.compiled,
        o.linked,
        if o.log.is_empty() {
            String::new()
        } else {
            format!(", log: {}", o.log)
        }
    );
}

#[cfg(test)]
mod tests {
    use super::run;

    #[test]
    fn small_cases_compile_and_link() {
        for (case, size) in [
            ("switch", 100),
            ("oneline", 20_000),
            ("oneline_uniform", 20_000),
            ("uniforms", 100),
        ] {
            let o = run(case, size).unwrap();
            assert!(o.compiled && o.linked, "{case} {size}: {o:?}");
        }
    }
}
