//! Vertex array objects and generic vertex attributes (GL 4.5 core chapter 10): attribute
//! formats and vertex buffer binding points (ARB_vertex_attrib_binding, §10.3.1–§10.3.2,
//! with glVertexAttrib*Pointer expressed on top of them as §10.3.2 defines), the element
//! array binding, divisors, the DSA forms on named VAOs, and the current attribute values
//! used for disabled arrays (§10.2, `attrib_value.rs`).

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{BufferName, VertexArrayName};
use crate::gl::enums as gl;
use crate::gl::AttribType;
use crate::raster::AttribMode;

/// GL_MAX_VERTEX_ATTRIB_BINDINGS (GL 4.5 core table 23.55: at least 16).
pub(crate) const MAX_VERTEX_ATTRIB_BINDINGS: u32 = 16;
/// GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET (table 23.55: at least 2047).
pub(crate) const MAX_VERTEX_ATTRIB_RELATIVE_OFFSET: u32 = 2047;

/// The format of one generic attribute (GL 4.5 core table 23.3) and the binding point it
/// reads.
#[derive(Copy, Clone, Debug)]
pub(crate) struct AttribFormat {
    pub enabled: bool,
    pub size: u8,
    pub ty: AttribType,
    pub normalized: bool,
    pub mode: AttribMode,
    /// Bytes from the binding's offset to this attribute's first component.
    pub relative_offset: u32,
    /// The vertex buffer binding point it reads (VERTEX_ATTRIB_BINDING).
    pub binding: u8,
    /// VERTEX_ATTRIB_ARRAY_STRIDE: the stride as glVertexAttrib*Pointer was given it (0 =
    /// tightly packed); the binding holds the stride fetch uses.
    pub pointer_stride: i32,
}

/// One vertex buffer binding point (GL 4.5 core table 23.4).
#[derive(Copy, Clone, Debug)]
pub(crate) struct VertexBinding {
    pub buffer: Option<BufferName>,
    pub offset: i64,
    /// Bytes between elements, as given: 0 reads the same element for every vertex.
    pub stride: i32,
    pub divisor: u32,
}

impl Default for VertexBinding {
    fn default() -> Self {
        // Table 23.4: VERTEX_BINDING_STRIDE starts at 16.
        VertexBinding {
            buffer: None,
            offset: 0,
            stride: 16,
            divisor: 0,
        }
    }
}

/// One attribute with its binding resolved: what a draw fetches through.
#[derive(Copy, Clone, Debug)]
pub(crate) struct AttribArray {
    pub enabled: bool,
    pub size: u8,
    pub ty: AttribType,
    pub normalized: bool,
    pub mode: AttribMode,
    /// Stride in bytes fetch uses (the binding's).
    pub stride: usize,
    /// Binding offset + relative offset.
    pub offset: usize,
    pub buffer: Option<BufferName>,
    pub divisor: u32,
}

/// A vertex array object.
#[derive(Clone, Debug)]
pub(crate) struct VertexArray {
    pub attribs: [AttribFormat; limits::MAX_VERTEX_ATTRIBS as usize],
    pub bindings: [VertexBinding; MAX_VERTEX_ATTRIB_BINDINGS as usize],
    pub element_buffer: Option<BufferName>,
}

impl Default for VertexArray {
    fn default() -> Self {
        // Table 23.3: attribute i reads binding i.
        let attribs = std::array::from_fn(|i| AttribFormat {
            enabled: false,
            size: 4,
            ty: AttribType::Float,
            normalized: false,
            mode: AttribMode::Float,
            relative_offset: 0,
            binding: i as u8,
            pointer_stride: 0,
        });
        VertexArray {
            attribs,
            bindings: [VertexBinding::default(); MAX_VERTEX_ATTRIB_BINDINGS as usize],
            element_buffer: None,
        }
    }
}

impl VertexArray {
    pub fn unbind_buffer(&mut self, name: BufferName) {
        if self.element_buffer == Some(name) {
            self.element_buffer = None;
        }
        for b in &mut self.bindings {
            if b.buffer == Some(name) {
                b.buffer = None;
            }
        }
    }

