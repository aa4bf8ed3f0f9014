//! GL entry points of the current generic attribute values (GL 4.5 core §10.2): every
//! glVertexAttrib* form converts its arguments here (shorts and doubles to floats, the
//! normalized `4N` forms as fixed-point data are, §2.3.5.1) and ends in one of the
//! Context's four setters; the getters of CURRENT_VERTEX_ATTRIB and the array pointer.

use super::*;
use crate::api::attrib_value::normalized;
use crate::gl::AttribType;

/// Components `n` given, the rest (0, 0, 0, 1).
fn fill<T: Copy>(v: &[T], zero: T, one: T) -> [T; 4] {
    let mut out = [zero, zero, zero, one];
    out[..v.len()].copy_from_slice(v);
    out
}

fn float4(ctx: &mut Context, index: GLuint, v: [f32; 4]) {
    ctx.vertex_attrib_4f(index, v[0], v[1], v[2], v[3])
}

fn int4(ctx: &mut Context, index: GLuint, v: [i32; 4]) {
    ctx.vertex_attrib_i4i(index, v[0], v[1], v[2], v[3])
}

fn uint4(ctx: &mut Context, index: GLuint, v: [u32; 4]) {
    ctx.vertex_attrib_i4ui(index, v[0], v[1], v[2], v[3])
}

fn double4(ctx: &mut Context, index: GLuint, v: [f64; 4]) {
    ctx.vertex_attrib_l4d(index, v[0], v[1], v[2], v[3])
}

/// `n` values at `v`, or the recorded GL_INVALID_VALUE of a null pointer.
///
/// # Safety
/// `v` is null or readable for `n` values.
unsafe fn read<'a, T>(ctx: &mut Context, v: *const T, n: usize) -> Option<&'a [T]> {
    // SAFETY: forwarded.
    match unsafe { slice_len(v, n) } {
        Ok(s) => Some(s),
        Err(e) => {
            fail(ctx, e);
            None
        }
    }
}

pub fn VertexAttrib1s(ctx: &mut Context, index: GLuint, x: GLshort) {
    float4(ctx, index, fill(&[x as f32], 0.0, 1.0))
}

pub unsafe fn VertexAttrib1sv(ctx: &mut Context, index: GLuint, v: *const GLshort) {
    // SAFETY: `v` holds 1 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 1) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub fn VertexAttrib1f(ctx: &mut Context, index: GLuint, x: GLfloat) {
    float4(ctx, index, fill(&[x], 0.0, 1.0))
}

pub unsafe fn VertexAttrib1fv(ctx: &mut Context, index: GLuint, v: *const GLfloat) {
    // SAFETY: `v` holds 1 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 1) } {
        float4(ctx, index, fill(v, 0.0, 1.0))
    }
}

pub fn VertexAttrib1d(ctx: &mut Context, index: GLuint, x: GLdouble) {
    float4(ctx, index, fill(&[x as f32], 0.0, 1.0))
}

pub unsafe fn VertexAttrib1dv(ctx: &mut Context, index: GLuint, v: *const GLdouble) {
    // SAFETY: `v` holds 1 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 1) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub fn VertexAttrib2s(ctx: &mut Context, index: GLuint, x: GLshort, y: GLshort) {
    float4(ctx, index, fill(&[x as f32, y as f32], 0.0, 1.0))
}

pub unsafe fn VertexAttrib2sv(ctx: &mut Context, index: GLuint, v: *const GLshort) {
    // SAFETY: `v` holds 2 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 2) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub fn VertexAttrib2f(ctx: &mut Context, index: GLuint, x: GLfloat, y: GLfloat) {
    float4(ctx, index, fill(&[x, y], 0.0, 1.0))
}

pub unsafe fn VertexAttrib2fv(ctx: &mut Context, index: GLuint, v: *const GLfloat) {
    // SAFETY: `v` holds 2 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 2) } {
        float4(ctx, index, fill(v, 0.0, 1.0))
    }
}

pub fn VertexAttrib2d(ctx: &mut Context, index: GLuint, x: GLdouble, y: GLdouble) {
    float4(ctx, index, fill(&[x as f32, y as f32], 0.0, 1.0))
}

pub unsafe fn VertexAttrib2dv(ctx: &mut Context, index: GLuint, v: *const GLdouble) {
    // SAFETY: `v` holds 2 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 2) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub fn VertexAttrib3s(ctx: &mut Context, index: GLuint, x: GLshort, y: GLshort, z: GLshort) {
    float4(ctx, index, fill(&[x as f32, y as f32, z as f32], 0.0, 1.0))
}

