//! Vertex array objects and generic vertex attributes (GL 4.5 core chapter 10): attribute
//! array state, the element array binding, divisors, and the current attribute values used
//! for disabled arrays.

use crate::api::context::{limits, Context};
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

impl Context {
    /// glGenVertexArrays.
    pub fn gen_vertex_arrays(&mut self, n: i32) -> Vec<u32> {
        self.new_names(n, |this| this.vertex_arrays.gen().map(|v| v.0))
    }

    /// glCreateVertexArrays.
    pub fn create_vertex_arrays(&mut self, n: i32) -> Vec<u32> {
        self.new_names(n, |this| {
            this.vertex_arrays
                .create(VertexArray::default())
                .map(|v| v.0)
        })
    }

    /// glIsVertexArray.
    pub fn is_vertex_array(&self, array: u32) -> bool {
        self.vertex_arrays.get(VertexArrayName(array)).is_some()
    }

    /// glBindVertexArray.
    pub fn bind_vertex_array(&mut self, array: u32) {
        self.with_group(|this| {
            if array == 0 {
                this.vertex_array = None;
                return;
            }
            let name = VertexArrayName(array);
            if !this.vertex_arrays.ensure(name, VertexArray::default) {
                return this.record(GlError::InvalidOperation("not a vertex array name"));
            }
            this.vertex_array = Some(name);
        })
    }

    /// glDeleteVertexArrays: the bound one reverts to 0.
    pub fn delete_vertex_arrays(&mut self, arrays: &[u32]) {
        self.with_group(|this| {
            for &a in arrays {
                let name = VertexArrayName(a);
                if this.vertex_array == Some(name) {
                    this.vertex_array = None;
                }
                this.vertex_arrays.remove(name);
            }
        })
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

    /// glVertexAttribPointer.
    pub fn vertex_attrib_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        stride: i32,
        offset: usize,
    ) {
        self.with_group(|this| {
            let r = this.attrib_pointer(
                index,
                size,
                ty,
                normalized,
                stride,
                offset,
                AttribMode::Float,
            );
            this.gl(r)
        })
    }

