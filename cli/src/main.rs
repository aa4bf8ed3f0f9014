//! The softgl CLI: `softgl run FILE.shader_test` renders one scene and prints PASS, FAIL or
//! SKIP; `softgl info` prints the GL strings; with no arguments it renders the built-in demo
//! scene (`softgl_cli::demo`) to `softgl-demo.png` and prints the median time per frame.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use softgl::{enums, Context};
use softgl_cli::shader_test::png_out;
use softgl_cli::shader_test::run::{self, Outcome, RunOptions};

#[derive(Parser)]
#[command(
    name = "softgl",
    version,
    about = "A software OpenGL 4.5 driver with ARB_bindless_texture"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a .shader_test scene; prints PASS, FAIL: … or SKIP: … and exits 0, 1 or 77.
    Run {
        file: PathBuf,
        /// Write the final framebuffer to this PNG.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Window size, WxH (default 250x250, piglit's).
        #[arg(long, value_parser = parse_size)]
        size: Option<(u32, u32)>,
        /// Rasterizer threads (default: SOFTGL_THREADS or the number of cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Print GL_VENDOR, GL_RENDERER, GL_VERSION, GL_SHADING_LANGUAGE_VERSION and the
    /// extensions.
    Info {
        /// Instead, list the GL 1.0–4.6 commands softgl does not implement yet (their entry
        /// points record GL_INVALID_OPERATION and say so).
        #[arg(long)]
        missing: bool,
    },
    /// Render the demo scene (what running with no arguments does).
    Demo {
        /// Output PNG.
        #[arg(short, long, default_value = "softgl-demo.png")]
        output: PathBuf,
        #[arg(long, value_parser = parse_size, default_value = "1024x768")]
        size: (u32, u32),
        #[arg(long)]
        threads: Option<usize>,
        /// Frames to render; the median time is reported.
        #[arg(long, default_value_t = 5)]
        frames: usize,
    },
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{s}` is not WxH"))?;
    let dim = |d: &str| -> Result<u32, String> {
        match d.trim().parse::<u32>() {
            Ok(v @ 1..=16384) => Ok(v),
            _ => Err(format!("`{d}` is not a size in 1..=16384")),
        }
    };
    Ok((dim(w)?, dim(h)?))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Cmd::Run {
            file,
            output,
            size,
            threads,
        }) => run_scene(file, output, size, threads),
        Some(Cmd::Info { missing: false }) => info(),
        Some(Cmd::Info { missing: true }) => missing(),
        Some(Cmd::Demo {
            output,
            size,
            threads,
            frames,
        }) => demo(output, size, threads, frames),
        None => demo(PathBuf::from("softgl-demo.png"), (1024, 768), None, 5),
    }
}

fn run_scene(
    file: PathBuf,
    output: Option<PathBuf>,
    size: Option<(u32, u32)>,
    threads: Option<usize>,
) -> ExitCode {
    let (width, height) = size.unwrap_or((run::DEFAULT_WIDTH, run::DEFAULT_HEIGHT));
    let result = run::run_file(
        &file,
        &RunOptions {
            width,
            height,
            threads,
        },
    );
    let mut outcome = result.outcome;
    if let (Some(path), false) = (&output, result.pixels.is_empty()) {
        if let Err(e) =
            png_out::write_rgba8_bottom_up(path, result.width, result.height, &result.pixels)
        {
            // The image is part of what was asked: not writing it fails the run.
            if !matches!(outcome, Outcome::Fail(_)) {
                outcome = Outcome::Fail(format!("cannot write {}: {e}", path.display()));
            }
        }
    }
    println!("{outcome}");
    ExitCode::from(outcome.exit_code() as u8)
}

fn info() -> ExitCode {
    let mut ctx = Context::new(1, 1);
    for (name, e) in [
        ("GL_VENDOR", enums::VENDOR),
        ("GL_RENDERER", enums::RENDERER),
        ("GL_VERSION", enums::VERSION),
        (
            "GL_SHADING_LANGUAGE_VERSION",
            enums::SHADING_LANGUAGE_VERSION,
        ),
    ] {
        println!(
            "{name}: {}",
            ctx.get_string(e).unwrap_or_else(|| "(none)".into())
        );
    }
    let n = ctx
        .get_integerv(enums::NUM_EXTENSIONS)
        .first()
        .copied()
        .unwrap_or(0);
    println!("GL_EXTENSIONS ({n}):");
    for i in 0..n.max(0) as u32 {
        if let Some(ext) = ctx.get_stringi(enums::EXTENSIONS, i) {
            println!("    {ext}");
        }
    }
    ExitCode::SUCCESS
}

fn missing() -> ExitCode {
    let missing = softgl::missing_entry_points();
    let core: Vec<&str> = missing.iter().filter(|m| m.1).map(|m| m.0).collect();
    let compat: Vec<&str> = missing.iter().filter(|m| !m.1).map(|m| m.0).collect();
    let total = softgl::core_command_count();
    println!(
        "GL 4.6 core: {} of {total} commands implemented; not yet ({}):",
        total - core.len(),
        core.len()
    );
    for n in &core {
        println!("    {n}");
    }
    println!(
        "Compatibility profile only (softgl has no compatibility profile), not implemented ({}):",
        compat.len()
    );
    for n in &compat {
        println!("    {n}");
    }
    ExitCode::SUCCESS
}

fn demo(output: PathBuf, size: (u32, u32), threads: Option<usize>, frames: usize) -> ExitCode {
    let opts = softgl_cli::demo::DemoOptions {
        width: size.0,
        height: size.1,
        threads,
        frames,
    };
    match softgl_cli::demo::render(&opts) {
        Ok(report) => {
            if let Err(e) = png_out::write_rgba8_bottom_up(&output, size.0, size.1, &report.pixels)
            {
                eprintln!("softgl: cannot write {}: {e}", output.display());
                return ExitCode::FAILURE;
            }
            println!(
                "demo: {} quads, {} bindless textures, {}x{}: median {:.2} ms/frame over {} frames \
                 (first frame, with shader compilation: {:.2} ms); wrote {}",
                report.quads,
                report.textures,
                size.0,
                size.1,
                report.median_frame.as_secs_f64() * 1e3,
                report.frame_times.len(),
                report.first_frame.as_secs_f64() * 1e3,
                output.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("softgl: demo failed: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("250x250"), Ok((250, 250)));
        assert_eq!(parse_size("1920X1080"), Ok((1920, 1080)));
        assert!(parse_size("0x10").is_err());
        assert!(parse_size("10").is_err());
        assert!(parse_size("axb").is_err());
    }
}
