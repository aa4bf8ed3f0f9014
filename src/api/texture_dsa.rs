//! The texture commands that name a texture or a unit instead of a bound target: GL 4.5's
//! direct state access queries and glGenerateTextureMipmap, glBindTextureUnit, GL 4.4's
//! multi-bind (glBindTextures, glBindSamplers), and glGetTexLevelParameterfv.

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{SamplerName, TextureName};
use crate::api::texture::{kind_of_target, param_floats, param_ints, TexRef, MORE_TARGETS};
use crate::gl::enums as gl;
use crate::sampler::TexKind;

/// Every texture kind a unit has a binding for.
fn unit_kinds() -> impl Iterator<Item = TexKind> {
    [
        TexKind::D2,
        TexKind::D2Array,
        TexKind::Cube,
        TexKind::D3,
        TexKind::D2Multisample,
        TexKind::D2MultisampleArray,
    ]
    .into_iter()
    .chain(MORE_TARGETS.iter().filter_map(|&t| kind_of_target(t)))
}

gl_commands! {
    /// glBindTextureUnit (GL 4.5 core §8.1): `texture` on its own target of `unit`; 0
    /// unbinds every target of the unit.
    "glBindTextureUnit" fn bind_texture_unit(unit: u32, texture: u32) = try_bind_texture_unit;
    /// glBindTextures (GL 4.5 core §8.1): units `first`.. get `textures` (each on its own
    /// target, 0 unbinding every target); `None` unbinds `count` units.
    "glBindTextures"
    fn bind_textures(first: u32, count: i32, textures: Option<&[u32]>) = try_bind_textures;
    /// glBindSamplers (GL 4.5 core §8.2): units `first`.. get `samplers`; `None` unbinds
    /// `count` units.
    "glBindSamplers"
    fn bind_samplers(first: u32, count: i32, samplers: Option<&[u32]>) = try_bind_samplers;
    /// glGenerateTextureMipmap (GL 4.5 core §8.14.4).
    "glGenerateTextureMipmap" fn generate_texture_mipmap(texture: u32) = try_generate_texture_mipmap;
    /// glGetTextureParameteriv (every value: four for the border colour and the swizzle).
    "glGetTextureParameteriv"
    fn get_texture_parameteriv(texture: u32, pname: u32) -> Vec<i32> = try_get_texture_parameteriv;
    /// glGetTextureParameterfv.
    "glGetTextureParameterfv"
    fn get_texture_parameterfv(texture: u32, pname: u32) -> Vec<f32> = try_get_texture_parameterfv;
    /// glGetTextureParameterIiv.
    "glGetTextureParameterIiv"
    fn get_texture_parameter_iiv(texture: u32, pname: u32) -> Vec<i32>
        = try_get_texture_parameter_iiv;
    /// glGetTextureParameterIuiv.
    "glGetTextureParameterIuiv"
    fn get_texture_parameter_iuiv(texture: u32, pname: u32) -> Vec<u32>
        = try_get_texture_parameter_iuiv;
    /// glGetTextureLevelParameteriv (a cube map reports its +X face).
    "glGetTextureLevelParameteriv"
    fn get_texture_level_parameteriv(texture: u32, level: i32, pname: u32) -> i32
        = try_get_texture_level_parameteriv;
    /// glGetTextureLevelParameterfv.
    "glGetTextureLevelParameterfv"
    fn get_texture_level_parameterfv(texture: u32, level: i32, pname: u32) -> f32
        = try_get_texture_level_parameterfv;
    /// glGetTexLevelParameterfv: glGetTexLevelParameteriv's integers as floats.
    "glGetTexLevelParameterfv"
    fn get_tex_level_parameterfv(target: u32, level: i32, pname: u32) -> f32
        = try_get_tex_level_parameterfv;
}

impl Context {
    /// The texture object `texture` and its target, for a DSA command (INVALID_OPERATION
    /// for a name that is not a texture object, GL 4.5 core §8.1).
    fn dsa_texture_and_target(&self, texture: u32) -> GlResult<(TexRef, u32)> {
        match self
            .objs
            .textures
            .get(TextureName(texture))
            .map(|t| t.target)
        {
            Some(Some(target)) => Ok((TexRef::Named(TextureName(texture)), target)),
            _ => Err(GlError::InvalidOperation(
                "not the name of a texture object",
            )),
        }
    }

    /// The units `first`..`first + count` a multi-bind command names (INVALID_VALUE for a
    /// negative count or past GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS).
    fn multi_bind_units(first: u32, count: i32) -> GlResult<std::ops::Range<usize>> {
        let count = u32::try_from(count).map_err(|_| GlError::InvalidValue("negative count"))?;
        match first.checked_add(count) {
            Some(end) if end <= limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS => {
                Ok(first as usize..end as usize)
            }
            _ => Err(GlError::InvalidOperation(
                "first + count past GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS",
            )),
        }
    }