    /// glVertexAttribIPointer.
    pub fn vertex_attrib_i_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        stride: i32,
        offset: usize,
    ) {
        self.with_group(|this| {
            let r =
                this.attrib_pointer(index, size, ty, false, stride, offset, AttribMode::Integer);
            this.gl(r)
        })
    }

    /// glVertexAttribLPointer.
    pub fn vertex_attrib_l_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        stride: i32,
        offset: usize,
    ) {
        self.with_group(|this| {
            let r = this.attrib_pointer(index, size, ty, false, stride, offset, AttribMode::Long);
            this.gl(r)
        })
    }

    fn set_enabled(&mut self, index: u32, on: bool) -> GlResult<()> {
        let i = Self::check_index(index)?;
        self.current_vao()?.attribs[i].enabled = on;
        Ok(())
    }

    /// glEnableVertexAttribArray.
    pub fn enable_vertex_attrib_array(&mut self, index: u32) {
        self.with_group(|this| {
            let r = this.set_enabled(index, true);
            this.gl(r)
        })
    }

    /// glDisableVertexAttribArray.
    pub fn disable_vertex_attrib_array(&mut self, index: u32) {
        self.with_group(|this| {
            let r = this.set_enabled(index, false);
            this.gl(r)
        })
    }

    /// glVertexAttribDivisor.
    pub fn vertex_attrib_divisor(&mut self, index: u32, divisor: u32) {
        self.with_group(|this| {
            let r = (|| {
                let i = Self::check_index(index)?;
                this.current_vao()?.attribs[i].divisor = divisor;
                Ok(())
            })();
            this.gl(r)
        })
    }

    fn set_current(&mut self, index: u32, words: [u32; 4]) {
        match Self::check_index(index) {
            Ok(i) => self.current_attribs[i] = words,
            Err(e) => self.record(e),
        }
    }

    /// glVertexAttrib1f.
    pub fn vertex_attrib_1f(&mut self, index: u32, x: f32) {
        self.with_group(|this| this.vertex_attrib_4f(index, x, 0.0, 0.0, 1.0))
    }
    /// glVertexAttrib2f.
    pub fn vertex_attrib_2f(&mut self, index: u32, x: f32, y: f32) {
        self.with_group(|this| this.vertex_attrib_4f(index, x, y, 0.0, 1.0))
    }
    /// glVertexAttrib3f.
    pub fn vertex_attrib_3f(&mut self, index: u32, x: f32, y: f32, z: f32) {
        self.with_group(|this| this.vertex_attrib_4f(index, x, y, z, 1.0))
    }
    /// glVertexAttrib4f.
    pub fn vertex_attrib_4f(&mut self, index: u32, x: f32, y: f32, z: f32, w: f32) {
        self.with_group(|this| this.set_current(index, [x, y, z, w].map(f32::to_bits)))
    }
    /// glVertexAttrib4fv.
    pub fn vertex_attrib_4fv(&mut self, index: u32, v: &[f32]) {
        self.with_group(|this| {
            if v.len() < 4 {
                return this.record(GlError::InvalidValue("need 4 values"));
            }
            this.vertex_attrib_4f(index, v[0], v[1], v[2], v[3])
        })
    }
    /// glVertexAttribI4i.
    pub fn vertex_attrib_i4i(&mut self, index: u32, x: i32, y: i32, z: i32, w: i32) {
        self.with_group(|this| this.set_current(index, [x as u32, y as u32, z as u32, w as u32]))
    }
    /// glVertexAttribI4ui.
    pub fn vertex_attrib_i4ui(&mut self, index: u32, x: u32, y: u32, z: u32, w: u32) {
        self.with_group(|this| this.set_current(index, [x, y, z, w]))
    }
    /// glVertexAttribL1ui64ARB (ARB_bindless_texture): words 0..2 hold the handle, low first.
    pub fn vertex_attrib_l1ui64_arb(&mut self, index: u32, x: u64) {
        self.with_group(|this| this.set_current(index, [x as u32, (x >> 32) as u32, 0, 0]))
    }
    /// glVertexAttribL1ui64vARB.
    pub fn vertex_attrib_l1ui64v_arb(&mut self, index: u32, v: &[u64]) {
        self.with_group(|this| match v.first() {
            Some(&x) => this.vertex_attrib_l1ui64_arb(index, x),
            None => this.record(GlError::InvalidValue("need 1 value")),
        })
    }
    /// glGetVertexAttribLui64vARB: only GL_CURRENT_VERTEX_ATTRIB.
    pub fn get_vertex_attrib_lui64v_arb(&mut self, index: u32, pname: u32) -> u64 {
        self.with_group(|this| {
            let r = (|| {
                let i = Self::check_index(index)?;
                if pname != gl::CURRENT_VERTEX_ATTRIB {
                    return Err(GlError::InvalidEnum("pname"));
                }
                let w = this.current_attribs[i];
                Ok(w[0] as u64 | (w[1] as u64) << 32)
            })();
            this.gl(r)
        })
    }

    /// glGetVertexAttribfv with GL_CURRENT_VERTEX_ATTRIB.
    pub fn get_vertex_attribfv(&mut self, index: u32, pname: u32) -> Vec<f32> {
        self.with_group(|this| {
            let r = (|| {
                let i = Self::check_index(index)?;
                if pname != gl::CURRENT_VERTEX_ATTRIB {
                    return Err(GlError::InvalidEnum("pname"));
                }
                Ok(this.current_attribs[i].map(f32::from_bits).to_vec())
            })();
            this.gl(r)
        })
    }

    /// glGetVertexAttribiv for the array state (GL 4.5 core table 23.3).
    pub fn get_vertex_attribiv(&mut self, index: u32, pname: u32) -> i32 {
        self.with_group(|this| {
            let r = (|| {
                let i = Self::check_index(index)?;
                let a = this.current_vao()?.attribs[i];
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
                    _ => return Err(GlError::InvalidEnum("pname")),
                })
            })();
            this.gl(r)
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
