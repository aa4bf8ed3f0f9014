//! The named (DSA) buffer commands of GL 4.5 core chapter 6 (glNamedBuffer*, on top of
//! `buffer.rs`' bodies through `Buf::Named`), buffer copies (§6.6, ARB_copy_buffer), clears
//! (§6.5, ARB_clear_buffer_object: every internal format of table 8.16), the 64-bit and
//! pointer parameter queries, and the multi-bind forms of the indexed buffer bindings
//! (§6.1.1, ARB_multi_bind).

use crate::api::buffer::Buf;
use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::pixels::{self, InternalFormat, PixelStore};
use crate::gl::enums as gl;
use crate::sampler::{Format, IntFormat};

gl_commands! {
    /// glNamedBufferData.
    "glNamedBufferData"
    fn named_buffer_data(buffer: u32, size: isize, data: Option<&[u8]>, usage: u32)
        = try_named_buffer_data;
    /// glNamedBufferStorage.
    "glNamedBufferStorage"
    fn named_buffer_storage(buffer: u32, size: isize, data: Option<&[u8]>, flags: u32)
        = try_named_buffer_storage;
    /// glNamedBufferSubData.
    "glNamedBufferSubData"
    fn named_buffer_sub_data(buffer: u32, offset: isize, data: &[u8]) = try_named_buffer_sub_data;
    /// glGetNamedBufferSubData.
    "glGetNamedBufferSubData"
    fn get_named_buffer_sub_data(buffer: u32, offset: isize, size: isize) -> Vec<u8>
        = try_get_named_buffer_sub_data;
    /// glMapNamedBuffer.
    "glMapNamedBuffer"
    fn map_named_buffer(buffer: u32, access: u32) -> *mut u8
        = try_map_named_buffer else std::ptr::null_mut();
    /// glMapNamedBufferRange.
    "glMapNamedBufferRange"
    fn map_named_buffer_range(buffer: u32, offset: isize, length: isize, access: u32) -> *mut u8
        = try_map_named_buffer_range else std::ptr::null_mut();
    /// glUnmapNamedBuffer.
    "glUnmapNamedBuffer" fn unmap_named_buffer(buffer: u32) -> bool = try_unmap_named_buffer;
    /// glFlushMappedNamedBufferRange.
    "glFlushMappedNamedBufferRange"
    fn flush_mapped_named_buffer_range(buffer: u32, offset: isize, length: isize)
        = try_flush_mapped_named_buffer_range;
    /// glGetNamedBufferParameteriv.
    "glGetNamedBufferParameteriv"
    fn get_named_buffer_parameteriv(buffer: u32, pname: u32) -> i32
        = try_get_named_buffer_parameteriv;
    /// glGetNamedBufferParameteri64v.
    "glGetNamedBufferParameteri64v"
    fn get_named_buffer_parameteri64v(buffer: u32, pname: u32) -> i64
        = try_get_named_buffer_parameteri64v;
    /// glGetBufferParameteri64v.
    "glGetBufferParameteri64v"
    fn get_buffer_parameteri64v(target: u32, pname: u32) -> i64 = try_get_buffer_parameteri64v;
    /// glGetBufferPointerv (GL_BUFFER_MAP_POINTER; null when unmapped).
    "glGetBufferPointerv"
    fn get_buffer_pointerv(target: u32, pname: u32) -> *mut u8
        = try_get_buffer_pointerv else std::ptr::null_mut();
    /// glGetNamedBufferPointerv.
    "glGetNamedBufferPointerv"
    fn get_named_buffer_pointerv(buffer: u32, pname: u32) -> *mut u8
        = try_get_named_buffer_pointerv else std::ptr::null_mut();
    /// glCopyBufferSubData (GL 4.5 core §6.6): copy-on-write like BufferSubData, so queued
    /// draws keep the bytes they saw.
    "glCopyBufferSubData"
    fn copy_buffer_sub_data(read: u32, write: u32, read_offset: isize, write_offset: isize, size: isize)
        = try_copy_buffer_sub_data;
    /// glCopyNamedBufferSubData.
    "glCopyNamedBufferSubData"
    fn copy_named_buffer_sub_data(
        read: u32,
        write: u32,
        read_offset: isize,
        write_offset: isize,
        size: isize,
    ) = try_copy_named_buffer_sub_data;
    /// glClearBufferData (GL 4.5 core §6.5): `data` is one element of `format`/`type`, None
    /// for zeros.
    "glClearBufferData"
    fn clear_buffer_data(target: u32, internal: u32, format: u32, ty: u32, data: Option<&[u8]>)
        = try_clear_buffer_data;
    /// glClearBufferSubData.
    #[allow(clippy::too_many_arguments)]
    "glClearBufferSubData"
    fn clear_buffer_sub_data(
        target: u32,
        internal: u32,
        offset: isize,
        size: isize,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) = try_clear_buffer_sub_data;
    /// glClearNamedBufferData.
    "glClearNamedBufferData"
    fn clear_named_buffer_data(buffer: u32, internal: u32, format: u32, ty: u32, data: Option<&[u8]>)
        = try_clear_named_buffer_data;
    /// glClearNamedBufferSubData.
    #[allow(clippy::too_many_arguments)]
    "glClearNamedBufferSubData"
    fn clear_named_buffer_sub_data(
        buffer: u32,
        internal: u32,
        offset: isize,
        size: isize,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) = try_clear_named_buffer_sub_data;
    /// glBindBuffersBase (ARB_multi_bind): `buffers` None unbinds the `count` points.
    "glBindBuffersBase"
    fn bind_buffers_base(target: u32, first: u32, count: i32, buffers: Option<&[u32]>)
        = try_bind_buffers_base;
    /// glBindBuffersRange.
    "glBindBuffersRange"
    fn bind_buffers_range(
        target: u32,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        offsets: &[isize],
        sizes: &[isize],
    ) = try_bind_buffers_range;
}