    pub(crate) fn try_bind_texture_unit(&mut self, unit: u32, texture: u32) -> GlResult<()> {
        if unit >= limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS {
            return Err(GlError::InvalidValue(
                "unit past GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS",
            ));
        }
        self.bind_to_unit(unit as usize, texture)
    }

    /// `texture` on its target of `unit` (0: every target of the unit unbound).
    fn bind_to_unit(&mut self, unit: usize, texture: u32) -> GlResult<()> {
        if texture == 0 {
            for kind in unit_kinds() {
                self.units_mut(kind)[unit] = None;
            }
            return Ok(());
        }
        let (_, target) = self.dsa_texture_and_target(texture)?;
        let kind = kind_of_target(target).ok_or(GlError::InvalidOperation(
            "the texture has no target to bind to",
        ))?;
        self.units_mut(kind)[unit] = Some(TextureName(texture));
        Ok(())
    }

    pub(crate) fn try_bind_textures(
        &mut self,
        first: u32,
        count: i32,
        textures: Option<&[u32]>,
    ) -> GlResult<()> {
        let units = Self::multi_bind_units(first, count)?;
        // Every name is checked first; one that fails leaves its unit as it was and the
        // others are still bound (GL 4.5 core §8.1), the error reported at the end.
        let mut failed = None;
        for (i, unit) in units.enumerate() {
            let texture = textures.map_or(0, |t| t.get(i).copied().unwrap_or(0));
            if let Err(e) = self.bind_to_unit(unit, texture) {
                failed.get_or_insert(e);
            }
        }
        failed.map_or(Ok(()), Err)
    }

    pub(crate) fn try_bind_samplers(
        &mut self,
        first: u32,
        count: i32,
        samplers: Option<&[u32]>,
    ) -> GlResult<()> {
        let units = Self::multi_bind_units(first, count)?;
        let mut failed = None;
        for (i, unit) in units.enumerate() {
            let s = samplers.map_or(0, |s| s.get(i).copied().unwrap_or(0));
            if s != 0 && self.objs.samplers.get(SamplerName(s)).is_none() {
                failed.get_or_insert(GlError::InvalidOperation("not a sampler name"));
                continue;
            }
            self.sampler_units[unit] = (s != 0).then_some(SamplerName(s));
        }
        failed.map_or(Ok(()), Err)
    }

    pub(crate) fn try_generate_texture_mipmap(&mut self, texture: u32) -> GlResult<()> {
        let (r, target) = self.dsa_texture_and_target(texture)?;
        let kind = kind_of_target(target).unwrap_or_default();
        if kind.is_multisample() || matches!(kind, TexKind::Rect | TexKind::Buffer) {
            return Err(GlError::InvalidOperation(
                "multisample, rectangle and buffer textures have no mipmaps",
            ));
        }
        self.generate_mipmap_of(r)
    }

    /// glGetTextureParameter*'s value of `texture`, before the form converts it.
    fn texture_param(&self, texture: u32, pname: u32) -> GlResult<crate::api::texture::ParamValue> {
        let (r, _) = self.dsa_texture_and_target(texture)?;
        self.tex_param_value_of(r, pname)
    }

    pub(crate) fn try_get_texture_parameteriv(
        &mut self,
        texture: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        self.texture_param(texture, pname)
            .map(|v| param_ints(v, false))
    }

    pub(crate) fn try_get_texture_parameterfv(
        &mut self,
        texture: u32,
        pname: u32,
    ) -> GlResult<Vec<f32>> {
        self.texture_param(texture, pname).map(param_floats)
    }

    pub(crate) fn try_get_texture_parameter_iiv(
        &mut self,
        texture: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        self.texture_param(texture, pname)
            .map(|v| param_ints(v, true))
    }

    pub(crate) fn try_get_texture_parameter_iuiv(
        &mut self,
        texture: u32,
        pname: u32,
    ) -> GlResult<Vec<u32>> {
        self.texture_param(texture, pname)
            .map(|v| param_ints(v, true).into_iter().map(|i| i as u32).collect())
    }

    pub(crate) fn try_get_texture_level_parameteriv(
        &mut self,
        texture: u32,
        level: i32,
        pname: u32,
    ) -> GlResult<i32> {
        let (r, target) = self.dsa_texture_and_target(texture)?;
        // A cube map answers for its faces, which share size and format: +X's.
        let target = match target {
            gl::TEXTURE_CUBE_MAP => gl::TEXTURE_CUBE_MAP_POSITIVE_X,
            t => t,
        };
        self.level_parameter_of(r, target, level, pname)
    }

    pub(crate) fn try_get_texture_level_parameterfv(
        &mut self,
        texture: u32,
        level: i32,
        pname: u32,
    ) -> GlResult<f32> {
        self.try_get_texture_level_parameteriv(texture, level, pname)
            .map(|v| v as f32)
    }