pub unsafe fn VertexAttrib3sv(ctx: &mut Context, index: GLuint, v: *const GLshort) {
    // SAFETY: `v` holds 3 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 3) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub fn VertexAttrib3f(ctx: &mut Context, index: GLuint, x: GLfloat, y: GLfloat, z: GLfloat) {
    float4(ctx, index, fill(&[x, y, z], 0.0, 1.0))
}

pub unsafe fn VertexAttrib3fv(ctx: &mut Context, index: GLuint, v: *const GLfloat) {
    // SAFETY: `v` holds 3 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 3) } {
        float4(ctx, index, fill(v, 0.0, 1.0))
    }
}

pub fn VertexAttrib3d(ctx: &mut Context, index: GLuint, x: GLdouble, y: GLdouble, z: GLdouble) {
    float4(ctx, index, fill(&[x as f32, y as f32, z as f32], 0.0, 1.0))
}

pub unsafe fn VertexAttrib3dv(ctx: &mut Context, index: GLuint, v: *const GLdouble) {
    // SAFETY: `v` holds 3 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 3) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub fn VertexAttrib4s(
    ctx: &mut Context,
    index: GLuint,
    x: GLshort,
    y: GLshort,
    z: GLshort,
    w: GLshort,
) {
    float4(
        ctx,
        index,
        fill(&[x as f32, y as f32, z as f32, w as f32], 0.0, 1.0),
    )
}

pub unsafe fn VertexAttrib4sv(ctx: &mut Context, index: GLuint, v: *const GLshort) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub fn VertexAttrib4f(
    ctx: &mut Context,
    index: GLuint,
    x: GLfloat,
    y: GLfloat,
    z: GLfloat,
    w: GLfloat,
) {
    float4(ctx, index, fill(&[x, y, z, w], 0.0, 1.0))
}

pub unsafe fn VertexAttrib4fv(ctx: &mut Context, index: GLuint, v: *const GLfloat) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        float4(ctx, index, fill(v, 0.0, 1.0))
    }
}

pub fn VertexAttrib4d(
    ctx: &mut Context,
    index: GLuint,
    x: GLdouble,
    y: GLdouble,
    z: GLdouble,
    w: GLdouble,
) {
    float4(
        ctx,
        index,
        fill(&[x as f32, y as f32, z as f32, w as f32], 0.0, 1.0),
    )
}

pub unsafe fn VertexAttrib4dv(ctx: &mut Context, index: GLuint, v: *const GLdouble) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub unsafe fn VertexAttrib4bv(ctx: &mut Context, index: GLuint, v: *const GLbyte) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub unsafe fn VertexAttrib4iv(ctx: &mut Context, index: GLuint, v: *const GLint) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub unsafe fn VertexAttrib4ubv(ctx: &mut Context, index: GLuint, v: *const GLubyte) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub unsafe fn VertexAttrib4uiv(ctx: &mut Context, index: GLuint, v: *const GLuint) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub unsafe fn VertexAttrib4usv(ctx: &mut Context, index: GLuint, v: *const GLushort) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        float4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as f32).collect::<Vec<_>>(), 0.0, 1.0),
        )
    }
}

pub unsafe fn VertexAttrib4Nbv(ctx: &mut Context, index: GLuint, v: *const GLbyte) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        let ty = AttribType::Byte;
        let f: Vec<f32> = v.iter().map(|x| normalized(ty, &x.to_le_bytes())).collect();
        float4(ctx, index, fill(&f, 0.0, 1.0))
    }
}

pub unsafe fn VertexAttrib4Niv(ctx: &mut Context, index: GLuint, v: *const GLint) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        let ty = AttribType::Int;
        let f: Vec<f32> = v.iter().map(|x| normalized(ty, &x.to_le_bytes())).collect();
        float4(ctx, index, fill(&f, 0.0, 1.0))
    }
}

pub unsafe fn VertexAttrib4Nsv(ctx: &mut Context, index: GLuint, v: *const GLshort) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        let ty = AttribType::Short;
        let f: Vec<f32> = v.iter().map(|x| normalized(ty, &x.to_le_bytes())).collect();
        float4(ctx, index, fill(&f, 0.0, 1.0))
    }
}