/// How table 8.16 stores a component.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Unorm,
    Float,
    Sint,
    Uint,
}

/// The buffer layout of a sized internal format of GL 4.5 core table 8.16: component kind,
/// count and bytes per component.
fn buffer_format(internal: u32) -> Option<(Kind, usize, usize)> {
    use Kind::*;
    Some(match internal {
        gl::R8 => (Unorm, 1, 1),
        gl::R16 => (Unorm, 1, 2),
        gl::R16F => (Float, 1, 2),
        gl::R32F => (Float, 1, 4),
        gl::R8I => (Sint, 1, 1),
        gl::R16I => (Sint, 1, 2),
        gl::R32I => (Sint, 1, 4),
        gl::R8UI => (Uint, 1, 1),
        gl::R16UI => (Uint, 1, 2),
        gl::R32UI => (Uint, 1, 4),
        gl::RG8 => (Unorm, 2, 1),
        gl::RG16 => (Unorm, 2, 2),
        gl::RG16F => (Float, 2, 2),
        gl::RG32F => (Float, 2, 4),
        gl::RG8I => (Sint, 2, 1),
        gl::RG16I => (Sint, 2, 2),
        gl::RG32I => (Sint, 2, 4),
        gl::RG8UI => (Uint, 2, 1),
        gl::RG16UI => (Uint, 2, 2),
        gl::RG32UI => (Uint, 2, 4),
        gl::RGB32F => (Float, 3, 4),
        gl::RGB32I => (Sint, 3, 4),
        gl::RGB32UI => (Uint, 3, 4),
        gl::RGBA8 => (Unorm, 4, 1),
        gl::RGBA16 => (Unorm, 4, 2),
        gl::RGBA16F => (Float, 4, 2),
        gl::RGBA32F => (Float, 4, 4),
        gl::RGBA8I => (Sint, 4, 1),
        gl::RGBA16I => (Sint, 4, 2),
        gl::RGBA32I => (Sint, 4, 4),
        gl::RGBA8UI => (Uint, 4, 1),
        gl::RGBA16UI => (Uint, 4, 2),
        gl::RGBA32UI => (Uint, 4, 4),
        _ => return None,
    })
}

