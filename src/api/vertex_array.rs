//! Vertex array objects and generic vertex attributes (GL 4.5 core chapter 10): attribute
//! array state, the element array binding, divisors, and the current attribute values used
//! for disabled arrays.

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{BufferName, VertexArrayName};
use crate::gl::enums as gl;
use crate::gl::AttribType;
use crate::raster::AttribMode;

/// One generic attribute array (GL 4.5 core table 23.3).
#[derive(Copy, Clone, Debug)]
pub(crate) struct AttribArray {
    pub enabled: bool,
    pub size: u8,
    pub ty: AttribType,
    pub normalized: bool,
    pub mode: AttribMode,
    /// As specified (0 = tightly packed).
    pub stride: i32,
    pub offset: usize,
    pub buffer: Option<BufferName>,
    pub divisor: u32,
}

impl Default for AttribArray {
    fn default() -> Self {
        AttribArray {
            enabled: false,
            size: 4,
            ty: AttribType::Float,
            normalized: false,
            mode: AttribMode::Float,
            stride: 0,
            offset: 0,
            buffer: None,
            divisor: 0,
        }
    }
}

impl AttribArray {
    /// Stride in bytes with 0 resolved to the packed size (GL 4.5 core §10.3.1).
    pub fn effective_stride(&self) -> usize {
        if self.stride != 0 {
            return self.stride as usize;
        }
        if self.ty.is_packed() {
            return 4;
        }
        self.size as usize * self.ty.size_bytes() as usize
    }
}

/// A vertex array object.
#[derive(Clone, Debug, Default)]
pub(crate) struct VertexArray {
    pub attribs: [AttribArray; limits::MAX_VERTEX_ATTRIBS as usize],
    pub element_buffer: Option<BufferName>,
}

impl VertexArray {
    pub fn unbind_buffer(&mut self, name: BufferName) {
        if self.element_buffer == Some(name) {
            self.element_buffer = None;
        }
        for a in &mut self.attribs {
            if a.buffer == Some(name) {
                a.buffer = None;
            }
        }
    }
}

gl_commands! {
    /// glGenVertexArrays.
    "glGenVertexArrays" fn gen_vertex_arrays(n: i32) -> Vec<u32> = try_gen_vertex_arrays;
    /// glCreateVertexArrays.
    "glCreateVertexArrays" fn create_vertex_arrays(n: i32) -> Vec<u32> = try_create_vertex_arrays;
    /// glBindVertexArray.
    "glBindVertexArray" fn bind_vertex_array(array: u32) = try_bind_vertex_array;
    /// glDeleteVertexArrays: the bound one reverts to 0.
    "glDeleteVertexArrays" fn delete_vertex_arrays(arrays: &[u32]) = try_delete_vertex_arrays;
    /// glVertexAttribPointer.
    "glVertexAttribPointer"
    fn vertex_attrib_pointer(
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        stride: i32,
        offset: usize,
    ) = try_vertex_attrib_pointer;
    /// glVertexAttribIPointer.
    "glVertexAttribIPointer"
    fn vertex_attrib_i_pointer(index: u32, size: i32, ty: u32, stride: i32, offset: usize)
        = try_vertex_attrib_i_pointer;
    /// glVertexAttribLPointer.
    "glVertexAttribLPointer"
    fn vertex_attrib_l_pointer(index: u32, size: i32, ty: u32, stride: i32, offset: usize)
        = try_vertex_attrib_l_pointer;
    /// glEnableVertexAttribArray.
    "glEnableVertexAttribArray"
    fn enable_vertex_attrib_array(index: u32) = try_enable_vertex_attrib_array;
    /// glDisableVertexAttribArray.
    "glDisableVertexAttribArray"
    fn disable_vertex_attrib_array(index: u32) = try_disable_vertex_attrib_array;
    /// glVertexAttribDivisor.
    "glVertexAttribDivisor"
    fn vertex_attrib_divisor(index: u32, divisor: u32) = try_vertex_attrib_divisor;
    /// glVertexAttrib1f.
    "glVertexAttrib1f" fn vertex_attrib_1f(index: u32, x: f32) = try_vertex_attrib_1f;
    /// glVertexAttrib2f.
    "glVertexAttrib2f" fn vertex_attrib_2f(index: u32, x: f32, y: f32) = try_vertex_attrib_2f;
    /// glVertexAttrib3f.
    "glVertexAttrib3f"
    fn vertex_attrib_3f(index: u32, x: f32, y: f32, z: f32) = try_vertex_attrib_3f;
    /// glVertexAttrib4f.
    "glVertexAttrib4f"
    fn vertex_attrib_4f(index: u32, x: f32, y: f32, z: f32, w: f32) = try_vertex_attrib_4f;
    /// glVertexAttrib4fv.
    "glVertexAttrib4fv" fn vertex_attrib_4fv(index: u32, v: &[f32]) = try_vertex_attrib_4fv;
    /// glVertexAttribI4i.
    "glVertexAttribI4i"
    fn vertex_attrib_i4i(index: u32, x: i32, y: i32, z: i32, w: i32) = try_vertex_attrib_i4i;
    /// glVertexAttribI4ui.
    "glVertexAttribI4ui"
    fn vertex_attrib_i4ui(index: u32, x: u32, y: u32, z: u32, w: u32) = try_vertex_attrib_i4ui;
    /// glVertexAttribL1ui64ARB (ARB_bindless_texture): words 0..2 hold the handle, low first.
    "glVertexAttribL1ui64ARB"
    fn vertex_attrib_l1ui64_arb(index: u32, x: u64) = try_vertex_attrib_l1ui64_arb;
    /// glVertexAttribL1ui64vARB.
    "glVertexAttribL1ui64vARB"
    fn vertex_attrib_l1ui64v_arb(index: u32, v: &[u64]) = try_vertex_attrib_l1ui64v_arb;
    /// glGetVertexAttribLui64vARB: only GL_CURRENT_VERTEX_ATTRIB.
    "glGetVertexAttribLui64vARB"
    fn get_vertex_attrib_lui64v_arb(index: u32, pname: u32) -> u64
        = try_get_vertex_attrib_lui64v_arb;
    /// glGetVertexAttribfv with GL_CURRENT_VERTEX_ATTRIB.
    "glGetVertexAttribfv"
    fn get_vertex_attribfv(index: u32, pname: u32) -> Vec<f32> = try_get_vertex_attribfv;
    /// glGetVertexAttribiv for the array state (GL 4.5 core table 23.3).
    "glGetVertexAttribiv"
    fn get_vertex_attribiv(index: u32, pname: u32) -> i32 = try_get_vertex_attribiv;
}