pub unsafe fn VertexAttrib4Nubv(ctx: &mut Context, index: GLuint, v: *const GLubyte) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        let ty = AttribType::UnsignedByte;
        let f: Vec<f32> = v.iter().map(|x| normalized(ty, &x.to_le_bytes())).collect();
        float4(ctx, index, fill(&f, 0.0, 1.0))
    }
}

pub unsafe fn VertexAttrib4Nuiv(ctx: &mut Context, index: GLuint, v: *const GLuint) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        let ty = AttribType::UnsignedInt;
        let f: Vec<f32> = v.iter().map(|x| normalized(ty, &x.to_le_bytes())).collect();
        float4(ctx, index, fill(&f, 0.0, 1.0))
    }
}

pub unsafe fn VertexAttrib4Nusv(ctx: &mut Context, index: GLuint, v: *const GLushort) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        let ty = AttribType::UnsignedShort;
        let f: Vec<f32> = v.iter().map(|x| normalized(ty, &x.to_le_bytes())).collect();
        float4(ctx, index, fill(&f, 0.0, 1.0))
    }
}

pub fn VertexAttrib4Nub(
    ctx: &mut Context,
    index: GLuint,
    x: GLubyte,
    y: GLubyte,
    z: GLubyte,
    w: GLubyte,
) {
    let f = [x, y, z, w].map(|c| normalized(AttribType::UnsignedByte, &[c]));
    float4(ctx, index, f)
}

pub fn VertexAttribI1i(ctx: &mut Context, index: GLuint, x: GLint) {
    int4(ctx, index, fill(&[x], 0, 1))
}

pub unsafe fn VertexAttribI1iv(ctx: &mut Context, index: GLuint, v: *const GLint) {
    // SAFETY: `v` holds 1 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 1) } {
        int4(ctx, index, fill(v, 0, 1))
    }
}

pub fn VertexAttribI1ui(ctx: &mut Context, index: GLuint, x: GLuint) {
    uint4(ctx, index, fill(&[x], 0, 1))
}

pub unsafe fn VertexAttribI1uiv(ctx: &mut Context, index: GLuint, v: *const GLuint) {
    // SAFETY: `v` holds 1 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 1) } {
        uint4(ctx, index, fill(v, 0, 1))
    }
}

pub fn VertexAttribI2i(ctx: &mut Context, index: GLuint, x: GLint, y: GLint) {
    int4(ctx, index, fill(&[x, y], 0, 1))
}

pub unsafe fn VertexAttribI2iv(ctx: &mut Context, index: GLuint, v: *const GLint) {
    // SAFETY: `v` holds 2 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 2) } {
        int4(ctx, index, fill(v, 0, 1))
    }
}

pub fn VertexAttribI2ui(ctx: &mut Context, index: GLuint, x: GLuint, y: GLuint) {
    uint4(ctx, index, fill(&[x, y], 0, 1))
}

pub unsafe fn VertexAttribI2uiv(ctx: &mut Context, index: GLuint, v: *const GLuint) {
    // SAFETY: `v` holds 2 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 2) } {
        uint4(ctx, index, fill(v, 0, 1))
    }
}

pub fn VertexAttribI3i(ctx: &mut Context, index: GLuint, x: GLint, y: GLint, z: GLint) {
    int4(ctx, index, fill(&[x, y, z], 0, 1))
}

pub unsafe fn VertexAttribI3iv(ctx: &mut Context, index: GLuint, v: *const GLint) {
    // SAFETY: `v` holds 3 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 3) } {
        int4(ctx, index, fill(v, 0, 1))
    }
}

pub fn VertexAttribI3ui(ctx: &mut Context, index: GLuint, x: GLuint, y: GLuint, z: GLuint) {
    uint4(ctx, index, fill(&[x, y, z], 0, 1))
}

pub unsafe fn VertexAttribI3uiv(ctx: &mut Context, index: GLuint, v: *const GLuint) {
    // SAFETY: `v` holds 3 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 3) } {
        uint4(ctx, index, fill(v, 0, 1))
    }
}

pub fn VertexAttribI4i(ctx: &mut Context, index: GLuint, x: GLint, y: GLint, z: GLint, w: GLint) {
    int4(ctx, index, fill(&[x, y, z, w], 0, 1))
}

pub unsafe fn VertexAttribI4iv(ctx: &mut Context, index: GLuint, v: *const GLint) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        int4(ctx, index, fill(v, 0, 1))
    }
}

