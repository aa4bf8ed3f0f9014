//! The softgl CLI: `softgl run FILE.shader_test`, `softgl info`, and with no arguments the
//! built-in demo scene.

fn main() {
    eprintln!("softgl: not built yet");
    std::process::exit(1);
}
