//! GL entry point of glCopyImageSubData (GL 4.5 core §18.3.3).

use super::*;

#[allow(clippy::too_many_arguments)]
pub fn CopyImageSubData(
    ctx: &mut Context,
    src_name: GLuint,
    src_target: GLenum,
    src_level: GLint,
    src_x: GLint,
    src_y: GLint,
    src_z: GLint,
    dst_name: GLuint,
    dst_target: GLenum,
    dst_level: GLint,
    dst_x: GLint,
    dst_y: GLint,
    dst_z: GLint,
    src_width: GLsizei,
    src_height: GLsizei,
    src_depth: GLsizei,
) {
    ctx.copy_image_sub_data(
        (src_name, src_target, src_level, [src_x, src_y, src_z]),
        (dst_name, dst_target, dst_level, [dst_x, dst_y, dst_z]),
        [src_width, src_height, src_depth],
    )
}