pub fn VertexAttribI4ui(
    ctx: &mut Context,
    index: GLuint,
    x: GLuint,
    y: GLuint,
    z: GLuint,
    w: GLuint,
) {
    uint4(ctx, index, fill(&[x, y, z, w], 0, 1))
}

pub unsafe fn VertexAttribI4uiv(ctx: &mut Context, index: GLuint, v: *const GLuint) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        uint4(ctx, index, fill(v, 0, 1))
    }
}

pub unsafe fn VertexAttribI4bv(ctx: &mut Context, index: GLuint, v: *const GLbyte) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        int4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as i32).collect::<Vec<_>>(), 0, 1),
        )
    }
}

pub unsafe fn VertexAttribI4sv(ctx: &mut Context, index: GLuint, v: *const GLshort) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        int4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as i32).collect::<Vec<_>>(), 0, 1),
        )
    }
}

pub unsafe fn VertexAttribI4ubv(ctx: &mut Context, index: GLuint, v: *const GLubyte) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        uint4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as u32).collect::<Vec<_>>(), 0, 1),
        )
    }
}

pub unsafe fn VertexAttribI4usv(ctx: &mut Context, index: GLuint, v: *const GLushort) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        uint4(
            ctx,
            index,
            fill(&v.iter().map(|&x| x as u32).collect::<Vec<_>>(), 0, 1),
        )
    }
}

pub fn VertexAttribL1d(ctx: &mut Context, index: GLuint, x: GLdouble) {
    double4(ctx, index, fill(&[x], 0.0, 1.0))
}

pub unsafe fn VertexAttribL1dv(ctx: &mut Context, index: GLuint, v: *const GLdouble) {
    // SAFETY: `v` holds 1 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 1) } {
        double4(ctx, index, fill(v, 0.0, 1.0))
    }
}

pub fn VertexAttribL2d(ctx: &mut Context, index: GLuint, x: GLdouble, y: GLdouble) {
    double4(ctx, index, fill(&[x, y], 0.0, 1.0))
}

pub unsafe fn VertexAttribL2dv(ctx: &mut Context, index: GLuint, v: *const GLdouble) {
    // SAFETY: `v` holds 2 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 2) } {
        double4(ctx, index, fill(v, 0.0, 1.0))
    }
}

pub fn VertexAttribL3d(ctx: &mut Context, index: GLuint, x: GLdouble, y: GLdouble, z: GLdouble) {
    double4(ctx, index, fill(&[x, y, z], 0.0, 1.0))
}

pub unsafe fn VertexAttribL3dv(ctx: &mut Context, index: GLuint, v: *const GLdouble) {
    // SAFETY: `v` holds 3 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 3) } {
        double4(ctx, index, fill(v, 0.0, 1.0))
    }
}

pub fn VertexAttribL4d(
    ctx: &mut Context,
    index: GLuint,
    x: GLdouble,
    y: GLdouble,
    z: GLdouble,
    w: GLdouble,
) {
    double4(ctx, index, fill(&[x, y, z, w], 0.0, 1.0))
}

pub unsafe fn VertexAttribL4dv(ctx: &mut Context, index: GLuint, v: *const GLdouble) {
    // SAFETY: `v` holds 4 values (GL 4.5 core §10.2.1).
    if let Some(v) = unsafe { read(ctx, v, 4) } {
        double4(ctx, index, fill(v, 0.0, 1.0))
    }
}