impl Context {
    pub(crate) fn try_gen_vertex_arrays(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| this.vertex_arrays.gen_many(n))
    }

    pub(crate) fn try_create_vertex_arrays(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| {
            this.vertex_arrays.create_many(n, VertexArray::default)
        })
    }

    /// glIsVertexArray.
    pub fn is_vertex_array(&self, array: u32) -> bool {
        self.vertex_arrays.get(VertexArrayName(array)).is_some()
    }

    pub(crate) fn try_bind_vertex_array(&mut self, array: u32) -> GlResult<()> {
        if array == 0 {
            self.vertex_array = None;
            return Ok(());
        }
        let name = VertexArrayName(array);
        if !self.vertex_arrays.ensure(name, VertexArray::default) {
            return Err(GlError::InvalidOperation("not a vertex array name"));
        }
        self.vertex_array = Some(name);
        Ok(())
    }

    pub(crate) fn try_delete_vertex_arrays(&mut self, arrays: &[u32]) -> GlResult<()> {
        for &a in arrays {
            let name = VertexArrayName(a);
            if self.vertex_array == Some(name) {
                self.vertex_array = None;
            }
            self.vertex_arrays.remove(name);
        }
        Ok(())
    }

    fn current_vao(&mut self) -> GlResult<&mut VertexArray> {
        let v = self.vertex_array.ok_or(GlError::InvalidOperation(
            "no vertex array object bound (core profile)",
        ))?;
        self.vertex_arrays
            .get_mut(v)
            .ok_or(GlError::InvalidOperation("no vertex array object bound"))
    }

    fn check_index(index: u32) -> GlResult<usize> {
        if index >= limits::MAX_VERTEX_ATTRIBS {
            return Err(GlError::InvalidValue("index past GL_MAX_VERTEX_ATTRIBS"));
        }
        Ok(index as usize)
    }

    #[allow(clippy::too_many_arguments)]
    fn attrib_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        stride: i32,
        offset: usize,
        mode: AttribMode,
    ) -> GlResult<()> {
        let i = Self::check_index(index)?;
        if !(1..=4).contains(&size) {
            return Err(GlError::InvalidValue("size must be 1..4"));
        }
        if !(0..=limits::MAX_VERTEX_ATTRIB_STRIDE).contains(&stride) {
            return Err(GlError::InvalidValue("stride out of range"));
        }
        use AttribType as T;
        let ok = AttribType::from_gl(ty).filter(|&t| match mode {
            // Packed (2_10_10_10, 10F_11F_11F) and GL_FIXED types are valid GL but not
            // implemented by vertex fetch: refused rather than drawn wrongly.
            AttribMode::Float => matches!(
                t,
                T::Byte
                    | T::UnsignedByte
                    | T::Short
                    | T::UnsignedShort
                    | T::Int
                    | T::UnsignedInt
                    | T::HalfFloat
                    | T::Float
                    | T::Double
            ),
            AttribMode::Integer => matches!(
                t,
                T::Byte | T::UnsignedByte | T::Short | T::UnsignedShort | T::Int | T::UnsignedInt
            ),
            // ARB_bindless_texture adds UNSIGNED_INT64_ARB to VertexAttribLPointer.
            AttribMode::Long => matches!(t, T::Double | T::UnsignedInt64),
        });
        let Some(ty) = ok else {
            return Err(GlError::InvalidEnum("vertex attribute type"));
        };
        // GL 4.5 core §10.3.1: a non-zero offset with no ARRAY_BUFFER bound is an error in
        // the core profile (client arrays do not exist).
        let buffer = self.array_buffer;
        if buffer.is_none() && offset != 0 {
            return Err(GlError::InvalidOperation("no GL_ARRAY_BUFFER bound"));
        }
        let vao = self.current_vao()?;
        let a = &mut vao.attribs[i];
        a.size = size as u8;
        a.ty = ty;
        a.normalized = normalized && mode == AttribMode::Float;
        a.stride = stride;
        a.offset = offset;
        a.buffer = buffer;
        a.mode = mode;
        Ok(())
    }

    pub(crate) fn try_vertex_attrib_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        stride: i32,
        offset: usize,
    ) -> GlResult<()> {
        let mode = AttribMode::Float;
        self.attrib_pointer(index, size, ty, normalized, stride, offset, mode)
    }

    pub(crate) fn try_vertex_attrib_i_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        stride: i32,
        offset: usize,
    ) -> GlResult<()> {
        self.attrib_pointer(index, size, ty, false, stride, offset, AttribMode::Integer)
    }

    pub(crate) fn try_vertex_attrib_l_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        stride: i32,
        offset: usize,
    ) -> GlResult<()> {
        self.attrib_pointer(index, size, ty, false, stride, offset, AttribMode::Long)
    }

    fn set_enabled(&mut self, index: u32, on: bool) -> GlResult<()> {
        let i = Self::check_index(index)?;
        self.current_vao()?.attribs[i].enabled = on;
        Ok(())
    }

    pub(crate) fn try_enable_vertex_attrib_array(&mut self, index: u32) -> GlResult<()> {
        self.set_enabled(index, true)
    }

    pub(crate) fn try_disable_vertex_attrib_array(&mut self, index: u32) -> GlResult<()> {
        self.set_enabled(index, false)
    }

    pub(crate) fn try_vertex_attrib_divisor(&mut self, index: u32, divisor: u32) -> GlResult<()> {
        let i = Self::check_index(index)?;
        self.current_vao()?.attribs[i].divisor = divisor;
        Ok(())
    }

    /// The current value of generic attribute `index` (GL 4.5 core §10.2), as 4 words.
    fn set_current(&mut self, index: u32, words: [u32; 4]) -> GlResult<()> {
        let i = Self::check_index(index)?;
        self.current_attribs[i] = words;
        Ok(())
    }

    pub(crate) fn try_vertex_attrib_1f(&mut self, index: u32, x: f32) -> GlResult<()> {
        self.try_vertex_attrib_4f(index, x, 0.0, 0.0, 1.0)
    }
    pub(crate) fn try_vertex_attrib_2f(&mut self, index: u32, x: f32, y: f32) -> GlResult<()> {
        self.try_vertex_attrib_4f(index, x, y, 0.0, 1.0)
    }
    pub(crate) fn try_vertex_attrib_3f(
        &mut self,
        index: u32,
        x: f32,
        y: f32,
        z: f32,
    ) -> GlResult<()> {
        self.try_vertex_attrib_4f(index, x, y, z, 1.0)
    }
    pub(crate) fn try_vertex_attrib_4f(
        &mut self,
        index: u32,
        x: f32,
        y: f32,
        z: f32,
        w: f32,
    ) -> GlResult<()> {
        self.set_current(index, [x, y, z, w].map(f32::to_bits))
    }
    pub(crate) fn try_vertex_attrib_4fv(&mut self, index: u32, v: &[f32]) -> GlResult<()> {
        if v.len() < 4 {
            return Err(GlError::InvalidValue("need 4 values"));
        }
        self.try_vertex_attrib_4f(index, v[0], v[1], v[2], v[3])
    }
    pub(crate) fn try_vertex_attrib_i4i(
        &mut self,
        index: u32,
        x: i32,
        y: i32,
        z: i32,
        w: i32,
    ) -> GlResult<()> {
        self.set_current(index, [x as u32, y as u32, z as u32, w as u32])
    }
    pub(crate) fn try_vertex_attrib_i4ui(
        &mut self,
        index: u32,
        x: u32,
        y: u32,
        z: u32,
        w: u32,
    ) -> GlResult<()> {
        self.set_current(index, [x, y, z, w])
    }
    pub(crate) fn try_vertex_attrib_l1ui64_arb(&mut self, index: u32, x: u64) -> GlResult<()> {
        self.set_current(index, [x as u32, (x >> 32) as u32, 0, 0])
    }
    pub(crate) fn try_vertex_attrib_l1ui64v_arb(&mut self, index: u32, v: &[u64]) -> GlResult<()> {
        match v.first() {
            Some(&x) => self.try_vertex_attrib_l1ui64_arb(index, x),
            None => Err(GlError::InvalidValue("need 1 value")),
        }
    }
    pub(crate) fn try_get_vertex_attrib_lui64v_arb(
        &mut self,
        index: u32,
        pname: u32,
    ) -> GlResult<u64> {
        let i = Self::check_index(index)?;
        if pname != gl::CURRENT_VERTEX_ATTRIB {
            return Err(GlError::BadEnum("pname", pname));
        }
        let w = self.current_attribs[i];
        Ok(w[0] as u64 | (w[1] as u64) << 32)
    }

    pub(crate) fn try_get_vertex_attribfv(&mut self, index: u32, pname: u32) -> GlResult<Vec<f32>> {
        let i = Self::check_index(index)?;
        if pname != gl::CURRENT_VERTEX_ATTRIB {
            return Err(GlError::BadEnum("pname", pname));
        }
        Ok(self.current_attribs[i].map(f32::from_bits).to_vec())
    }

    pub(crate) fn try_get_vertex_attribiv(&mut self, index: u32, pname: u32) -> GlResult<i32> {
        let i = Self::check_index(index)?;
        let a = self.current_vao()?.attribs[i];
        Ok(match pname {
            gl::VERTEX_ATTRIB_ARRAY_ENABLED => a.enabled as i32,
            gl::VERTEX_ATTRIB_ARRAY_SIZE => a.size as i32,
            gl::VERTEX_ATTRIB_ARRAY_STRIDE => a.stride,
            gl::VERTEX_ATTRIB_ARRAY_TYPE => a.ty.to_gl() as i32,
            gl::VERTEX_ATTRIB_ARRAY_NORMALIZED => a.normalized as i32,
            gl::VERTEX_ATTRIB_ARRAY_INTEGER => (a.mode == AttribMode::Integer) as i32,
            gl::VERTEX_ATTRIB_ARRAY_LONG => (a.mode == AttribMode::Long) as i32,
            gl::VERTEX_ATTRIB_ARRAY_DIVISOR => a.divisor as i32,
            gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING => a.buffer.map_or(0, |b| b.0 as i32),
            _ => return Err(GlError::BadEnum("pname", pname)),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Context;
    use crate::gl::enums as gl;

    #[test]
    fn attribs_need_a_vao_and_valid_arguments() {
        let mut c = Context::with_threads(4, 4, 1);
        c.enable_vertex_attrib_array(0);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "VAO 0 in core");
        let v = c.gen_vertex_arrays(1)[0];
        c.bind_vertex_array(v);
        c.vertex_attrib_pointer(0, 3, gl::FLOAT, false, 0, 16);
        assert_eq!(
            c.get_error(),
            gl::INVALID_OPERATION,
            "offset without ARRAY_BUFFER"
        );
        let b = c.gen_buffers(1)[0];
        c.bind_buffer(gl::ARRAY_BUFFER, b);
        c.vertex_attrib_pointer(0, 5, gl::FLOAT, false, 0, 0);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.vertex_attrib_pointer(16, 4, gl::FLOAT, false, 0, 0);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.vertex_attrib_i_pointer(1, 2, gl::FLOAT, 0, 0);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.vertex_attrib_l_pointer(2, 1, gl::UNSIGNED_INT64_ARB, 0, 8);
        c.enable_vertex_attrib_array(2);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(c.get_vertex_attribiv(2, gl::VERTEX_ATTRIB_ARRAY_LONG), 1);
        assert_eq!(
            c.get_vertex_attribiv(2, gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING),
            b as i32
        );
        c.vertex_attrib_l1ui64_arb(3, 0x1234_5678_9abc_def0);
        assert_eq!(
            c.get_vertex_attrib_lui64v_arb(3, gl::CURRENT_VERTEX_ATTRIB),
            0x1234_5678_9abc_def0
        );
        c.vertex_attrib_4f(1, 1.0, 2.0, 3.0, 4.0);
        assert_eq!(
            c.get_vertex_attribfv(1, gl::CURRENT_VERTEX_ATTRIB),
            vec![1.0, 2.0, 3.0, 4.0]
        );
    }
}
