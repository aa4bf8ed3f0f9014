//! GLSL front end + link bench: compile and link a ~100-line fragment shader (functions,
//! loops, a switch, structs, uniforms, texture calls) with a pass-through vertex shader,
//! through the GL API as an application would.

use criterion::{criterion_group, criterion_main, Criterion};
use softgl::{enums, Context};

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\nout vec2 uv;\n\
                  void main() { gl_Position = vec4(pos, 0.0, 1.0); uv = pos * 0.5 + 0.5; }\n";

/// About 100 lines: a header, 8 generated helper functions and a main that calls them.
/// `salt` makes each iteration's shader distinct, so the JIT's shader cache cannot answer and
/// every iteration pays for code generation, as a new program in an application would.
fn fragment_shader(salt: u64) -> String {
    let mut s = String::from(
        "#version 330\n\
         uniform sampler2D tex;\n\
         uniform vec4 tint;\n\
         uniform mat3 xform;\n\
         uniform int mode;\n\
         in vec2 uv;\n\
         out vec4 color;\n\
         struct Light {\n\tvec3 dir;\n\tvec3 color;\n\tfloat power;\n};\n\
         const Light lights[2] = Light[2](Light(vec3(0.0, 0.0, 1.0), vec3(1.0), 1.0),\n\
         \tLight(vec3(0.6, 0.0, 0.8), vec3(1.0, 0.5, 0.2), 0.5));\n",
    );
    for i in 0..8 {
        s.push_str(&format!(
            "vec3 shade{i}(vec3 n, vec2 p)\n{{\n\
             \tvec3 acc = vec3(0.0);\n\
             \tfor (int k = 0; k < 2; k++) {{\n\
             \t\tfloat d = max(dot(n, lights[k].dir), 0.0);\n\
             \t\tif (d < 0.{i}1)\n\t\t\tcontinue;\n\
             \t\tacc += lights[k].color * d * lights[k].power;\n\
             \t}}\n\
             \treturn acc * (texture(tex, p * {}.0).rgb + vec3(0.0{i}));\n}}\n",
            i + 1
        ));
    }
    s.push_str(
        "void main()\n{\n\
         \tvec3 p = xform * vec3(uv, 1.0);\n\
         \tvec3 n = normalize(vec3(p.xy - 0.5, 1.0));\n\
         \tvec3 c;\n\
         \tswitch (mode) {\n\
         \tcase 0: c = shade0(n, p.xy) + shade1(n, p.xy); break;\n\
         \tcase 1: c = shade2(n, p.xy) + shade3(n, p.xy); break;\n\
         \tcase 2: c = shade4(n, p.xy) + shade5(n, p.xy); break;\n\
         \tdefault: c = shade6(n, p.xy) + shade7(n, p.xy); break;\n\
         \t}\n\
         \tif (c.r > 1.0)\n\t\tc /= c.r;\n\
         \tcolor = vec4(c, 1.0) * tint;\n",
    );
    s.push_str(&format!("\tcolor.a += {salt}.0 * 1e-30;\n}}\n"));
    s
}

fn compile_and_link(c: &mut Criterion) {
    let lines = fragment_shader(0).lines().count();
    assert!(
        (90..=130).contains(&lines),
        "the fragment shader has {lines} lines"
    );
    let mut ctx = Context::new(16, 16);
    let mut salt = 0u64;
    c.bench_function("glsl_compile_link_100_line_fs", |b| {
        b.iter(|| {
            salt += 1;
            let fs = fragment_shader(salt);
            let p = ctx.create_program();
            let mut shaders = Vec::new();
            for (ty, src) in [
                (enums::VERTEX_SHADER, VS),
                (enums::FRAGMENT_SHADER, fs.as_str()),
            ] {
                let s = ctx.create_shader(ty);
                ctx.shader_source(s, &[src]);
                ctx.compile_shader(s);
                assert_ne!(
                    ctx.get_shaderiv(s, enums::COMPILE_STATUS),
                    0,
                    "{}",
                    ctx.get_shader_info_log(s)
                );
                ctx.attach_shader(p, s);
                shaders.push(s);
            }
            ctx.link_program(p);
            assert_ne!(
                ctx.get_programiv(p, enums::LINK_STATUS),
                0,
                "{}",
                ctx.get_program_info_log(p)
            );
            for s in shaders {
                ctx.delete_shader(s);
            }
            ctx.delete_program(p);
        })
    });
}

criterion_group!(benches, compile_and_link);
criterion_main!(benches);
