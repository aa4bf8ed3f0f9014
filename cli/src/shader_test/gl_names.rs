//! GL enum names → values, for the places where the `.shader_test` format takes a `GL_*`
//! name (piglit's shader_runner takes any enum of the registry there): the library's table
//! (`softgl::enums::by_name`, generated from gl.xml); which names make sense at a place is
//! left to the GL call they reach, as in shader_runner.

/// The value of the enum `name` (`GL_NEAREST` → 0x2600), or `None` for a name gl.xml does
/// not have.
pub fn gl_enum_by_name(name: &str) -> Option<u32> {
    softgl::enums::by_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve() {
        assert_eq!(gl_enum_by_name("GL_NEAREST"), Some(softgl::enums::NEAREST));
        assert_eq!(gl_enum_by_name("GL_CLIP_PLANE0"), Some(0x3000));
        assert_eq!(
            gl_enum_by_name("GL_MAX_VERTEX_OUTPUT_COMPONENTS"),
            Some(softgl::enums::MAX_VERTEX_OUTPUT_COMPONENTS)
        );
        assert_eq!(gl_enum_by_name("GL_NO_SUCH_THING"), None);
        assert_eq!(gl_enum_by_name("NEAREST"), None);
    }
}