pub fn VertexAttribP1ui(
    ctx: &mut Context,
    index: GLuint,
    r#type: GLenum,
    normalized: GLboolean,
    value: GLuint,
) {
    ctx.vertex_attrib_p(index, 1, r#type, b(normalized), value)
}

pub unsafe fn VertexAttribP1uiv(
    ctx: &mut Context,
    index: GLuint,
    r#type: GLenum,
    normalized: GLboolean,
    value: *const GLuint,
) {
    // SAFETY: `value` holds one packed word.
    if let Some(v) = unsafe { read(ctx, value, 1) } {
        ctx.vertex_attrib_p(index, 1, r#type, b(normalized), v[0])
    }
}

pub fn VertexAttribP2ui(
    ctx: &mut Context,
    index: GLuint,
    r#type: GLenum,
    normalized: GLboolean,
    value: GLuint,
) {
    ctx.vertex_attrib_p(index, 2, r#type, b(normalized), value)
}

pub unsafe fn VertexAttribP2uiv(
    ctx: &mut Context,
    index: GLuint,
    r#type: GLenum,
    normalized: GLboolean,
    value: *const GLuint,
) {
    // SAFETY: `value` holds one packed word.
    if let Some(v) = unsafe { read(ctx, value, 1) } {
        ctx.vertex_attrib_p(index, 2, r#type, b(normalized), v[0])
    }
}

pub fn VertexAttribP3ui(
    ctx: &mut Context,
    index: GLuint,
    r#type: GLenum,
    normalized: GLboolean,
    value: GLuint,
) {
    ctx.vertex_attrib_p(index, 3, r#type, b(normalized), value)
}

pub unsafe fn VertexAttribP3uiv(
    ctx: &mut Context,
    index: GLuint,
    r#type: GLenum,
    normalized: GLboolean,
    value: *const GLuint,
) {
    // SAFETY: `value` holds one packed word.
    if let Some(v) = unsafe { read(ctx, value, 1) } {
        ctx.vertex_attrib_p(index, 3, r#type, b(normalized), v[0])
    }
}

pub fn VertexAttribP4ui(
    ctx: &mut Context,
    index: GLuint,
    r#type: GLenum,
    normalized: GLboolean,
    value: GLuint,
) {
    ctx.vertex_attrib_p(index, 4, r#type, b(normalized), value)
}

pub unsafe fn VertexAttribP4uiv(
    ctx: &mut Context,
    index: GLuint,
    r#type: GLenum,
    normalized: GLboolean,
    value: *const GLuint,
) {
    // SAFETY: `value` holds one packed word.
    if let Some(v) = unsafe { read(ctx, value, 1) } {
        ctx.vertex_attrib_p(index, 4, r#type, b(normalized), v[0])
    }
}

pub fn VertexAttribL1ui64ARB(ctx: &mut Context, index: GLuint, x: GLuint64EXT) {
    ctx.vertex_attrib_l1ui64_arb(index, x)
}

pub unsafe fn VertexAttribL1ui64vARB(ctx: &mut Context, index: GLuint, v: *const GLuint64EXT) {
    // SAFETY: `v` holds one value.
    match unsafe { slice_len(v, 1) } {
        Ok(v) => ctx.vertex_attrib_l1ui64v_arb(index, v),
        Err(e) => fail(ctx, e),
    }
}

pub unsafe fn GetVertexAttribLui64vARB(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLuint64EXT,
) {
    let get = |c: &mut Context| c.get_vertex_attrib_lui64v_arb(index, pname);
    // SAFETY: `params` is null or writable for one value.
    unsafe { write_one_unless_failed(ctx, params, get) }
}

pub unsafe fn GetVertexAttribfv(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLfloat,
) {
    let v = ctx.get_vertex_attribfv(index, pname);
    // SAFETY: `params` has room for pname's values (4 for CURRENT_VERTEX_ATTRIB, else 1);
    // a failed query returns none.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetVertexAttribdv(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLdouble,
) {
    let v = ctx.get_vertex_attribdv(index, pname);
    // SAFETY: `params` has room for pname's values (4 for CURRENT_VERTEX_ATTRIB, else 1);
    // a failed query returns none.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetVertexAttribIiv(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLint,
) {
    let v = ctx.get_vertex_attrib_iiv(index, pname);
    // SAFETY: `params` has room for pname's values (4 for CURRENT_VERTEX_ATTRIB, else 1);
    // a failed query returns none.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetVertexAttribIuiv(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLuint,
) {
    let v = ctx.get_vertex_attrib_iuiv(index, pname);
    // SAFETY: `params` has room for pname's values (4 for CURRENT_VERTEX_ATTRIB, else 1);
    // a failed query returns none.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetVertexAttribLdv(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    params: *mut GLdouble,
) {
    let v = ctx.get_vertex_attrib_ldv(index, pname);
    // SAFETY: `params` has room for pname's values (4 for CURRENT_VERTEX_ATTRIB, else 1);
    // a failed query returns none.
    unsafe { write_out(params, &v) }
}

pub unsafe fn GetVertexAttribPointerv(
    ctx: &mut Context,
    index: GLuint,
    pname: GLenum,
    pointer: *mut *mut c_void,
) {
    let get = |c: &mut Context| c.get_vertex_attrib_pointerv(index, pname) as *mut c_void;
    // SAFETY: `pointer` is null or writable for one pointer.
    unsafe { write_one_unless_failed(ctx, pointer, get) }
}
