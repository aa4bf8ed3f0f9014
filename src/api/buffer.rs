//! Buffer objects (GL 4.5 core chapter 6): names, binding points, data store specification,
//! mapping, uniform buffer binding points. A data store is an `Arc<Vec<u8>>` written
//! copy-on-write (`Arc::make_mut`), so a queued draw's snapshot is a reference-count bump and
//! later writes never reach it.

use std::sync::Arc;

use crate::api::context::{limits, BufferBinding, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{DebugMessage, GlError, GlResult};
use crate::api::names::{BufferName, Name};
use crate::gl::enums as gl;

/// Which buffer a command acts on: the one bound to a target, or a named one (the DSA
/// `glNamedBuffer*` forms).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Buf {
    Target(u32),
    Named(u32),
}

/// An active mapping (glMapBufferRange).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Mapping {
    pub offset: usize,
    pub length: usize,
    pub access: u32,
}

/// A buffer object.
#[derive(Debug, Default)]
pub(crate) struct Buffer {
    pub data: Arc<Vec<u8>>,
    pub usage: u32,
    /// Created with glBufferStorage (GL 4.5 core §6.2: its size and flags never change).
    pub immutable: bool,
    pub storage_flags: u32,
    pub mapping: Option<Mapping>,
    /// The store a persistent mapping points into, kept alive after BufferSubData had to
    /// replace `data` (another context's queued draw still held it): the application's
    /// pointer must never dangle. Dropped when the mapping ends.
    pub orphan: Option<Arc<Vec<u8>>>,
}

impl Buffer {
    /// Gives the buffer a new data store: queued draws keep the old one through their
    /// snapshots, and any mapping of the old store ends (GL 4.5 core §6.2).
    fn set_store(&mut self, bytes: Vec<u8>) {
        self.data = Arc::new(bytes);
        self.end_mapping();
    }

    /// Ends the mapping, if any, and drops the store it may have kept alive.
    fn end_mapping(&mut self) -> Option<Mapping> {
        self.orphan = None;
        self.mapping.take()
    }

    /// GL_INVALID_VALUE unless bytes `offset..offset + len` lie inside the store (the
    /// check BufferSubData, GetBufferSubData and MapBufferRange share; overflow included).
    fn check_range(&self, offset: usize, len: usize) -> GlResult<()> {
        if offset
            .checked_add(len)
            .is_none_or(|end| end > self.data.len())
        {
            return Err(GlError::InvalidValue("range past the end of the buffer"));
        }
        Ok(())
    }

    /// Whether a draw must refuse this buffer (GL 4.5 core §6.3.2: mapped, unless the mapping
    /// is persistent).
    pub fn blocks_draws(&self) -> bool {
        self.mapping
            .is_some_and(|m| m.access & gl::MAP_PERSISTENT_BIT == 0)
    }
}

/// A data store of `size` bytes, copied from `data` or zeroed; GL_OUT_OF_MEMORY naming
/// the size when the memory is not there ("glBufferData: GL_OUT_OF_MEMORY: 1099511627776
/// bytes"), never an abort.
fn alloc_bytes(size: usize, data: Option<&[u8]>) -> GlResult<Vec<u8>> {
    let oom = GlError::OutOfMemoryFor(size as u64, "bytes");
    let mut v = Vec::new();
    v.try_reserve_exact(size).map_err(|_| oom)?;
    match data {
        Some(d) => v.extend_from_slice(&d[..size]),
        None => {
            // The reservation proved the memory can be had; `vec!` of zeros allocates it
            // zeroed (calloc), so untouched pages of a large store cost nothing until used,
            // where `resize` would write every byte.
            drop(v);
            v = vec![0; size];
        }
    }
    Ok(v)
}

const STORAGE_FLAGS: u32 = gl::MAP_READ_BIT
    | gl::MAP_WRITE_BIT
    | gl::MAP_PERSISTENT_BIT
    | gl::MAP_COHERENT_BIT
    | gl::DYNAMIC_STORAGE_BIT
    | gl::CLIENT_STORAGE_BIT;

