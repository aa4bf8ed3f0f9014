//! Program interface queries (GL 4.5 core §7.3.1, ARB_program_interface_query) through the
//! Rust `Context`: resource counts, names, indices, properties and locations of uniforms,
//! uniform blocks, vertex inputs and fragment outputs agree with the older GetActive*
//! queries, and every error case of §7.3.1.1 raises the error the spec names.

use softgl::{enums as gl, Context};

const VS: &str = "#version 330
layout(location = 3) in vec4 pos;
in vec2 uv[2];
uniform mat4 mvp;
uniform float weights[4];
layout(std140) uniform Light { vec4 colour; float power; } light;
out vec2 v_uv;
void main() { v_uv = uv[0] + uv[1] * weights[2]; gl_Position = mvp * pos * light.power; }";

const FS: &str = "#version 330
in vec2 v_uv;
uniform sampler2D tex;
layout(std140) uniform Light { vec4 colour; float power; } light;
layout(location = 1) out vec4 colour;
layout(location = 2) out uvec2 ids;
void main() { colour = texture(tex, v_uv) * light.colour; ids = uvec2(1u, 2u); }";

fn shader(c: &mut Context, kind: u32, src: &str) -> u32 {
    let s = c.create_shader(kind);
    c.shader_source(s, &[src]);
    c.compile_shader(s);
    assert_eq!(
        c.get_shaderiv(s, gl::COMPILE_STATUS),
        1,
        "{}",
        c.get_shader_info_log(s)
    );
    s
}

fn linked(c: &mut Context) -> u32 {
    let v = shader(c, gl::VERTEX_SHADER, VS);
    let f = shader(c, gl::FRAGMENT_SHADER, FS);
    let p = c.create_program();
    c.attach_shader(p, v);
    c.attach_shader(p, f);
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    p
}

fn one(c: &mut Context, p: u32, iface: u32, index: u32, prop: u32) -> i32 {
    let v = c.get_program_resourceiv(p, iface, index, &[prop]);
    assert_eq!(v.len(), 1, "prop {prop:#x} of resource {index}");
    v[0]
}