    pub(crate) fn try_get_tex_level_parameterfv(
        &mut self,
        target: u32,
        level: i32,
        pname: u32,
    ) -> GlResult<f32> {
        self.try_get_tex_level_parameteriv(target, level, pname)
            .map(|v| v as f32)
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Context;
    use crate::gl::enums as gl;

    fn texture(c: &mut Context, target: u32) -> u32 {
        let t = c.gen_textures(1)[0];
        c.bind_texture(target, t);
        t
    }

    #[test]
    fn bind_texture_unit_binds_on_the_texture_target_and_zero_unbinds_all() {
        let mut c = Context::new(4, 4);
        let t2 = texture(&mut c, gl::TEXTURE_2D);
        let tc = texture(&mut c, gl::TEXTURE_CUBE_MAP);
        c.bind_texture(gl::TEXTURE_2D, 0);
        c.bind_texture(gl::TEXTURE_CUBE_MAP, 0);
        c.bind_texture_unit(3, t2);
        c.bind_texture_unit(3, tc);
        c.active_texture(gl::TEXTURE0 + 3);
        assert_eq!(c.get_integerv(gl::TEXTURE_BINDING_2D)[0], t2 as i32);
        assert_eq!(c.get_integerv(gl::TEXTURE_BINDING_CUBE_MAP)[0], tc as i32);
        c.bind_texture_unit(3, 0);
        assert_eq!(c.get_integerv(gl::TEXTURE_BINDING_2D)[0], 0);
        assert_eq!(c.get_integerv(gl::TEXTURE_BINDING_CUBE_MAP)[0], 0);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        // A name never made a texture: INVALID_OPERATION; a unit past the limit:
        // INVALID_VALUE.
        c.bind_texture_unit(0, 999);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.bind_texture_unit(1 << 20, t2);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
    }

    #[test]
    fn bind_textures_binds_what_it_can_and_reports_the_rest() {
        let mut c = Context::new(4, 4);
        let a = texture(&mut c, gl::TEXTURE_2D);
        let b = texture(&mut c, gl::TEXTURE_3D);
        c.bind_textures(0, 3, Some(&[a, 12345, b]));
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.active_texture(gl::TEXTURE0 + 2);
        assert_eq!(c.get_integerv(gl::TEXTURE_BINDING_3D)[0], b as i32);
        c.bind_textures(0, 3, None);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(c.get_integerv(gl::TEXTURE_BINDING_3D)[0], 0);
        c.bind_textures(u32::MAX, 2, None);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        let s = c.create_samplers(1)[0];
        c.bind_samplers(1, 2, Some(&[s, 77]));
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        assert_eq!(
            c.get_integerv(gl::SAMPLER_BINDING)[0],
            0,
            "unit 2 keeps none"
        );
        c.active_texture(gl::TEXTURE0 + 1);
        assert_eq!(c.get_integerv(gl::SAMPLER_BINDING)[0], s as i32);
    }

    #[test]
    fn dsa_queries_answer_for_the_named_texture() {
        let mut c = Context::new(4, 4);
        let t = texture(&mut c, gl::TEXTURE_CUBE_MAP);
        c.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 3, gl::RGBA8, 8, 8);
        c.tex_parameter_i(
            gl::TEXTURE_CUBE_MAP,
            gl::TEXTURE_MIN_FILTER,
            gl::NEAREST as i32,
        );
        c.bind_texture(gl::TEXTURE_CUBE_MAP, 0);
        let v = c.get_texture_parameteriv(t, gl::TEXTURE_MIN_FILTER);
        assert_eq!(v, vec![gl::NEAREST as i32]);
        assert_eq!(
            c.get_texture_parameteriv(t, gl::TEXTURE_IMMUTABLE_LEVELS),
            vec![3]
        );
        assert_eq!(c.get_texture_level_parameteriv(t, 1, gl::TEXTURE_WIDTH), 4);
        assert_eq!(c.get_texture_level_parameteriv(t, 1, gl::TEXTURE_DEPTH), 1);
        assert_eq!(
            c.get_texture_level_parameterfv(t, 0, gl::TEXTURE_INTERNAL_FORMAT),
            gl::RGBA8 as f32
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.get_texture_parameterfv(4242, gl::TEXTURE_MIN_FILTER);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.get_texture_level_parameteriv(t, 0, gl::TEXTURE_MIN_FILTER);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
    }

    #[test]
    fn generate_texture_mipmap_fills_the_levels_of_the_named_texture() {
        let mut c = Context::new(4, 4);
        let t = texture(&mut c, gl::TEXTURE_2D);
        let texels = [255u8; 4 * 4 * 4];
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            4,
            4,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&texels),
        );
        c.bind_texture(gl::TEXTURE_2D, 0);
        c.generate_texture_mipmap(t);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(c.get_texture_level_parameteriv(t, 2, gl::TEXTURE_WIDTH), 1);
        let r = texture(&mut c, gl::TEXTURE_RECTANGLE);
        c.generate_texture_mipmap(r);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    }
}