gl_commands! {
    /// glGenBuffers.
    "glGenBuffers" fn gen_buffers(n: i32) -> Vec<u32> = try_gen_buffers;
    /// glCreateBuffers.
    "glCreateBuffers" fn create_buffers(n: i32) -> Vec<u32> = try_create_buffers;
    /// glBindBuffer.
    "glBindBuffer" fn bind_buffer(target: u32, buffer: u32) = try_bind_buffer;
    /// glBindBufferBase.
    "glBindBufferBase"
    fn bind_buffer_base(target: u32, index: u32, buffer: u32) = try_bind_buffer_base;
    /// glBindBufferRange (GL 4.5 core §6.1.1).
    "glBindBufferRange"
    fn bind_buffer_range(target: u32, index: u32, buffer: u32, offset: isize, size: isize)
        = try_bind_buffer_range;
    /// glDeleteBuffers: unbinds from every binding point of this context (GL 4.5 core §5.1.2:
    /// attachments of non-current VAOs keep a stale name, which draws treat as unbound).
    "glDeleteBuffers" fn delete_buffers(buffers: &[u32]) = try_delete_buffers;
    /// glBufferData (GL 4.5 core §6.2). A mapped buffer is unmapped first.
    "glBufferData"
    fn buffer_data(target: u32, size: isize, data: Option<&[u8]>, usage: u32) = try_buffer_data;
    /// glBufferStorage (GL 4.5 core §6.2).
    "glBufferStorage"
    fn buffer_storage(target: u32, size: isize, data: Option<&[u8]>, flags: u32)
        = try_buffer_storage;
    /// glBufferSubData (GL 4.5 core §6.2.1): copy-on-write, so queued draws are untouched.
    /// A persistently mapped store is written in place instead (after this context's queued
    /// draws finish), so the application's mapping keeps aliasing the store draws read.
    "glBufferSubData"
    fn buffer_sub_data(target: u32, offset: isize, data: &[u8]) = try_buffer_sub_data;
    /// glGetBufferSubData.
    "glGetBufferSubData"
    fn get_buffer_sub_data(target: u32, offset: isize, size: isize) -> Vec<u8>
        = try_get_buffer_sub_data;
    /// glFlushMappedBufferRange: stores are shared memory here, so only validation remains.
    "glFlushMappedBufferRange"
    fn flush_mapped_buffer_range(target: u32, offset: isize, length: isize)
        = try_flush_mapped_buffer_range;
    /// glMapBufferRange (GL 4.5 core §6.3). Queued work is flushed first so that the store
    /// is not shared with a snapshot; the pointer stays valid until glUnmapBuffer (or
    /// glBufferData, which unmaps). Null on error.
    "glMapBufferRange"
    fn map_buffer_range(target: u32, offset: isize, length: isize, access: u32) -> *mut u8
        = try_map_buffer_range else std::ptr::null_mut();
    /// glMapBuffer.
    "glMapBuffer"
    fn map_buffer(target: u32, access: u32) -> *mut u8 = try_map_buffer else std::ptr::null_mut();
    /// glUnmapBuffer.
    "glUnmapBuffer" fn unmap_buffer(target: u32) -> bool = try_unmap_buffer;
    /// glGetBufferParameteriv.
    "glGetBufferParameteriv"
    fn get_buffer_parameteriv(target: u32, pname: u32) -> i32 = try_get_buffer_parameteriv;
}

impl Context {
    /// The binding point of `target`, checked (GL 4.5 core table 6.1; the targets this
    /// context supports).
    pub(crate) fn buffer_target(&self, target: u32) -> GlResult<Option<BufferName>> {
        match target {
            gl::ARRAY_BUFFER => Ok(self.array_buffer),
            gl::ELEMENT_ARRAY_BUFFER => Ok(match self.vertex_array {
                Some(v) => self.vertex_arrays.get(v).and_then(|vao| vao.element_buffer),
                None => self.loose_element_buffer,
            }),
            gl::UNIFORM_BUFFER
            | gl::SHADER_STORAGE_BUFFER
            | gl::ATOMIC_COUNTER_BUFFER
            | gl::COPY_READ_BUFFER
            | gl::COPY_WRITE_BUFFER
            | gl::PIXEL_PACK_BUFFER
            | gl::PIXEL_UNPACK_BUFFER
            | gl::QUERY_BUFFER
            | gl::DRAW_INDIRECT_BUFFER
            | gl::DISPATCH_INDIRECT_BUFFER
            | gl::TEXTURE_BUFFER
            | gl::TRANSFORM_FEEDBACK_BUFFER
            | gl::PARAMETER_BUFFER => Ok(self.generic_buffers.get(&target).copied()),
            _ => Err(GlError::BadEnum("buffer target", target)),
        }
    }

    /// The buffer bound to `target`: INVALID_OPERATION when none.
    pub(crate) fn bound_buffer(&self, target: u32) -> GlResult<BufferName> {
        self.buffer_target(target)?
            .ok_or(GlError::InvalidOperation("no buffer bound to the target"))
    }

    /// The buffer a command acts on: bound to a target (none is INVALID_OPERATION) or named
    /// (the DSA forms: a name that is not an existing buffer object is INVALID_OPERATION,
    /// GL 4.5 core §6.1–§6.3).
    pub(crate) fn resolve(&self, which: Buf) -> GlResult<BufferName> {
        match which {
            Buf::Target(t) => self.bound_buffer(t),
            Buf::Named(n) => {
                let name = BufferName(n);
                if self.objs.buffers.get(name).is_none() {
                    return Err(GlError::InvalidOperation(
                        "not the name of an existing buffer object",
                    ));
                }
                Ok(name)
            }
        }
    }

    fn buffer_mut(&mut self, which: Buf) -> GlResult<&mut Buffer> {
        let name = self.resolve(which)?;
        self.objs
            .buffers
            .get_mut(name)
            .ok_or(GlError::InvalidOperation("no buffer bound to the target"))
    }

