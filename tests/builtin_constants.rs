//! The GLSL built-in constants (GLSL 4.60 §7.3) equal the GL limits they name (GL 4.5 core
//! §7.3): every constant softgl declares is compiled into a shader that only compiles when
//! the constant has the value glGetIntegerv (glGetIntegeri_v for the compute group
//! limits) answers, in the first `#version` that has it; one version earlier it is
//! undeclared.

use softgl::glsl::builtin_constants::{ConstValue, CONSTANTS};
use softgl::{enums as gl, Context};

fn compiles(c: &mut Context, src: &str) -> Result<(), String> {
    let s = c.create_shader(gl::VERTEX_SHADER);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    let ok = c.get_shaderiv(s, gl::COMPILE_STATUS) == 1;
    let log = c.get_shader_info_log(s);
    c.delete_shader(s);
    if ok {
        Ok(())
    } else {
        Err(log)
    }
}

#[test]
fn every_builtin_constant_equals_its_gl_limit() {
    let mut c = Context::new(4, 4);
    assert!(CONSTANTS.len() >= 30, "the table lost entries");
    for k in CONSTANTS {
        let pname = k.gl_limit.expect("each constant names its GL limit");
        let want = match k.value {
            ConstValue::Int(_) => {
                let v = c.get_integerv(pname);
                assert_eq!(c.get_error(), gl::NO_ERROR, "glGetIntegerv for {}", k.name);
                format!("{}", v[0])
            }
            ConstValue::Ivec3(_) => {
                let v: Vec<i32> = (0..3).map(|i| c.get_integeri_v(pname, i)[0]).collect();
                assert_eq!(
                    c.get_error(),
                    gl::NO_ERROR,
                    "glGetIntegeri_v for {}",
                    k.name
                );
                format!("ivec3({}, {}, {})", v[0], v[1], v[2])
            }
        };
        let version = k.since.max(110);
        let body = format!(
            "void main() {{ int check[{} == {want} ? 1 : -1]; check[0] = 1; gl_Position = vec4(float(check[0])); }}\n",
            k.name
        );
        let src = format!("#version {version}\n{body}");
        compiles(&mut c, &src)
            .unwrap_or_else(|log| panic!("{} is not {want}:\n{log}\n{src}", k.name));
        // One version earlier the name is not declared (gl_ names cannot be user names,
        // so the use fails).
        let earlier = match version {
            110 => continue,
            130 => 120,
            150 => 140,
            400 => 330,
            410 => 400,
            420 => 410,
            430 => 420,
            440 => 430,
            450 => 440,
            v => panic!("{}: no earlier version listed for {v}", k.name),
        };
        let src = format!("#version {earlier}\n{body}");
        assert!(
            compiles(&mut c, &src).is_err(),
            "{} compiled at #version {earlier}",
            k.name
        );
    }
}

#[test]
fn builtin_constants_are_usable_as_values_and_sizes() {
    let mut c = Context::new(4, 4);
    compiles(
        &mut c,
        "#version 150\nout float o[gl_MaxDrawBuffers];\n\
         void main() { for (int i = 0; i < gl_MaxDrawBuffers; i++) o[i] = float(gl_MaxTextureImageUnits);\n\
         gl_Position = vec4(float(gl_MaxVertexAttribs)); }\n",
    )
    .unwrap();
    // They are constants: assigning one is an error.
    assert!(compiles(
        &mut c,
        "#version 150\nvoid main() { gl_MaxDrawBuffers = 2; gl_Position = vec4(0.0); }\n"
    )
    .is_err());
}