/// One element of `internal` (table 8.16) from the client's `format`/`type` pixel `data`,
/// converted as a pixel upload converts it (the pixel path's unpack into 32-bit RGBA, then
/// quantized to the element's components): unorm components round to nearest, integer
/// components are clamped to their width. Zeros for no data.
fn clear_element(internal: u32, format: u32, ty: u32, data: Option<&[u8]>) -> GlResult<Vec<u8>> {
    let (kind, n, bytes) =
        buffer_format(internal).ok_or(GlError::BadEnum("buffer internal format", internal))?;
    // Mesa: an invalid format or type is INVALID_VALUE here (the spec's list for ClearBuffer).
    pixels::check_format_type(format, ty).map_err(|_| {
        GlError::InvalidValue("format and type are not a valid pixel format and type")
    })?;
    let mut out = vec![0u8; n * bytes];
    let Some(data) = data else {
        return Ok(out);
    };
    let integer = matches!(kind, Kind::Sint | Kind::Uint);
    let storage = match kind {
        Kind::Sint => {
            Format::Int(IntFormat::from_gl(gl::RGBA32I).expect("RGBA32I is an integer format"))
        }
        Kind::Uint => {
            Format::Int(IntFormat::from_gl(gl::RGBA32UI).expect("RGBA32UI is an integer format"))
        }
        _ => Format::Rgba32F,
    };
    let ifmt = InternalFormat {
        gl: if integer { internal } else { gl::RGBA32F },
        storage,
        channels: 4,
        bits: [0; 4],
        sized: true,
    };
    let texel = pixels::unpack(ifmt, format, ty, 1, 1, data, &PixelStore::INITIAL)?;
    for c in 0..n {
        let w: [u8; 4] = texel[c * 4..c * 4 + 4].try_into().expect("4 bytes");
        let dst = &mut out[c * bytes..(c + 1) * bytes];
        match kind {
            Kind::Float => {
                let f = f32::from_le_bytes(w);
                if bytes == 2 {
                    dst.copy_from_slice(&half::f16::from_f32(f).to_le_bytes());
                } else {
                    dst.copy_from_slice(&w);
                }
            }
            Kind::Unorm => {
                let f = f32::from_le_bytes(w);
                let max = if bytes == 1 { 255.0f32 } else { 65535.0 };
                // Round half up; NaN stays NaN through the clamp and casts to 0.
                let q = (f.clamp(0.0, 1.0) * max + 0.5).floor() as u32;
                dst.copy_from_slice(&q.to_le_bytes()[..bytes]);
            }
            Kind::Sint => {
                let v = i32::from_le_bytes(w) as i64;
                let bits = 8 * bytes as u32;
                let v = v.clamp(-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1);
                dst.copy_from_slice(&v.to_le_bytes()[..bytes]);
            }
            Kind::Uint => {
                let v = u32::from_le_bytes(w) as u64;
                let v = v.min((1u64 << (8 * bytes as u32)) - 1);
                dst.copy_from_slice(&v.to_le_bytes()[..bytes]);
            }
        }
    }
    Ok(out)
}

impl Context {
    pub(crate) fn try_named_buffer_data(
        &mut self,
        buffer: u32,
        size: isize,
        data: Option<&[u8]>,
        usage: u32,
    ) -> GlResult<()> {
        self.buffer_data_in(Buf::Named(buffer), size, data, usage)
    }

    pub(crate) fn try_named_buffer_storage(
        &mut self,
        buffer: u32,
        size: isize,
        data: Option<&[u8]>,
        flags: u32,
    ) -> GlResult<()> {
        self.buffer_storage_in(Buf::Named(buffer), size, data, flags)
    }

    pub(crate) fn try_named_buffer_sub_data(
        &mut self,
        buffer: u32,
        offset: isize,
        data: &[u8],
    ) -> GlResult<()> {
        self.buffer_sub_data_in(Buf::Named(buffer), offset, data)
    }

    pub(crate) fn try_get_named_buffer_sub_data(
        &mut self,
        buffer: u32,
        offset: isize,
        size: isize,
    ) -> GlResult<Vec<u8>> {
        self.get_buffer_sub_data_in(Buf::Named(buffer), offset, size)
    }

    pub(crate) fn try_map_named_buffer(&mut self, buffer: u32, access: u32) -> GlResult<*mut u8> {
        self.map_buffer_in(Buf::Named(buffer), access)
    }

    pub(crate) fn try_map_named_buffer_range(
        &mut self,
        buffer: u32,
        offset: isize,
        length: isize,
        access: u32,
    ) -> GlResult<*mut u8> {
        self.map_buffer_range_in(Buf::Named(buffer), offset, length, access)
    }

    pub(crate) fn try_unmap_named_buffer(&mut self, buffer: u32) -> GlResult<bool> {
        self.unmap_buffer_in(Buf::Named(buffer))
    }

    pub(crate) fn try_flush_mapped_named_buffer_range(
        &mut self,
        buffer: u32,
        offset: isize,
        length: isize,
    ) -> GlResult<()> {
        self.flush_mapped_buffer_range_in(Buf::Named(buffer), offset, length)
    }