    pub(crate) fn try_gen_buffers(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| this.objs.buffers.gen_many(n))
    }

    pub(crate) fn try_create_buffers(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| {
            this.objs.buffers.create_many(n, Buffer::default)
        })
    }

    /// glIsBuffer.
    pub fn is_buffer(&self, buffer: u32) -> bool {
        self.read_group(|o| o.buffers.get(BufferName(buffer)).is_some())
    }

    /// Creates the object of a generated name at first bind (GL 4.5 core §6.1); names never
    /// generated are INVALID_OPERATION in the core profile.
    pub(crate) fn buffer_object(&mut self, buffer: u32) -> GlResult<Option<BufferName>> {
        if buffer == 0 {
            return Ok(None);
        }
        let name = BufferName(buffer);
        if !self.objs.buffers.ensure(name, Buffer::default) {
            return Err(GlError::InvalidOperation("not a buffer name"));
        }
        Ok(Some(name))
    }

    pub(crate) fn try_bind_buffer(&mut self, target: u32, buffer: u32) -> GlResult<()> {
        self.buffer_target(target)?;
        let name = self.buffer_object(buffer)?;
        match target {
            gl::ARRAY_BUFFER => self.array_buffer = name,
            gl::ELEMENT_ARRAY_BUFFER => match self.vertex_array {
                Some(v) => {
                    if let Some(vao) = self.vertex_arrays.get_mut(v) {
                        vao.element_buffer = name;
                    }
                }
                None => self.loose_element_buffer = name,
            },
            _ => match name {
                Some(n) => {
                    self.generic_buffers.insert(target, n);
                }
                None => {
                    self.generic_buffers.remove(&target);
                }
            },
        }
        Ok(())
    }

    pub(crate) fn try_bind_buffer_base(
        &mut self,
        target: u32,
        index: u32,
        buffer: u32,
    ) -> GlResult<()> {
        self.bind_indexed(target, index, buffer, 0, None)
    }

    pub(crate) fn try_bind_buffer_range(
        &mut self,
        target: u32,
        index: u32,
        buffer: u32,
        offset: isize,
        size: isize,
    ) -> GlResult<()> {
        if buffer != 0 {
            if size <= 0 {
                return Err(GlError::InvalidValue("size must be positive"));
            }
            if offset < 0 {
                return Err(GlError::InvalidValue("negative offset"));
            }
            if target == gl::SHADER_STORAGE_BUFFER {
                if offset % limits::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT as isize != 0 {
                    return Err(GlError::InvalidValue(
                        "offset is not a multiple of GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT",
                    ));
                }
            } else if target == gl::UNIFORM_BUFFER
                && offset % limits::UNIFORM_BUFFER_OFFSET_ALIGNMENT as isize != 0
            {
                return Err(GlError::InvalidValue(
                    "offset is not a multiple of GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT",
                ));
            } else if target == gl::ATOMIC_COUNTER_BUFFER && offset % 4 != 0 {
                // GL 4.5 core §6.1.1: atomic counter buffer offsets are multiples of 4.
                return Err(GlError::InvalidValue(
                    "offset is not a multiple of 4 for GL_ATOMIC_COUNTER_BUFFER",
                ));
            }
        }
        self.bind_indexed(
            target,
            index,
            buffer,
            offset.max(0) as usize,
            Some(size.max(0) as usize),
        )
    }

    fn bind_indexed(
        &mut self,
        target: u32,
        index: u32,
        buffer: u32,
        offset: usize,
        size: Option<usize>,
    ) -> GlResult<()> {
        // Uniform, shader storage, atomic counter and transform feedback buffers.
        if target == gl::TRANSFORM_FEEDBACK_BUFFER {
            let size = size.map(|s| s as isize);
            self.bind_xfb_buffer(None, index, buffer, offset as isize, size)?;
            match self.buffer_object(buffer)? {
                Some(n) => self.generic_buffers.insert(target, n),
                None => self.generic_buffers.remove(&target),
            };
            return Ok(());
        }
        let (points, limit_name) = match target {
            gl::UNIFORM_BUFFER => (
                &self.uniform_bindings,
                "index past GL_MAX_UNIFORM_BUFFER_BINDINGS",
            ),
            gl::SHADER_STORAGE_BUFFER => (
                &self.storage_bindings,
                "index past GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
            ),
            gl::ATOMIC_COUNTER_BUFFER => (
                &self.atomic_counter_bindings,
                "index past GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS",
            ),
            _ => return Err(GlError::BadEnum("indexed buffer target", target)),
        };
        if index as usize >= points.len() {
            return Err(GlError::InvalidValue(limit_name));
        }
        let name = self.buffer_object(buffer)?;
        let points = match target {
            gl::UNIFORM_BUFFER => &mut self.uniform_bindings,
            gl::ATOMIC_COUNTER_BUFFER => &mut self.atomic_counter_bindings,
            _ => &mut self.storage_bindings,
        };
        points[index as usize] = BufferBinding {
            buffer: name,
            offset,
            size,
        };
        // Binding an indexed point also binds the generic point (GL 4.5 core §6.1.1).
        match name {
            Some(n) => {
                self.generic_buffers.insert(target, n);
            }
            None => {
                self.generic_buffers.remove(&target);
            }
        }
        Ok(())
    }

    pub(crate) fn try_delete_buffers(&mut self, buffers: &[u32]) -> GlResult<()> {
        for &b in buffers {
            let name = BufferName(b);
            if b == 0 || !self.objs.buffers.is_name(name) {
                continue;
            }
            if self.array_buffer == Some(name) {
                self.array_buffer = None;
            }
            if self.loose_element_buffer == Some(name) {
                self.loose_element_buffer = None;
            }
            self.generic_buffers.retain(|_, v| *v != name);
            for u in self
                .uniform_bindings
                .iter_mut()
                .chain(self.storage_bindings.iter_mut())
                .chain(self.atomic_counter_bindings.iter_mut())
            {
                if u.buffer == Some(name) {
                    *u = BufferBinding::default();
                }
            }
            // The bound transform feedback object's bindings too (GL 4.5 core §5.1.2).
            for u in self.xfb.current_mut().buffers.iter_mut() {
                if u.buffer == Some(name) {
                    *u = BufferBinding::default();
                }
            }
            if let Some(vao) = self
                .vertex_array
                .and_then(|v| self.vertex_arrays.get_mut(v))
            {
                vao.unbind_buffer(name);
            }
            self.objs.buffers.remove(name);
        }
        Ok(())
    }

    pub(crate) fn try_buffer_data(
        &mut self,
        target: u32,
        size: isize,
        data: Option<&[u8]>,
        usage: u32,
    ) -> GlResult<()> {
        self.buffer_data_in(Buf::Target(target), size, data, usage)
    }

    pub(crate) fn buffer_data_in(
        &mut self,
        which: Buf,
        size: isize,
        data: Option<&[u8]>,
        usage: u32,
    ) -> GlResult<()> {
        if size < 0 {
            return Err(GlError::InvalidValue("negative size"));
        }
        if !matches!(
            usage,
            gl::STREAM_DRAW
                | gl::STREAM_READ
                | gl::STREAM_COPY
                | gl::STATIC_DRAW
                | gl::STATIC_READ
                | gl::STATIC_COPY
                | gl::DYNAMIC_DRAW
                | gl::DYNAMIC_READ
                | gl::DYNAMIC_COPY
        ) {
            return Err(GlError::BadEnum("buffer usage", usage));
        }
        let size = size as usize;
        if data.is_some_and(|d| d.len() < size) {
            return Err(GlError::InvalidValue("data is shorter than size"));
        }
        let buf = self.buffer_mut(which)?;
        if buf.immutable {
            return Err(GlError::InvalidOperation("buffer storage is immutable"));
        }
        buf.set_store(alloc_bytes(size, data)?);
        buf.usage = usage;
        Ok(())
    }

    pub(crate) fn try_buffer_storage(
        &mut self,
        target: u32,
        size: isize,
        data: Option<&[u8]>,
        flags: u32,
    ) -> GlResult<()> {
        self.buffer_storage_in(Buf::Target(target), size, data, flags)
    }

    pub(crate) fn buffer_storage_in(
        &mut self,
        which: Buf,
        size: isize,
        data: Option<&[u8]>,
        flags: u32,
    ) -> GlResult<()> {
        if size <= 0 {
            return Err(GlError::InvalidValue("size must be positive"));
        }
        if flags & !STORAGE_FLAGS != 0 {
            return Err(GlError::InvalidValue("unknown storage flags"));
        }
        if flags & gl::MAP_PERSISTENT_BIT != 0
            && flags & (gl::MAP_READ_BIT | gl::MAP_WRITE_BIT) == 0
        {
            return Err(GlError::InvalidValue(
                "MAP_PERSISTENT_BIT needs MAP_READ_BIT or MAP_WRITE_BIT",
            ));
        }
        if flags & gl::MAP_COHERENT_BIT != 0 && flags & gl::MAP_PERSISTENT_BIT == 0 {
            return Err(GlError::InvalidValue(
                "MAP_COHERENT_BIT needs MAP_PERSISTENT_BIT",
            ));
        }
        let size = size as usize;
        if data.is_some_and(|d| d.len() < size) {
            return Err(GlError::InvalidValue("data is shorter than size"));
        }
        let buf = self.buffer_mut(which)?;
        if buf.immutable {
            return Err(GlError::InvalidOperation("buffer storage is immutable"));
        }
        buf.set_store(alloc_bytes(size, data)?);
        buf.immutable = true;
        buf.storage_flags = flags;
        buf.usage = gl::DYNAMIC_DRAW;
        Ok(())
    }

    pub(crate) fn try_buffer_sub_data(
        &mut self,
        target: u32,
        offset: isize,
        data: &[u8],
    ) -> GlResult<()> {
        self.buffer_sub_data_in(Buf::Target(target), offset, data)
    }

    pub(crate) fn buffer_sub_data_in(
        &mut self,
        which: Buf,
        offset: isize,
        data: &[u8],
    ) -> GlResult<()> {
        if offset < 0 {
            return Err(GlError::InvalidValue("negative offset"));
        }
        let buf = self.buffer_mut(which)?;
        let offset = offset as usize;
        buf.check_range(offset, data.len())?;
        if buf.blocks_draws() {
            return Err(GlError::InvalidOperation("buffer is mapped"));
        }
        if buf.immutable && buf.storage_flags & gl::DYNAMIC_STORAGE_BIT == 0 {
            return Err(GlError::InvalidOperation(
                "immutable storage without DYNAMIC_STORAGE_BIT",
            ));
        }
        self.write_buffer_bytes(which, offset, data)
    }

    /// Whether a buffer is bound to `target` (GL_PIXEL_PACK_BUFFER / GL_PIXEL_UNPACK_BUFFER:
    /// a pixel command's pointer is then an offset into it, GL 4.5 core §8.4.4, §18.2).
    pub(crate) fn has_buffer_bound(&self, target: u32) -> bool {
        self.generic_buffers.contains_key(&target)
    }

    /// The store of the buffer bound to `target` for a pixel transfer of `len` bytes at
    /// `offset` (given as the command's pointer) of `type_size`-byte components:
    /// GL_INVALID_OPERATION when none is bound, when the buffer is mapped (GL 4.5 core
    /// §6.3.2), when the offset is not a multiple of the component size, or when the
    /// transfer runs past the end of the store (§8.4.4, §18.2.2).
    pub(crate) fn pixel_buffer_range(
        &self,
        target: u32,
        offset: usize,
        len: usize,
        type_size: usize,
    ) -> GlResult<Arc<Vec<u8>>> {
        let buf = self
            .objs
            .buffers
            .get(self.bound_buffer(target)?)
            .ok_or(GlError::InvalidOperation("no buffer bound to the target"))?;
        if buf.blocks_draws() {
            return Err(GlError::InvalidOperation("pixel buffer is mapped"));
        }
        if !offset.is_multiple_of(type_size.max(1)) {
            return Err(GlError::InvalidOperation(
                "pixel buffer offset is not a multiple of the type's size",
            ));
        }
        if offset
            .checked_add(len)
            .is_none_or(|end| end > buf.data.len())
        {
            return Err(GlError::InvalidOperation(
                "pixel transfer runs past the end of the pixel buffer",
            ));
        }
        Ok(buf.data.clone())
    }

    /// Writes `data` into the store of the buffer bound to `target` at `offset` (checked by
    /// the caller): copy-on-write, so queued draws keep the store they saw; what
    /// glBufferSubData and glReadPixels into a pack buffer share. Not subject to
    /// DYNAMIC_STORAGE_BIT, which limits only the client's BufferSubData (§6.2).
    pub(crate) fn store_bytes(&mut self, target: u32, offset: usize, data: &[u8]) -> GlResult<()> {
        self.write_buffer_bytes(Buf::Target(target), offset, data)
    }

    pub(crate) fn write_buffer_bytes(
        &mut self,
        which: Buf,
        offset: usize,
        data: &[u8],
    ) -> GlResult<()> {
        let buf = self.buffer_mut(which)?;
        buf.check_range(offset, data.len())?;
        let persistent = buf.mapping.is_some();
        if persistent {
            // Queued draws of self context read the store: they come first (§6.2.1
            // orders BufferSubData after them), then the store is ours alone.
            self.flush_raster();
        }
        let buf = self.buffer_mut(which)?;
        let range = offset..offset + data.len();
        if let Some(store) = Arc::get_mut(&mut buf.data) {
            store[range].copy_from_slice(data);
            return Ok(());
        }
        if persistent {
            // Another context's queued draw still holds the store: copying is the
            // only safe write, and the mapping keeps pointing at the old copy,
            // which stays alive until the buffer is unmapped.
            buf.orphan = Some(buf.data.clone());
            self.errors.push(DebugMessage {
                source: gl::DEBUG_SOURCE_API,
                ty: gl::DEBUG_TYPE_UNDEFINED_BEHAVIOR,
                id: 3,
                severity: gl::DEBUG_SEVERITY_MEDIUM,
                message: "glBufferSubData on a persistently mapped buffer that another \
                          context's queued draw reads: the mapping no longer aliases \
                          the buffer's contents"
                    .to_string(),
            });
        }
        let buf = self.buffer_mut(which)?;
        Arc::make_mut(&mut buf.data)[range].copy_from_slice(data);
        Ok(())
    }

    pub(crate) fn try_get_buffer_sub_data(
        &mut self,
        target: u32,
        offset: isize,
        size: isize,
    ) -> GlResult<Vec<u8>> {
        self.get_buffer_sub_data_in(Buf::Target(target), offset, size)
    }

    pub(crate) fn get_buffer_sub_data_in(
        &mut self,
        which: Buf,
        offset: isize,
        size: isize,
    ) -> GlResult<Vec<u8>> {
        if offset < 0 || size < 0 {
            return Err(GlError::InvalidValue("negative offset or size"));
        }
        let name = self.resolve(which)?;
        let buf = self
            .objs
            .buffers
            .get(name)
            .ok_or(GlError::InvalidOperation("no buffer"))?;
        let (o, s) = (offset as usize, size as usize);
        buf.check_range(o, s)?;
        if buf.blocks_draws() {
            return Err(GlError::InvalidOperation("buffer is mapped"));
        }
        Ok(buf.data[o..o + s].to_vec())
    }

    pub(crate) fn try_map_buffer_range(
        &mut self,
        target: u32,
        offset: isize,
        length: isize,
        access: u32,
    ) -> GlResult<*mut u8> {
        self.map_buffer_range_in(Buf::Target(target), offset, length, access)
    }

    pub(crate) fn map_buffer_range_in(
        &mut self,
        which: Buf,
        offset: isize,
        length: isize,
        access: u32,
    ) -> GlResult<*mut u8> {
        const KNOWN: u32 = gl::MAP_READ_BIT
            | gl::MAP_WRITE_BIT
            | gl::MAP_INVALIDATE_RANGE_BIT
            | gl::MAP_INVALIDATE_BUFFER_BIT
            | gl::MAP_FLUSH_EXPLICIT_BIT
            | gl::MAP_UNSYNCHRONIZED_BIT
            | gl::MAP_PERSISTENT_BIT
            | gl::MAP_COHERENT_BIT;
        if offset < 0 || length <= 0 {
            return Err(GlError::InvalidValue(
                "negative offset or non-positive length",
            ));
        }
        if access & !KNOWN != 0 {
            return Err(GlError::InvalidValue("unknown access bits"));
        }
        let name = self.resolve(which)?;
        {
            let buf = self
                .objs
                .buffers
                .get(name)
                .ok_or(GlError::InvalidOperation("no buffer"))?;
            let (o, l) = (offset as usize, length as usize);
            buf.check_range(o, l)?;
            if buf.mapping.is_some() {
                return Err(GlError::InvalidOperation("buffer is already mapped"));
            }
            let rw = access & (gl::MAP_READ_BIT | gl::MAP_WRITE_BIT);
            if rw == 0 {
                return Err(GlError::InvalidOperation(
                    "neither MAP_READ_BIT nor MAP_WRITE_BIT",
                ));
            }
            if access & gl::MAP_READ_BIT != 0
                && access
                    & (gl::MAP_INVALIDATE_RANGE_BIT
                        | gl::MAP_INVALIDATE_BUFFER_BIT
                        | gl::MAP_UNSYNCHRONIZED_BIT)
                    != 0
            {
                return Err(GlError::InvalidOperation(
                    "MAP_READ_BIT with invalidate or unsynchronized",
                ));
            }
            if access & gl::MAP_FLUSH_EXPLICIT_BIT != 0 && access & gl::MAP_WRITE_BIT == 0 {
                return Err(GlError::InvalidOperation(
                    "MAP_FLUSH_EXPLICIT_BIT without MAP_WRITE_BIT",
                ));
            }
            if buf.immutable {
                let need = access
                    & (gl::MAP_READ_BIT
                        | gl::MAP_WRITE_BIT
                        | gl::MAP_PERSISTENT_BIT
                        | gl::MAP_COHERENT_BIT);
                if need & !buf.storage_flags != 0 {
                    return Err(GlError::InvalidOperation(
                        "access not allowed by the storage flags",
                    ));
                }
            } else if access & gl::MAP_PERSISTENT_BIT != 0 {
                return Err(GlError::InvalidOperation(
                    "persistent mapping needs glBufferStorage",
                ));
            }
        }
        // Flush point (DESIGN.md §5): queued draws may read this store.
        self.flush_raster();
        let buf = self
            .objs
            .buffers
            .get_mut(name)
            .ok_or(GlError::InvalidOperation("no buffer"))?;
        let (o, l) = (offset as usize, length as usize);
        let store = Arc::make_mut(&mut buf.data);
        buf.mapping = Some(Mapping {
            offset: o,
            length: l,
            access,
        });
        Ok(store[o..].as_mut_ptr())
    }

    pub(crate) fn try_map_buffer(&mut self, target: u32, access: u32) -> GlResult<*mut u8> {
        self.map_buffer_in(Buf::Target(target), access)
    }

    pub(crate) fn map_buffer_in(&mut self, which: Buf, access: u32) -> GlResult<*mut u8> {
        let bits = match access {
            gl::READ_ONLY => gl::MAP_READ_BIT,
            gl::WRITE_ONLY => gl::MAP_WRITE_BIT,
            gl::READ_WRITE => gl::MAP_READ_BIT | gl::MAP_WRITE_BIT,
            _ => return Err(GlError::InvalidEnum("map access")),
        };
        let len = self
            .resolve(which)
            .ok()
            .and_then(|n| self.objs.buffers.get(n))
            .map_or(0, |b| b.data.len());
        self.map_buffer_range_in(which, 0, len as isize, bits)
    }

    pub(crate) fn try_flush_mapped_buffer_range(
        &mut self,
        target: u32,
        offset: isize,
        length: isize,
    ) -> GlResult<()> {
        self.flush_mapped_buffer_range_in(Buf::Target(target), offset, length)
    }

    pub(crate) fn flush_mapped_buffer_range_in(
        &mut self,
        which: Buf,
        offset: isize,
        length: isize,
    ) -> GlResult<()> {
        let name = self.resolve(which)?;
        let buf = self
            .objs
            .buffers
            .get(name)
            .ok_or(GlError::InvalidOperation("no buffer"))?;
        let m = buf
            .mapping
            .ok_or(GlError::InvalidOperation("buffer is not mapped"))?;
        if m.access & gl::MAP_FLUSH_EXPLICIT_BIT == 0 {
            return Err(GlError::InvalidOperation(
                "mapping lacks MAP_FLUSH_EXPLICIT_BIT",
            ));
        }
        if offset < 0 || length < 0 || offset as usize + length as usize > m.length {
            return Err(GlError::InvalidValue("range outside the mapping"));
        }
        Ok(())
    }

    pub(crate) fn try_unmap_buffer(&mut self, target: u32) -> GlResult<bool> {
        self.unmap_buffer_in(Buf::Target(target))
    }

    pub(crate) fn unmap_buffer_in(&mut self, which: Buf) -> GlResult<bool> {
        let buf = self.buffer_mut(which)?;
        if buf.end_mapping().is_none() {
            return Err(GlError::InvalidOperation("buffer is not mapped"));
        }
        Ok(true)
    }

    pub(crate) fn try_get_buffer_parameteriv(&mut self, target: u32, pname: u32) -> GlResult<i32> {
        let v = self.buffer_parameter(Buf::Target(target), pname)?;
        Ok(v.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
    }

    /// A buffer parameter (GL 4.5 core table 6.2) as the 64-bit glGet*BufferParameteri64v
    /// gives it; the `iv` forms clamp it.
    pub(crate) fn buffer_parameter(&mut self, which: Buf, pname: u32) -> GlResult<i64> {
        let name = self.resolve(which)?;
        let b = self
            .objs
            .buffers
            .get(name)
            .ok_or(GlError::InvalidOperation("no buffer"))?;
        let access = b
            .mapping
            .map_or(gl::MAP_READ_BIT | gl::MAP_WRITE_BIT, |m| m.access);
        Ok(match pname {
            gl::BUFFER_SIZE => b.data.len() as i64,
            gl::BUFFER_USAGE => b.usage as i64,
            gl::BUFFER_MAPPED => b.mapping.is_some() as i64,
            gl::BUFFER_ACCESS_FLAGS => b.mapping.map_or(0, |m| m.access) as i64,
            // The old-style access of the mapping (READ_WRITE when unmapped, table 6.2).
            gl::BUFFER_ACCESS => i64::from(match access & (gl::MAP_READ_BIT | gl::MAP_WRITE_BIT) {
                gl::MAP_READ_BIT => gl::READ_ONLY,
                gl::MAP_WRITE_BIT => gl::WRITE_ONLY,
                _ => gl::READ_WRITE,
            }),
            gl::BUFFER_IMMUTABLE_STORAGE => b.immutable as i64,
            gl::BUFFER_STORAGE_FLAGS => b.storage_flags as i64,
            gl::BUFFER_MAP_OFFSET => b.mapping.map_or(0, |m| m.offset) as i64,
            gl::BUFFER_MAP_LENGTH => b.mapping.map_or(0, |m| m.length) as i64,
            _ => return Err(GlError::BadEnum("buffer parameter", pname)),
        })
    }

    /// BUFFER_MAP_POINTER (glGet*BufferPointerv): the mapping's first byte, null when
    /// unmapped.
    pub(crate) fn buffer_map_pointer(&mut self, which: Buf, pname: u32) -> GlResult<*mut u8> {
        if pname != gl::BUFFER_MAP_POINTER {
            return Err(GlError::BadEnum("buffer pointer parameter", pname));
        }
        let name = self.resolve(which)?;
        let b = self
            .objs
            .buffers
            .get(name)
            .ok_or(GlError::InvalidOperation("no buffer"))?;
        let Some(m) = b.mapping else {
            return Ok(std::ptr::null_mut());
        };
        // The store the mapping points into: the kept one when BufferSubData had to
        // replace `data` (see `Buffer::orphan`).
        let store = b.orphan.as_ref().unwrap_or(&b.data);
        Ok(store.as_ptr().wrapping_add(m.offset) as *mut u8)
    }

    /// The name bound to a binding point, for glGet.
    pub(crate) fn buffer_binding_raw(&self, target: u32) -> i32 {
        self.buffer_target(target)
            .ok()
            .flatten()
            .map_or(0, |n| n.raw() as i32)
    }
}