#[test]
fn uniforms_match_the_get_active_queries() {
    let mut c = Context::new(4, 4);
    let p = linked(&mut c);
    let n = c.get_program_interfaceiv(p, gl::UNIFORM, gl::ACTIVE_RESOURCES)[0];
    assert_eq!(n, c.get_programiv(p, gl::ACTIVE_UNIFORMS));
    assert_eq!(
        c.get_program_interfaceiv(p, gl::UNIFORM, gl::MAX_NAME_LENGTH)[0],
        c.get_programiv(p, gl::ACTIVE_UNIFORM_MAX_LENGTH)
    );
    for i in 0..n as u32 {
        let (size, ty, name) = c.get_active_uniform(p, i);
        assert_eq!(c.get_program_resource_name(p, gl::UNIFORM, i), name);
        assert_eq!(c.get_program_resource_index(p, gl::UNIFORM, &name), i);
        let v = c.get_program_resourceiv(
            p,
            gl::UNIFORM,
            i,
            &[gl::TYPE, gl::ARRAY_SIZE, gl::NAME_LENGTH, gl::BLOCK_INDEX],
        );
        assert_eq!(v[..3], [ty as i32, size, name.len() as i32 + 1], "{name}");
        let loc = one(&mut c, p, gl::UNIFORM, i, gl::LOCATION);
        if v[3] < 0 {
            assert_eq!(loc, c.get_uniform_location(p, &name), "{name}");
            assert!(loc >= 0);
        } else {
            assert_eq!(loc, -1, "block members have no location");
        }
    }
    // An array of basic types answers to `a` and `a[0]`, and its elements have locations.
    let w = c.get_program_resource_index(p, gl::UNIFORM, "weights");
    assert_eq!(
        w,
        c.get_program_resource_index(p, gl::UNIFORM, "weights[0]")
    );
    assert_ne!(w, gl::INVALID_INDEX);
    assert_eq!(one(&mut c, p, gl::UNIFORM, w, gl::ARRAY_SIZE), 4);
    let l0 = c.get_program_resource_location(p, gl::UNIFORM, "weights");
    assert_eq!(
        c.get_program_resource_location(p, gl::UNIFORM, "weights[3]"),
        l0 + 3
    );
    assert_eq!(
        c.get_program_resource_location(p, gl::UNIFORM, "weights[4]"),
        -1
    );
    assert_eq!(
        c.get_program_resource_index(p, gl::UNIFORM, "nothing"),
        gl::INVALID_INDEX
    );
    // Referenced-by follows the stage that declares the uniform.
    let mvp = c.get_program_resource_index(p, gl::UNIFORM, "mvp");
    let tex = c.get_program_resource_index(p, gl::UNIFORM, "tex");
    let refs = |c: &mut Context, i| {
        c.get_program_resourceiv(
            p,
            gl::UNIFORM,
            i,
            &[
                gl::REFERENCED_BY_VERTEX_SHADER,
                gl::REFERENCED_BY_FRAGMENT_SHADER,
                gl::REFERENCED_BY_GEOMETRY_SHADER,
            ],
        )
    };
    assert_eq!(refs(&mut c, mvp), [1, 0, 0]);
    assert_eq!(refs(&mut c, tex), [0, 1, 0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn uniform_blocks_list_their_members() {
    let mut c = Context::new(4, 4);
    let p = linked(&mut c);
    assert_eq!(
        c.get_program_interfaceiv(p, gl::UNIFORM_BLOCK, gl::ACTIVE_RESOURCES)[0],
        1
    );
    let b = c.get_program_resource_index(p, gl::UNIFORM_BLOCK, "Light");
    assert_eq!(b, c.get_uniform_block_index(p, "Light"));
    c.uniform_block_binding(p, b, 5);
    let v = c.get_program_resourceiv(
        p,
        gl::UNIFORM_BLOCK,
        b,
        &[
            gl::BUFFER_BINDING,
            gl::BUFFER_DATA_SIZE,
            gl::NUM_ACTIVE_VARIABLES,
            gl::REFERENCED_BY_VERTEX_SHADER,
            gl::REFERENCED_BY_FRAGMENT_SHADER,
        ],
    );
    assert_eq!(v, [5, 32, 2, 1, 1]);
    let members = c.get_program_resourceiv(p, gl::UNIFORM_BLOCK, b, &[gl::ACTIVE_VARIABLES]);
    assert_eq!(
        members,
        c.get_active_uniform_blockiv(p, b, gl::UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES)
    );
    for m in members {
        assert_eq!(
            one(&mut c, p, gl::UNIFORM, m as u32, gl::BLOCK_INDEX),
            b as i32
        );
    }
    assert_eq!(
        c.get_program_interfaceiv(p, gl::UNIFORM_BLOCK, gl::MAX_NUM_ACTIVE_VARIABLES)[0],
        2
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn inputs_and_outputs_have_types_and_locations() {
    let mut c = Context::new(4, 4);
    let p = linked(&mut c);
    assert_eq!(
        c.get_program_interfaceiv(p, gl::PROGRAM_INPUT, gl::ACTIVE_RESOURCES)[0],
        c.get_programiv(p, gl::ACTIVE_ATTRIBUTES)
    );
    let pos = c.get_program_resource_index(p, gl::PROGRAM_INPUT, "pos");
    assert_eq!(
        c.get_program_resourceiv(p, gl::PROGRAM_INPUT, pos, &[gl::TYPE, gl::LOCATION]),
        [gl::FLOAT_VEC4 as i32, 3]
    );
    assert_eq!(
        c.get_program_resource_location(p, gl::PROGRAM_INPUT, "pos"),
        3
    );
    let uv = c.get_program_resource_index(p, gl::PROGRAM_INPUT, "uv");
    assert_ne!(uv, gl::INVALID_INDEX);
    assert_eq!(one(&mut c, p, gl::PROGRAM_INPUT, uv, gl::ARRAY_SIZE), 2);

    assert_eq!(
        c.get_program_interfaceiv(p, gl::PROGRAM_OUTPUT, gl::ACTIVE_RESOURCES)[0],
        2
    );
    let ids = c.get_program_resource_index(p, gl::PROGRAM_OUTPUT, "ids");
    assert_eq!(
        c.get_program_resourceiv(
            p,
            gl::PROGRAM_OUTPUT,
            ids,
            &[
                gl::TYPE,
                gl::LOCATION,
                gl::LOCATION_INDEX,
                gl::REFERENCED_BY_FRAGMENT_SHADER
            ]
        ),
        [gl::UNSIGNED_INT_VEC2 as i32, 2, 0, 1]
    );
    assert_eq!(
        c.get_program_resource_location(p, gl::PROGRAM_OUTPUT, "colour"),
        1
    );
    assert_eq!(
        c.get_program_resource_location_index(p, gl::PROGRAM_OUTPUT, "colour"),
        0
    );
    assert_eq!(
        c.get_program_resource_location_index(p, gl::PROGRAM_OUTPUT, "absent"),
        -1
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// One GL call made for the error it raises.
type Call = Box<dyn Fn(&mut Context)>;

#[test]
fn interfaces_softgl_lacks_are_empty_and_errors_follow_the_spec() {
    let mut c = Context::new(4, 4);
    let p = linked(&mut c);
    for iface in [
        gl::SHADER_STORAGE_BLOCK,
        gl::BUFFER_VARIABLE,
        gl::ATOMIC_COUNTER_BUFFER,
        gl::TRANSFORM_FEEDBACK_VARYING,
        gl::TRANSFORM_FEEDBACK_BUFFER,
        gl::VERTEX_SUBROUTINE_UNIFORM,
    ] {
        assert_eq!(
            c.get_program_interfaceiv(p, iface, gl::ACTIVE_RESOURCES),
            [0]
        );
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let cases: Vec<(u32, Call)> = vec![
        // A name that is not an interface, and a pname no interface has: ARB_program_
        // interface_query, "INVALID_OPERATION is generated by GetProgramInterfaceiv if the
        // parameter <pname> is not supported for the interface <programInterface>" (piglit's
        // getprograminterfaceiv checks both, as Mesa answers them).
        (
            gl::INVALID_OPERATION,
            Box::new(move |c| {
                c.get_program_interfaceiv(p, gl::TEXTURE_2D, gl::ACTIVE_RESOURCES);
            }),
        ),
        (
            gl::INVALID_OPERATION,
            Box::new(move |c| {
                c.get_program_interfaceiv(p, gl::UNIFORM, gl::TEXTURE_2D);
            }),
        ),
        // The other commands keep INVALID_ENUM for a name that is not an interface.
        (
            gl::INVALID_ENUM,
            Box::new(move |c| {
                c.get_program_resource_index(p, gl::TEXTURE_2D, "u");
            }),
        ),
        // No names in these interfaces.
        (
            gl::INVALID_OPERATION,
            Box::new(move |c| {
                c.get_program_interfaceiv(p, gl::ATOMIC_COUNTER_BUFFER, gl::MAX_NAME_LENGTH);
            }),
        ),
        (
            gl::INVALID_ENUM,
            Box::new(move |c| {
                c.get_program_resource_index(p, gl::TRANSFORM_FEEDBACK_BUFFER, "x");
            }),
        ),
        // Active variables only in blocks and buffers.
        (
            gl::INVALID_OPERATION,
            Box::new(move |c| {
                c.get_program_interfaceiv(p, gl::UNIFORM, gl::MAX_NUM_ACTIVE_VARIABLES);
            }),
        ),
        (
            gl::INVALID_OPERATION,
            Box::new(move |c| {
                c.get_program_interfaceiv(p, gl::UNIFORM, gl::MAX_NUM_COMPATIBLE_SUBROUTINES);
            }),
        ),
        (
            gl::INVALID_VALUE,
            Box::new(move |c| {
                c.get_program_resource_name(p, gl::UNIFORM, 1000);
            }),
        ),
        (
            gl::INVALID_VALUE,
            Box::new(move |c| {
                c.get_program_resourceiv(p, gl::UNIFORM, 1000, &[gl::TYPE]);
            }),
        ),
        (
            gl::INVALID_VALUE,
            Box::new(move |c| {
                c.get_program_resourceiv(p, gl::UNIFORM, 0, &[]);
            }),
        ),
        // A property of another interface, and a name that is no property.
        (
            gl::INVALID_OPERATION,
            Box::new(move |c| {
                c.get_program_resourceiv(p, gl::UNIFORM, 0, &[gl::BUFFER_BINDING]);
            }),
        ),
        (
            gl::INVALID_ENUM,
            Box::new(move |c| {
                c.get_program_resourceiv(p, gl::UNIFORM, 0, &[gl::TEXTURE_2D]);
            }),
        ),
        (
            gl::INVALID_ENUM,
            Box::new(move |c| {
                c.get_program_resource_location(p, gl::UNIFORM_BLOCK, "Light");
            }),
        ),
        (
            gl::INVALID_ENUM,
            Box::new(move |c| {
                c.get_program_resource_location_index(p, gl::UNIFORM, "mvp");
            }),
        ),
        // Not a program; a program never linked.
        (
            gl::INVALID_VALUE,
            Box::new(|c| {
                c.get_program_interfaceiv(9999, gl::UNIFORM, gl::ACTIVE_RESOURCES);
            }),
        ),
        (
            gl::INVALID_OPERATION,
            Box::new(|c| {
                let q = c.create_program();
                c.get_program_resource_location(q, gl::UNIFORM, "mvp");
            }),
        ),
    ];
    for (i, (want, call)) in cases.iter().enumerate() {
        call(&mut c);
        assert_eq!(c.get_error(), *want, "case {i}");
    }
    // A program never linked has no resources, and says so without an error.
    let q = c.create_program();
    assert_eq!(
        c.get_program_interfaceiv(q, gl::UNIFORM, gl::ACTIVE_RESOURCES),
        [0]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    assert_eq!(c.get_programiv(p, gl::TRANSFORM_FEEDBACK_VARYINGS), 0);
    assert_eq!(
        c.get_programiv(p, gl::TRANSFORM_FEEDBACK_BUFFER_MODE),
        gl::INTERLEAVED_ATTRIBS as i32
    );
}

/// The uniform block limits glGet reports are the ones the link enforces: 18 blocks in one
/// stage link, and the combined limit is every graphics stage's together.
#[test]
fn uniform_block_limits_are_what_links() {
    let mut c = Context::new(4, 4);
    let per_stage = c.get_integerv(gl::MAX_FRAGMENT_UNIFORM_BLOCKS)[0];
    assert_eq!(per_stage, c.get_integerv(gl::MAX_VERTEX_UNIFORM_BLOCKS)[0]);
    // Every graphics stage at its limit (GL 4.5 core table 23.63).
    assert_eq!(
        c.get_integerv(gl::MAX_COMBINED_UNIFORM_BLOCKS)[0],
        5 * per_stage
    );
    assert!(c.get_integerv(gl::MAX_UNIFORM_BUFFER_BINDINGS)[0] >= 2 * per_stage);
    let fs = |n: i32| {
        let mut s = String::from("#version 330\nout vec4 o;\n");
        for i in 0..n {
            s += &format!("uniform B{i} {{ vec4 v{i}; }};\n");
        }
        s += "void main() { o = vec4(0.0)";
        for i in 0..n {
            s += &format!(" + v{i}");
        }
        s + "; }\n"
    };
    let vs = shader(
        &mut c,
        gl::VERTEX_SHADER,
        "#version 330\nvoid main() { gl_Position = vec4(0.0); }",
    );
    for (n, ok) in [(per_stage, 1), (per_stage + 1, 0)] {
        let f = shader(&mut c, gl::FRAGMENT_SHADER, &fs(n));
        let p = c.create_program();
        c.attach_shader(p, vs);
        c.attach_shader(p, f);
        c.link_program(p);
        assert_eq!(c.get_programiv(p, gl::LINK_STATUS), ok, "{n} blocks");
        if ok == 0 {
            assert!(c
                .get_program_info_log(p)
                .contains("GL_MAX_FRAGMENT_UNIFORM_BLOCKS"));
        }
    }
}

/// The limits moderngl reads at context creation that softgl's features define.
#[test]
fn texel_offset_and_index_limits() {
    let mut c = Context::new(4, 4);
    assert_eq!(c.get_integerv(gl::MIN_PROGRAM_TEXEL_OFFSET), [-8]);
    assert_eq!(c.get_integerv(gl::MAX_PROGRAM_TEXEL_OFFSET), [7]);
    assert_eq!(c.get_integer64v(gl::MAX_ELEMENT_INDEX), [u32::MAX as i64]);
    assert_eq!(c.get_integerv(gl::MAX_ELEMENT_INDEX), [i32::MAX]);
    assert_eq!(c.get_floatv(gl::MAX_TEXTURE_LOD_BIAS), [16.0]);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // The front end refuses offsets past them.
    for (offset, ok) in [("ivec2(-8, 7)", 1), ("ivec2(-9, 0)", 0), ("ivec2(0, 8)", 0)] {
        let s = c.create_shader(gl::FRAGMENT_SHADER);
        let src = format!(
            "#version 330\nuniform sampler2D t;\nout vec4 o;\nvoid main() {{ o = textureOffset(t, vec2(0.5), {offset}); }}\n"
        );
        c.shader_source(s, &[&src]);
        c.compile_shader(s);
        assert_eq!(c.get_shaderiv(s, gl::COMPILE_STATUS), ok, "{offset}");
    }
}

fn program_of(c: &mut Context, stages: &[(u32, &str)]) -> u32 {
    let p = c.create_program();
    for &(kind, src) in stages {
        let s = shader(c, kind, src);
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert_eq!(
        c.get_programiv(p, gl::LINK_STATUS),
        1,
        "{}",
        c.get_program_info_log(p)
    );
    p
}

/// The REFERENCED_BY_* properties name the stage that declares a resource, the geometry
/// and compute stages too (softgl links a geometry shader into the vertex stage's slot, so
/// they once said "vertex"; piglit's referenced-by-shader and getprogramresourceiv).
#[test]
fn referenced_by_names_each_stage() {
    const GS: &str = "#version 330
layout(points) in;
layout(points, max_vertices = 1) out;
layout(std140) uniform GsBlock { vec4 g; };
uniform vec4 gs_only;
out vec2 v_uv;
void main() { v_uv = g.xy; gl_Position = g + gs_only; EmitVertex(); }";
    let mut c = Context::new(4, 4);
    let p = program_of(
        &mut c,
        &[
            (gl::VERTEX_SHADER, VS),
            (gl::GEOMETRY_SHADER, GS),
            (gl::FRAGMENT_SHADER, FS),
        ],
    );
    let props = [
        gl::REFERENCED_BY_VERTEX_SHADER,
        gl::REFERENCED_BY_TESS_CONTROL_SHADER,
        gl::REFERENCED_BY_TESS_EVALUATION_SHADER,
        gl::REFERENCED_BY_GEOMETRY_SHADER,
        gl::REFERENCED_BY_FRAGMENT_SHADER,
        gl::REFERENCED_BY_COMPUTE_SHADER,
    ];
    let gs_block = c.get_program_resource_index(p, gl::UNIFORM_BLOCK, "GsBlock");
    let light = c.get_program_resource_index(p, gl::UNIFORM_BLOCK, "Light");
    assert_eq!(
        c.get_program_resourceiv(p, gl::UNIFORM_BLOCK, gs_block, &props),
        [0, 0, 0, 1, 0, 0]
    );
    assert_eq!(
        c.get_program_resourceiv(p, gl::UNIFORM_BLOCK, light, &props),
        [1, 0, 0, 0, 1, 0]
    );
    let u = c.get_program_resource_index(p, gl::UNIFORM, "gs_only");
    assert_eq!(
        c.get_program_resourceiv(p, gl::UNIFORM, u, &props),
        [0, 0, 0, 1, 0, 0]
    );
    let mvp = c.get_program_resource_index(p, gl::UNIFORM, "mvp");
    assert_eq!(
        c.get_program_resourceiv(p, gl::UNIFORM, mvp, &props),
        [1, 0, 0, 0, 0, 0]
    );
    // glGetActiveUniformBlockiv says the same.
    for (pname, want) in [
        (gl::UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER, 0),
        (gl::UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER, 1),
        (gl::UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER, 0),
    ] {
        assert_eq!(c.get_active_uniform_blockiv(p, gs_block, pname), [want]);
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);

    // A compute program's blocks are referenced by the compute stage, not the vertex one.
    const CS: &str = "#version 430
layout(local_size_x = 1) in;
layout(std140) uniform CsBlock { uint n; };
layout(std430) buffer Out { uint v; };
void main() { v = n; }";
    let cp = program_of(&mut c, &[(gl::COMPUTE_SHADER, CS)]);
    let b = c.get_program_resource_index(cp, gl::UNIFORM_BLOCK, "CsBlock");
    assert_eq!(
        c.get_program_resourceiv(cp, gl::UNIFORM_BLOCK, b, &props),
        [0, 0, 0, 0, 0, 1]
    );
    let s = c.get_program_resource_index(cp, gl::SHADER_STORAGE_BLOCK, "Out");
    assert_eq!(
        c.get_program_resourceiv(cp, gl::SHADER_STORAGE_BLOCK, s, &props),
        [0, 0, 0, 0, 0, 1]
    );
    assert_eq!(
        c.get_active_uniform_blockiv(cp, b, gl::UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER),
        [1]
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// An array input is one entry named `uv[0]` (§7.3.1.1), found by `uv` and `uv[0]` but not
/// `uv[1]`; a null name (the C entry point passes "") is no resource and no error; an
/// element number with a sign, a leading zero or a space names nothing.
#[test]
fn array_entries_and_malformed_names() {
    let mut c = Context::new(4, 4);
    let p = linked(&mut c);
    let i = c.get_program_resource_index(p, gl::PROGRAM_INPUT, "uv[0]");
    assert_ne!(i, gl::INVALID_INDEX);
    assert_eq!(
        c.get_program_resource_name(p, gl::PROGRAM_INPUT, i),
        "uv[0]"
    );
    assert_eq!(c.get_program_resource_index(p, gl::PROGRAM_INPUT, "uv"), i);
    assert_eq!(
        c.get_program_resource_index(p, gl::PROGRAM_INPUT, "uv[1]"),
        gl::INVALID_INDEX
    );
    assert_eq!(
        c.get_program_resource_index(p, gl::UNIFORM, ""),
        gl::INVALID_INDEX
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    let w = c.get_program_resource_location(p, gl::UNIFORM, "weights[1]");
    assert!(w >= 0);
    assert_eq!(c.get_uniform_location(p, "weights[1]"), w);
    for bad in [
        "weights[+1]",
        "weights[01]",
        "weights[ 1]",
        "weights[1 ]",
        "weights[]",
    ] {
        assert_eq!(
            c.get_program_resource_location(p, gl::UNIFORM, bad),
            -1,
            "{bad}"
        );
        assert_eq!(c.get_uniform_location(p, bad), -1, "{bad}");
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
}