    pub(crate) fn try_get_named_buffer_parameteriv(
        &mut self,
        buffer: u32,
        pname: u32,
    ) -> GlResult<i32> {
        let v = self.buffer_parameter(Buf::Named(buffer), pname)?;
        Ok(v.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
    }

    pub(crate) fn try_get_named_buffer_parameteri64v(
        &mut self,
        buffer: u32,
        pname: u32,
    ) -> GlResult<i64> {
        self.buffer_parameter(Buf::Named(buffer), pname)
    }

    pub(crate) fn try_get_buffer_parameteri64v(
        &mut self,
        target: u32,
        pname: u32,
    ) -> GlResult<i64> {
        self.buffer_parameter(Buf::Target(target), pname)
    }

    pub(crate) fn try_get_buffer_pointerv(&mut self, target: u32, pname: u32) -> GlResult<*mut u8> {
        self.buffer_map_pointer(Buf::Target(target), pname)
    }

    pub(crate) fn try_get_named_buffer_pointerv(
        &mut self,
        buffer: u32,
        pname: u32,
    ) -> GlResult<*mut u8> {
        self.buffer_map_pointer(Buf::Named(buffer), pname)
    }

    /// glCopy(Named)BufferSubData (GL 4.5 core §6.6 errors, in its order).
    fn copy_sub_data(
        &mut self,
        read: Buf,
        write: Buf,
        read_offset: isize,
        write_offset: isize,
        size: isize,
    ) -> GlResult<()> {
        let (r, w) = (self.resolve(read)?, self.resolve(write)?);
        if read_offset < 0 || write_offset < 0 || size < 0 {
            return Err(GlError::InvalidValue("negative offset or size"));
        }
        let (ro, wo, n) = (read_offset as usize, write_offset as usize, size as usize);
        let len = |c: &Context, b| {
            c.objs
                .buffers
                .get(b)
                .map(|b| (b.data.len(), b.blocks_draws()))
        };
        let (Some((rlen, rmapped)), Some((wlen, wmapped))) = (len(self, r), len(self, w)) else {
            return Err(GlError::InvalidOperation("no buffer"));
        };
        if ro.checked_add(n).is_none_or(|e| e > rlen) || wo.checked_add(n).is_none_or(|e| e > wlen)
        {
            return Err(GlError::InvalidValue("range past the end of a buffer"));
        }
        if r == w && ro < wo + n && wo < ro + n {
            return Err(GlError::InvalidValue(
                "source and destination ranges overlap in one buffer",
            ));
        }
        if rmapped || wmapped {
            return Err(GlError::InvalidOperation("a buffer is mapped"));
        }
        let bytes = self
            .objs
            .buffers
            .get(r)
            .map(|b| b.data[ro..ro + n].to_vec());
        self.write_buffer_bytes(write, wo, &bytes.unwrap_or_default())
    }

    pub(crate) fn try_copy_buffer_sub_data(
        &mut self,
        read: u32,
        write: u32,
        read_offset: isize,
        write_offset: isize,
        size: isize,
    ) -> GlResult<()> {
        let (r, w) = (Buf::Target(read), Buf::Target(write));
        self.copy_sub_data(r, w, read_offset, write_offset, size)
    }

    pub(crate) fn try_copy_named_buffer_sub_data(
        &mut self,
        read: u32,
        write: u32,
        read_offset: isize,
        write_offset: isize,
        size: isize,
    ) -> GlResult<()> {
        let (r, w) = (Buf::Named(read), Buf::Named(write));
        self.copy_sub_data(r, w, read_offset, write_offset, size)
    }

    /// glClear(Named)Buffer(Sub)Data; `range` None is the whole buffer (GL 4.5 core §6.5).
    fn clear_buffer(
        &mut self,
        which: Buf,
        internal: u32,
        range: Option<(isize, isize)>,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        // ARB_clear_buffer_object: no buffer bound to `target` is INVALID_VALUE here (the
        // other buffer commands say INVALID_OPERATION; Mesa and piglit follow the extension).
        let name = match which {
            Buf::Target(t) => self
                .buffer_target(t)?
                .ok_or(GlError::InvalidValue("no buffer bound to the target"))?,
            Buf::Named(_) => self.resolve(which)?,
        };
        let element = clear_element(internal, format, ty, data)?;
        // The mapped range, unless the mapping is persistent (GL 4.5 core §6.3.2).
        let (len, mapped) = self
            .objs
            .buffers
            .get(name)
            .map(|b| {
                let m = b.mapping.filter(|_| b.blocks_draws());
                (b.data.len(), m.map(|m| (m.offset, m.length)))
            })
            .ok_or(GlError::InvalidOperation("no buffer"))?;
        let (offset, size) = range.unwrap_or((0, len as isize));
        if offset < 0 || size < 0 {
            return Err(GlError::InvalidValue("negative offset or size"));
        }
        let (o, n) = (offset as usize, size as usize);
        if o.checked_add(n).is_none_or(|e| e > len) {
            return Err(GlError::InvalidValue("range past the end of the buffer"));
        }
        if !o.is_multiple_of(element.len()) || !n.is_multiple_of(element.len()) {
            return Err(GlError::InvalidValue(
                "offset or size is not a multiple of the internal format's element size",
            ));
        }
        // Only a clear that touches the mapped range is refused (GL 4.5 core §6.5: "any part
        // of the specified range ... is currently mapped"); the rest of the buffer may be
        // cleared while a part is mapped.
        if let Some((mo, ml)) = mapped {
            if o < mo + ml && mo < o + n {
                return Err(GlError::InvalidOperation(
                    "the range to clear is (partly) mapped",
                ));
            }
        }
        if n == 0 {
            return Ok(());
        }
        let bytes = element.repeat(n / element.len());
        self.write_buffer_bytes(which, o, &bytes)
    }

    pub(crate) fn try_clear_buffer_data(
        &mut self,
        target: u32,
        internal: u32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        self.clear_buffer(Buf::Target(target), internal, None, format, ty, data)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_clear_buffer_sub_data(
        &mut self,
        target: u32,
        internal: u32,
        offset: isize,
        size: isize,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        let range = Some((offset, size));
        self.clear_buffer(Buf::Target(target), internal, range, format, ty, data)
    }

    pub(crate) fn try_clear_named_buffer_data(
        &mut self,
        buffer: u32,
        internal: u32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        self.clear_buffer(Buf::Named(buffer), internal, None, format, ty, data)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_clear_named_buffer_sub_data(
        &mut self,
        buffer: u32,
        internal: u32,
        offset: isize,
        size: isize,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        let range = Some((offset, size));
        self.clear_buffer(Buf::Named(buffer), internal, range, format, ty, data)
    }

    /// The multi-bind loop (GL 4.5 core §6.1.1): each point bound as BindBufferBase/Range
    /// would, an entry that fails leaves its point alone and the others are still bound,
    /// the first error is the command's, and the generic binding of `target` is unchanged.
    fn bind_buffers(
        &mut self,
        target: u32,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        ranges: Option<(&[isize], &[isize])>,
    ) -> GlResult<()> {
        let points = match target {
            gl::UNIFORM_BUFFER => self.uniform_bindings.len(),
            gl::SHADER_STORAGE_BUFFER => self.storage_bindings.len(),
            gl::ATOMIC_COUNTER_BUFFER => self.atomic_counter_bindings.len(),
            _ => return Err(GlError::BadEnum("indexed buffer target", target)),
        };
        if count < 0 {
            return Err(GlError::InvalidValue("negative count"));
        }
        let n = count as usize;
        if first as u64 + n as u64 > points as u64 {
            return Err(GlError::InvalidOperation(
                "first + count past the target's number of binding points",
            ));
        }
        // A null `buffers` unbinds and ignores the offsets and sizes (ARB_multi_bind).
        if buffers.is_some_and(|b| b.len() < n)
            || (buffers.is_some() && ranges.is_some_and(|(o, s)| o.len() < n || s.len() < n))
        {
            return Err(GlError::InvalidValue("arrays shorter than count"));
        }
        let generic = self.generic_buffers.get(&target).copied();
        let mut first_error = None;
        for (k, index) in (first..).take(n).enumerate() {
            let buffer = buffers.map_or(0, |b| b[k]);
            let r = match (buffers, ranges) {
                (Some(_), Some((o, s))) => {
                    self.try_bind_buffer_range(target, index, buffer, o[k], s[k])
                }
                _ => self.try_bind_buffer_base(target, index, buffer),
            };
            if let Err(e) = r {
                first_error.get_or_insert(e);
            }
        }
        match generic {
            Some(g) => {
                self.generic_buffers.insert(target, g);
            }
            None => {
                self.generic_buffers.remove(&target);
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    pub(crate) fn try_bind_buffers_base(
        &mut self,
        target: u32,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
    ) -> GlResult<()> {
        self.bind_buffers(target, first, count, buffers, None)
    }

    pub(crate) fn try_bind_buffers_range(
        &mut self,
        target: u32,
        first: u32,
        count: i32,
        buffers: Option<&[u32]>,
        offsets: &[isize],
        sizes: &[isize],
    ) -> GlResult<()> {
        self.bind_buffers(target, first, count, buffers, Some((offsets, sizes)))
    }
}