#[cfg(test)]
mod tests {
    use crate::api::Context;
    use crate::gl::enums as gl;

    /// Each generic binding point answers its `*_BINDING` query (GL 4.5 core table 23.x).
    #[test]
    fn generic_binding_points_answer_their_binding_queries() {
        let mut c = Context::with_threads(4, 4, 1);
        let b = c.gen_buffers(4);
        let pairs = [
            (gl::PIXEL_PACK_BUFFER, gl::PIXEL_PACK_BUFFER_BINDING),
            (gl::PIXEL_UNPACK_BUFFER, gl::PIXEL_UNPACK_BUFFER_BINDING),
            (gl::COPY_READ_BUFFER, gl::COPY_READ_BUFFER_BINDING),
            (gl::COPY_WRITE_BUFFER, gl::COPY_WRITE_BUFFER_BINDING),
        ];
        for (k, &(target, query)) in pairs.iter().enumerate() {
            assert_eq!(c.get_integerv(query), vec![0]);
            c.bind_buffer(target, b[k]);
        }
        for (k, &(_, query)) in pairs.iter().enumerate() {
            assert_eq!(c.get_integerv(query), vec![b[k] as i32]);
        }
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }

    #[test]
    fn buffer_data_sub_data_and_errors() {
        let mut c = Context::with_threads(4, 4, 1);
        let b = c.gen_buffers(2);
        assert_eq!(b.len(), 2);
        c.buffer_data(gl::ARRAY_BUFFER, 4, None, gl::STATIC_DRAW);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "nothing bound");
        c.bind_buffer(gl::ARRAY_BUFFER, 777);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "never generated");
        c.bind_buffer(gl::TEXTURE_2D, b[0]);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        assert!(!c.is_buffer(b[0]));
        c.bind_buffer(gl::ARRAY_BUFFER, b[0]);
        assert!(c.is_buffer(b[0]));
        c.buffer_data(
            gl::ARRAY_BUFFER,
            8,
            Some(&[1, 2, 3, 4, 5, 6, 7, 8]),
            gl::STATIC_DRAW,
        );
        c.buffer_sub_data(gl::ARRAY_BUFFER, 6, &[9, 9]);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.buffer_sub_data(gl::ARRAY_BUFFER, 7, &[9, 9]);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.buffer_data(gl::ARRAY_BUFFER, 4, None, 0x1234);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        assert_eq!(
            c.get_buffer_parameteriv(gl::ARRAY_BUFFER, gl::BUFFER_SIZE),
            8,
            "failed calls change nothing"
        );
        assert_eq!(
            c.get_buffer_sub_data(gl::ARRAY_BUFFER, 4, 4),
            vec![5, 6, 9, 9]
        );
        c.delete_buffers(&[b[0]]);
        assert!(!c.is_buffer(b[0]));
        c.bind_buffer(gl::ARRAY_BUFFER, b[0]);
        assert_eq!(
            c.get_error(),
            gl::INVALID_OPERATION,
            "deleted names are not names"
        );
    }

    #[test]
    fn mapping_rules() {
        let mut c = Context::with_threads(4, 4, 1);
        let b = c.create_buffers(1)[0];
        c.bind_buffer(gl::UNIFORM_BUFFER, b);
        c.buffer_storage(gl::UNIFORM_BUFFER, 16, None, gl::MAP_WRITE_BIT);
        assert!(c
            .map_buffer_range(gl::UNIFORM_BUFFER, 0, 16, gl::MAP_READ_BIT)
            .is_null());
        assert_eq!(
            c.get_error(),
            gl::INVALID_OPERATION,
            "READ not in storage flags"
        );
        let p = c.map_buffer_range(gl::UNIFORM_BUFFER, 4, 4, gl::MAP_WRITE_BIT);
        assert!(!p.is_null());
        assert!(c
            .map_buffer_range(gl::UNIFORM_BUFFER, 0, 4, gl::MAP_WRITE_BIT)
            .is_null());
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "already mapped");
        c.buffer_data(gl::UNIFORM_BUFFER, 4, None, gl::STATIC_DRAW);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "immutable");
        assert!(c.unmap_buffer(gl::UNIFORM_BUFFER));
        assert!(!c.unmap_buffer(gl::UNIFORM_BUFFER));
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.bind_buffer_range(gl::UNIFORM_BUFFER, 0, b, 3, 4);
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "misaligned offset");
        let past = c.get_integerv(gl::MAX_UNIFORM_BUFFER_BINDINGS)[0] as u32;
        c.bind_buffer_base(gl::UNIFORM_BUFFER, past, b);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
    }
}