    /// Attribute `loc` as a draw reads it: its format with its binding's buffer, offset,
    /// stride and divisor (GL 4.5 core §10.3.2: the address of element i is the binding's
    /// offset + relative offset + i × the binding's stride).
    pub fn array(&self, loc: usize) -> Option<AttribArray> {
        let a = self.attribs.get(loc)?;
        let b = self.bindings[a.binding as usize];
        Some(AttribArray {
            enabled: a.enabled,
            size: a.size,
            ty: a.ty,
            normalized: a.normalized,
            mode: a.mode,
            stride: b.stride.max(0) as usize,
            offset: (b.offset.max(0) as usize).saturating_add(a.relative_offset as usize),
            buffer: b.buffer,
            divisor: b.divisor,
        })
    }
}

/// Which VAO a command acts on: the bound one, or a named one (the DSA forms).
#[derive(Copy, Clone, Debug)]
enum Vao {
    Bound,
    Named(u32),
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
    /// glVertexAttribPointer: glVertexAttribFormat, glVertexAttribBinding(index, index) and
    /// glBindVertexBuffer(index, ARRAY_BUFFER, pointer, effective stride) (§10.3.2).
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
    /// glVertexAttribDivisor: glVertexAttribBinding(index, index) and
    /// glVertexBindingDivisor(index, divisor) (§10.3.2).
    "glVertexAttribDivisor"
    fn vertex_attrib_divisor(index: u32, divisor: u32) = try_vertex_attrib_divisor;
    /// glBindVertexBuffer (GL 4.5 core §10.3.1).
    "glBindVertexBuffer"
    fn bind_vertex_buffer(binding: u32, buffer: u32, offset: isize, stride: i32)
        = try_bind_vertex_buffer;
    /// glBindVertexBuffers (ARB_multi_bind): `buffers` None resets the `count` bindings.
    "glBindVertexBuffers"
    fn bind_vertex_buffers(
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        offsets: &[isize],
        strides: &[i32],
    ) = try_bind_vertex_buffers;
    /// glVertexAttribFormat.
    "glVertexAttribFormat"
    fn vertex_attrib_format(index: u32, size: i32, ty: u32, normalized: bool, relative: u32)
        = try_vertex_attrib_format;
    /// glVertexAttribIFormat.
    "glVertexAttribIFormat"
    fn vertex_attrib_i_format(index: u32, size: i32, ty: u32, relative: u32)
        = try_vertex_attrib_i_format;
    /// glVertexAttribLFormat.
    "glVertexAttribLFormat"
    fn vertex_attrib_l_format(index: u32, size: i32, ty: u32, relative: u32)
        = try_vertex_attrib_l_format;
    /// glVertexAttribBinding.
    "glVertexAttribBinding"
    fn vertex_attrib_binding(index: u32, binding: u32) = try_vertex_attrib_binding;
    /// glVertexBindingDivisor.
    "glVertexBindingDivisor"
    fn vertex_binding_divisor(binding: u32, divisor: u32) = try_vertex_binding_divisor;
    /// glVertexArrayVertexBuffer.
    "glVertexArrayVertexBuffer"
    fn vertex_array_vertex_buffer(vaobj: u32, binding: u32, buffer: u32, offset: isize, stride: i32)
        = try_vertex_array_vertex_buffer;
    /// glVertexArrayVertexBuffers.
    "glVertexArrayVertexBuffers"
    fn vertex_array_vertex_buffers(
        vaobj: u32,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        offsets: &[isize],
        strides: &[i32],
    ) = try_vertex_array_vertex_buffers;
    /// glVertexArrayAttribFormat.
    "glVertexArrayAttribFormat"
    fn vertex_array_attrib_format(
        vaobj: u32,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        relative: u32,
    ) = try_vertex_array_attrib_format;
    /// glVertexArrayAttribIFormat.
    "glVertexArrayAttribIFormat"
    fn vertex_array_attrib_i_format(vaobj: u32, index: u32, size: i32, ty: u32, relative: u32)
        = try_vertex_array_attrib_i_format;
    /// glVertexArrayAttribLFormat.
    "glVertexArrayAttribLFormat"
    fn vertex_array_attrib_l_format(vaobj: u32, index: u32, size: i32, ty: u32, relative: u32)
        = try_vertex_array_attrib_l_format;
    /// glVertexArrayAttribBinding.
    "glVertexArrayAttribBinding"
    fn vertex_array_attrib_binding(vaobj: u32, index: u32, binding: u32)
        = try_vertex_array_attrib_binding;
    /// glVertexArrayBindingDivisor.
    "glVertexArrayBindingDivisor"
    fn vertex_array_binding_divisor(vaobj: u32, binding: u32, divisor: u32)
        = try_vertex_array_binding_divisor;
    /// glVertexArrayElementBuffer.
    "glVertexArrayElementBuffer"
    fn vertex_array_element_buffer(vaobj: u32, buffer: u32) = try_vertex_array_element_buffer;
    /// glEnableVertexArrayAttrib.
    "glEnableVertexArrayAttrib"
    fn enable_vertex_array_attrib(vaobj: u32, index: u32) = try_enable_vertex_array_attrib;
    /// glDisableVertexArrayAttrib.
    "glDisableVertexArrayAttrib"
    fn disable_vertex_array_attrib(vaobj: u32, index: u32) = try_disable_vertex_array_attrib;
    /// glGetVertexArrayiv: GL_ELEMENT_ARRAY_BUFFER_BINDING.
    "glGetVertexArrayiv"
    fn get_vertex_arrayiv(vaobj: u32, pname: u32) -> i32 = try_get_vertex_arrayiv;
    /// glGetVertexArrayIndexediv: the attribute state of table 23.3.
    "glGetVertexArrayIndexediv"
    fn get_vertex_array_indexediv(vaobj: u32, index: u32, pname: u32) -> i32
        = try_get_vertex_array_indexediv;
    /// glGetVertexArrayIndexed64iv: GL_VERTEX_BINDING_OFFSET.
    "glGetVertexArrayIndexed64iv"
    fn get_vertex_array_indexed64iv(vaobj: u32, index: u32, pname: u32) -> i64
        = try_get_vertex_array_indexed64iv;
    /// glGetVertexAttribiv for the array state (GL 4.5 core table 23.3).
    "glGetVertexAttribiv"
    fn get_vertex_attribiv(index: u32, pname: u32) -> i32 = try_get_vertex_attribiv;
}

/// GL_INVALID_VALUE unless `index` names a generic attribute.
fn check_index(index: u32) -> GlResult<usize> {
    if index >= limits::MAX_VERTEX_ATTRIBS {
        return Err(GlError::InvalidValue("index past GL_MAX_VERTEX_ATTRIBS"));
    }
    Ok(index as usize)
}

/// GL_INVALID_VALUE unless `binding` names a vertex buffer binding point.
fn check_binding(binding: u32) -> GlResult<usize> {
    if binding >= MAX_VERTEX_ATTRIB_BINDINGS {
        return Err(GlError::InvalidValue(
            "binding index past GL_MAX_VERTEX_ATTRIB_BINDINGS",
        ));
    }
    Ok(binding as usize)
}

/// The checked format of glVertexAttrib*Format / *Pointer (GL 4.5 core §10.3.1 errors):
/// INVALID_VALUE for a size outside 1..4, INVALID_ENUM for a type the command's mode does
/// not take.
fn check_format(size: i32, ty: u32, mode: AttribMode) -> GlResult<(u8, AttribType)> {
    if !(1..=4).contains(&size) {
        return Err(GlError::InvalidValue("size must be 1..4"));
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
    Ok((size as u8, ty))
}

/// GL_INVALID_VALUE for a negative offset, a negative stride or one past
/// GL_MAX_VERTEX_ATTRIB_STRIDE (glBindVertexBuffer and friends).
fn check_offset_stride(offset: isize, stride: i32) -> GlResult<()> {
    if offset < 0 {
        return Err(GlError::InvalidValue("negative offset"));
    }
    if stride < 0 {
        return Err(GlError::InvalidValue("negative stride"));
    }
    if stride > limits::MAX_VERTEX_ATTRIB_STRIDE {
        return Err(GlError::InvalidValue(
            "stride past GL_MAX_VERTEX_ATTRIB_STRIDE",
        ));
    }
    Ok(())
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

    /// The VAO a command acts on: the bound one (none bound is INVALID_OPERATION in the
    /// core profile) or a named one (not an existing VAO is INVALID_OPERATION, GL 4.5 core
    /// §10.3.1 for the DSA forms).
    fn vao_mut(&mut self, which: Vao) -> GlResult<&mut VertexArray> {
        match which {
            Vao::Bound => {
                let v = self.vertex_array.ok_or(GlError::InvalidOperation(
                    "no vertex array object bound (core profile)",
                ))?;
                self.vertex_arrays
                    .get_mut(v)
                    .ok_or(GlError::InvalidOperation("no vertex array object bound"))
            }
            Vao::Named(n) => {
                self.vertex_arrays
                    .get_mut(VertexArrayName(n))
                    .ok_or(GlError::InvalidOperation(
                        "not the name of a vertex array object",
                    ))
            }
        }
    }

    fn vao(&mut self, which: Vao) -> GlResult<&VertexArray> {
        self.vao_mut(which).map(|v| &*v)
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
        let i = check_index(index)?;
        let (size, ty) = check_format(size, ty, mode)?;
        if !(0..=limits::MAX_VERTEX_ATTRIB_STRIDE).contains(&stride) {
            return Err(GlError::InvalidValue("stride out of range"));
        }
        // GL 4.5 core §10.3.1: a non-zero offset with no ARRAY_BUFFER bound is an error in
        // the core profile (client arrays do not exist).
        let buffer = self.array_buffer;
        if buffer.is_none() && offset != 0 {
            return Err(GlError::InvalidOperation("no GL_ARRAY_BUFFER bound"));
        }
        let vao = self.vao_mut(Vao::Bound)?;
        let a = &mut vao.attribs[i];
        a.size = size;
        a.ty = ty;
        a.normalized = normalized && mode == AttribMode::Float;
        a.mode = mode;
        a.relative_offset = 0;
        a.binding = i as u8;
        a.pointer_stride = stride;
        // §10.3.2: stride 0 means tightly packed for the pointer commands only.
        let effective = if stride != 0 {
            stride
        } else if ty.is_packed() {
            4
        } else {
            size as i32 * ty.size_bytes() as i32
        };
        let b = &mut vao.bindings[i];
        b.buffer = buffer;
        b.offset = offset as i64;
        b.stride = effective;
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

    fn set_enabled(&mut self, which: Vao, index: u32, on: bool) -> GlResult<()> {
        let vao = self.vao_mut(which)?;
        vao.attribs[check_index(index)?].enabled = on;
        Ok(())
    }

    pub(crate) fn try_enable_vertex_attrib_array(&mut self, index: u32) -> GlResult<()> {
        check_index(index)?;
        self.set_enabled(Vao::Bound, index, true)
    }

    pub(crate) fn try_disable_vertex_attrib_array(&mut self, index: u32) -> GlResult<()> {
        check_index(index)?;
        self.set_enabled(Vao::Bound, index, false)
    }

    pub(crate) fn try_enable_vertex_array_attrib(
        &mut self,
        vaobj: u32,
        index: u32,
    ) -> GlResult<()> {
        self.set_enabled(Vao::Named(vaobj), index, true)
    }

    pub(crate) fn try_disable_vertex_array_attrib(
        &mut self,
        vaobj: u32,
        index: u32,
    ) -> GlResult<()> {
        self.set_enabled(Vao::Named(vaobj), index, false)
    }

    pub(crate) fn try_vertex_attrib_divisor(&mut self, index: u32, divisor: u32) -> GlResult<()> {
        let i = check_index(index)?;
        let vao = self.vao_mut(Vao::Bound)?;
        vao.attribs[i].binding = i as u8;
        vao.bindings[i].divisor = divisor;
        Ok(())
    }

    /// glBindVertexBuffer and its DSA form.
    fn vertex_buffer(
        &mut self,
        which: Vao,
        binding: u32,
        buffer: u32,
        offset: isize,
        stride: i32,
    ) -> GlResult<()> {
        self.vao(which)?;
        let b = check_binding(binding)?;
        check_offset_stride(offset, stride)?;
        let name = self.buffer_object(buffer)?;
        let vb = &mut self.vao_mut(which)?.bindings[b];
        vb.buffer = name;
        vb.offset = offset as i64;
        vb.stride = stride;
        Ok(())
    }

    /// glBindVertexBuffers and its DSA form (ARB_multi_bind, GL 4.5 core §10.3.1): each
    /// binding is set or refused on its own; the first error is the command's.
    fn vertex_buffers(
        &mut self,
        which: Vao,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        offsets: &[isize],
        strides: &[i32],
    ) -> GlResult<()> {
        self.vao(which)?;
        if count < 0 {
            return Err(GlError::InvalidValue("negative count"));
        }
        if first as u64 + count as u64 > MAX_VERTEX_ATTRIB_BINDINGS as u64 {
            return Err(GlError::InvalidOperation(
                "first + count past GL_MAX_VERTEX_ATTRIB_BINDINGS",
            ));
        }
        let n = count as usize;
        let Some(buffers) = buffers else {
            let vao = self.vao_mut(which)?;
            for b in vao.bindings.iter_mut().skip(first as usize).take(n) {
                *b = VertexBinding::default();
            }
            return Ok(());
        };
        if buffers.len() < n || offsets.len() < n || strides.len() < n {
            return Err(GlError::InvalidValue("arrays shorter than count"));
        }
        let mut first_error = None;
        let entries = buffers.iter().zip(offsets).zip(strides).take(n);
        for (slot, ((&buffer, &offset), &stride)) in (first as usize..).zip(entries) {
            let r = check_offset_stride(offset, stride).and_then(|()| self.buffer_object(buffer));
            match r {
                Ok(name) => {
                    let vb = &mut self.vao_mut(which)?.bindings[slot];
                    vb.buffer = name;
                    vb.offset = offset as i64;
                    vb.stride = stride;
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// glVertexAttrib*Format and the DSA forms (GL 4.5 core §10.3.1).
    #[allow(clippy::too_many_arguments)]
    fn attrib_format(
        &mut self,
        which: Vao,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        relative: u32,
        mode: AttribMode,
    ) -> GlResult<()> {
        self.vao(which)?;
        let i = check_index(index)?;
        let (size, ty) = check_format(size, ty, mode)?;
        if relative > MAX_VERTEX_ATTRIB_RELATIVE_OFFSET {
            return Err(GlError::InvalidValue(
                "relative offset past GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET",
            ));
        }
        let a = &mut self.vao_mut(which)?.attribs[i];
        a.size = size;
        a.ty = ty;
        a.normalized = normalized && mode == AttribMode::Float;
        a.mode = mode;
        a.relative_offset = relative;
        Ok(())
    }

    fn attrib_binding(&mut self, which: Vao, index: u32, binding: u32) -> GlResult<()> {
        self.vao(which)?;
        let i = check_index(index)?;
        let b = check_binding(binding)?;
        self.vao_mut(which)?.attribs[i].binding = b as u8;
        Ok(())
    }

    fn binding_divisor(&mut self, which: Vao, binding: u32, divisor: u32) -> GlResult<()> {
        self.vao(which)?;
        let b = check_binding(binding)?;
        self.vao_mut(which)?.bindings[b].divisor = divisor;
        Ok(())
    }

    pub(crate) fn try_bind_vertex_buffer(
        &mut self,
        binding: u32,
        buffer: u32,
        offset: isize,
        stride: i32,
    ) -> GlResult<()> {
        self.vertex_buffer(Vao::Bound, binding, buffer, offset, stride)
    }

    pub(crate) fn try_bind_vertex_buffers(
        &mut self,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        offsets: &[isize],
        strides: &[i32],
    ) -> GlResult<()> {
        self.vertex_buffers(Vao::Bound, first, count, buffers, offsets, strides)
    }

    pub(crate) fn try_vertex_attrib_format(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        relative: u32,
    ) -> GlResult<()> {
        let m = AttribMode::Float;
        self.attrib_format(Vao::Bound, index, size, ty, normalized, relative, m)
    }

    pub(crate) fn try_vertex_attrib_i_format(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        relative: u32,
    ) -> GlResult<()> {
        let m = AttribMode::Integer;
        self.attrib_format(Vao::Bound, index, size, ty, false, relative, m)
    }

    pub(crate) fn try_vertex_attrib_l_format(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        relative: u32,
    ) -> GlResult<()> {
        let m = AttribMode::Long;
        self.attrib_format(Vao::Bound, index, size, ty, false, relative, m)
    }

    pub(crate) fn try_vertex_attrib_binding(&mut self, index: u32, binding: u32) -> GlResult<()> {
        self.attrib_binding(Vao::Bound, index, binding)
    }

    pub(crate) fn try_vertex_binding_divisor(
        &mut self,
        binding: u32,
        divisor: u32,
    ) -> GlResult<()> {
        self.binding_divisor(Vao::Bound, binding, divisor)
    }

    pub(crate) fn try_vertex_array_vertex_buffer(
        &mut self,
        vaobj: u32,
        binding: u32,
        buffer: u32,
        offset: isize,
        stride: i32,
    ) -> GlResult<()> {
        self.vertex_buffer(Vao::Named(vaobj), binding, buffer, offset, stride)
    }

    pub(crate) fn try_vertex_array_vertex_buffers(
        &mut self,
        vaobj: u32,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        offsets: &[isize],
        strides: &[i32],
    ) -> GlResult<()> {
        let which = Vao::Named(vaobj);
        self.vertex_buffers(which, first, count, buffers, offsets, strides)
    }

    pub(crate) fn try_vertex_array_attrib_format(
        &mut self,
        vaobj: u32,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        relative: u32,
    ) -> GlResult<()> {
        let (w, m) = (Vao::Named(vaobj), AttribMode::Float);
        self.attrib_format(w, index, size, ty, normalized, relative, m)
    }

    pub(crate) fn try_vertex_array_attrib_i_format(
        &mut self,
        vaobj: u32,
        index: u32,
        size: i32,
        ty: u32,
        relative: u32,
    ) -> GlResult<()> {
        let (w, m) = (Vao::Named(vaobj), AttribMode::Integer);
        self.attrib_format(w, index, size, ty, false, relative, m)
    }

    pub(crate) fn try_vertex_array_attrib_l_format(
        &mut self,
        vaobj: u32,
        index: u32,
        size: i32,
        ty: u32,
        relative: u32,
    ) -> GlResult<()> {
        let (w, m) = (Vao::Named(vaobj), AttribMode::Long);
        self.attrib_format(w, index, size, ty, false, relative, m)
    }

    pub(crate) fn try_vertex_array_attrib_binding(
        &mut self,
        vaobj: u32,
        index: u32,
        binding: u32,
    ) -> GlResult<()> {
        self.attrib_binding(Vao::Named(vaobj), index, binding)
    }

    pub(crate) fn try_vertex_array_binding_divisor(
        &mut self,
        vaobj: u32,
        binding: u32,
        divisor: u32,
    ) -> GlResult<()> {
        self.binding_divisor(Vao::Named(vaobj), binding, divisor)
    }

    pub(crate) fn try_vertex_array_element_buffer(
        &mut self,
        vaobj: u32,
        buffer: u32,
    ) -> GlResult<()> {
        self.vao(Vao::Named(vaobj))?;
        let name = self.buffer_object(buffer)?;
        self.vao_mut(Vao::Named(vaobj))?.element_buffer = name;
        Ok(())
    }

    pub(crate) fn try_get_vertex_arrayiv(&mut self, vaobj: u32, pname: u32) -> GlResult<i32> {
        let vao = self.vao(Vao::Named(vaobj))?;
        match pname {
            gl::ELEMENT_ARRAY_BUFFER_BINDING => Ok(vao.element_buffer.map_or(0, |b| b.0 as i32)),
            _ => Err(GlError::BadEnum("vertex array parameter", pname)),
        }
    }

    pub(crate) fn try_get_vertex_array_indexediv(
        &mut self,
        vaobj: u32,
        index: u32,
        pname: u32,
    ) -> GlResult<i32> {
        let vao = self.vao(Vao::Named(vaobj))?;
        let i = check_index(index)?;
        // GL 4.5 core §10.5: the buffer and binding queries are glGetVertexAttribiv's only.
        if matches!(
            pname,
            gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING | gl::VERTEX_ATTRIB_BINDING
        ) {
            return Err(GlError::BadEnum("vertex array attribute parameter", pname));
        }
        attrib_value(vao, i, pname)
    }

    pub(crate) fn try_get_vertex_array_indexed64iv(
        &mut self,
        vaobj: u32,
        index: u32,
        pname: u32,
    ) -> GlResult<i64> {
        let vao = self.vao(Vao::Named(vaobj))?;
        let b = check_binding(index)?;
        match pname {
            gl::VERTEX_BINDING_OFFSET => Ok(vao.bindings[b].offset),
            _ => Err(GlError::BadEnum("vertex array binding parameter", pname)),
        }
    }

    pub(crate) fn try_get_vertex_attribiv(&mut self, index: u32, pname: u32) -> GlResult<i32> {
        let i = check_index(index)?;
        let vao = self.vao(Vao::Bound)?;
        attrib_value(vao, i, pname)
    }

    /// glGetIntegeri_v / glGetInteger64i_v of the bound VAO's binding points
    /// (VERTEX_BINDING_*, GL 4.5 core table 23.4); None for other pnames. With no VAO bound
    /// the answer is the initial state, as Mesa's default VAO gives.
    pub(crate) fn vertex_binding_indexed(&self, pname: u32, index: u32) -> Option<GlResult<i64>> {
        if !matches!(
            pname,
            gl::VERTEX_BINDING_OFFSET
                | gl::VERTEX_BINDING_STRIDE
                | gl::VERTEX_BINDING_DIVISOR
                | gl::VERTEX_BINDING_BUFFER
        ) {
            return None;
        }
        Some(check_binding(index).map(|b| {
            let vb = self
                .vertex_array
                .and_then(|v| self.vertex_arrays.get(v))
                .map_or_else(VertexBinding::default, |vao| vao.bindings[b]);
            match pname {
                gl::VERTEX_BINDING_OFFSET => vb.offset,
                gl::VERTEX_BINDING_STRIDE => vb.stride as i64,
                gl::VERTEX_BINDING_DIVISOR => vb.divisor as i64,
                _ => vb.buffer.map_or(0, |n| n.0 as i64),
            }
        }))
    }
}

/// Attribute `i`'s state `pname` (GL 4.5 core table 23.3; the buffer and divisor are its
/// binding's).
fn attrib_value(vao: &VertexArray, i: usize, pname: u32) -> GlResult<i32> {
    let a = vao.attribs[i];
    let b = vao.bindings[a.binding as usize];
    Ok(match pname {
        gl::VERTEX_ATTRIB_ARRAY_ENABLED => a.enabled as i32,
        gl::VERTEX_ATTRIB_ARRAY_SIZE => a.size as i32,
        gl::VERTEX_ATTRIB_ARRAY_STRIDE => a.pointer_stride,
        gl::VERTEX_ATTRIB_ARRAY_TYPE => a.ty.to_gl() as i32,
        gl::VERTEX_ATTRIB_ARRAY_NORMALIZED => a.normalized as i32,
        gl::VERTEX_ATTRIB_ARRAY_INTEGER => (a.mode == AttribMode::Integer) as i32,
        gl::VERTEX_ATTRIB_ARRAY_LONG => (a.mode == AttribMode::Long) as i32,
        gl::VERTEX_ATTRIB_ARRAY_DIVISOR => b.divisor as i32,
        gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING => b.buffer.map_or(0, |n| n.0 as i32),
        gl::VERTEX_ATTRIB_BINDING => a.binding as i32,
        gl::VERTEX_ATTRIB_RELATIVE_OFFSET => a.relative_offset as i32,
        _ => return Err(GlError::BadEnum("vertex attribute parameter", pname)),
    })
}

impl Context {
    /// VERTEX_ATTRIB_ARRAY_POINTER of attribute `i` of the bound VAO: its binding's offset
    /// plus its relative offset (the pointer glVertexAttribPointer was given); 0 with no VAO.
    pub(crate) fn attrib_pointer_offset(&self, i: usize) -> usize {
        self.vertex_array
            .and_then(|v| self.vertex_arrays.get(v))
            .and_then(|vao| vao.array(i))
            .map_or(0, |a| a.offset)
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
