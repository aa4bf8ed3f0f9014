//! Shader storage buffers at draw time (GL 4.5 core §7.8): which buffer range each storage
//! block of the current program sees, how shader writes reach the buffer objects, and
//! glShaderStorageBlockBinding / glMemoryBarrier. Binding points themselves are set by
//! glBindBufferBase/Range in `buffer.rs`. Atomic counter buffers (GL 4.5 core §7.7) are
//! storage blocks to the shader (`ir::atomic_counter`) and take the same path from their
//! GL_ATOMIC_COUNTER_BUFFER binding points, under the same guarantees.
//!
//! Memory model. A draw gets, per buffer bound to one of its storage blocks, one array of
//! 32-bit words copied from the buffer's store (blocks bound to overlapping ranges of one
//! buffer share it, so they alias as in GL). Every invocation of the draw, on any worker
//! thread, reads and writes those words: stores are plain stores, `atomic*` are real
//! atomic read-modify-writes. A program that can write storage (any store or atomic in
//! either stage) is run at once: the draw is queued, the scene is flushed, and the words
//! are copied back into the buffer (copy-on-write, so draws queued earlier keep what they
//! saw). A program that only reads storage is queued like any draw, reading its copy.
//!
//! What softgl guarantees (GL leaves the order of invocations undefined):
//! - The results are deterministic, for any thread count, when invocations write disjoint
//!   words, or update shared words only with commutative atomics whose return values
//!   are not used (atomicAdd/And/Or/Xor/Min/Max counting, histograms).
//! - Several invocations storing different values to one word, or using the value an
//!   atomic returns on a word other invocations also update (atomicExchange, CompSwap,
//!   a counter used as an index), get one of the orders GL allows; which one may differ
//!   between runs and thread counts. Within one tile, fragments run in primitive order and
//!   a quad's lanes in lane order; tiles run in parallel.
//! - Fragment helper invocations (the lanes of a 2×2 quad outside the primitive) never
//!   write (GLSL 4.60 §7.1.2), and a fragment shader that writes storage runs before the
//!   depth and stencil tests unless it asks for `early_fragment_tests`, so its side effects
//!   happen for every covered fragment, as GL 4.5 §15.2.4 says.
//! - Out-of-range accesses, through a range smaller than the block or an index past an
//!   array's end, read zero and drop stores; an unbound block reads zero.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::BufferName;
use crate::api::program::Executable;
use crate::gl::enums as gl;
use crate::jit::StorageBinding;

/// The storage of one draw: per stage, each storage block's words; and the buffers whose
/// words go back to the buffer object after the draw (only when the program writes).
pub(crate) struct StorageForDraw {
    pub stages: [Vec<Option<StorageBinding>>; 2],
    pub write_back: Vec<(BufferName, Arc<[AtomicU32]>)>,
}

/// Words holding a copy of `bytes` (the last one zero-padded).
fn words_of(bytes: &[u8]) -> GlResult<Arc<[AtomicU32]>> {
    let n = bytes.len().div_ceil(4);
    let mut v: Vec<AtomicU32> = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| GlError::OutOfMemoryFor(bytes.len() as u64, "bytes"))?;
    v.extend(bytes.chunks(4).map(|c| {
        let mut w = [0u8; 4];
        w[..c.len()].copy_from_slice(c);
        AtomicU32::new(u32::from_le_bytes(w))
    }));
    Ok(v.into())
}

gl_commands! {
    /// glShaderStorageBlockBinding (GL 4.5 core §7.8).
    "glShaderStorageBlockBinding"
    fn shader_storage_block_binding(program: u32, index: u32, binding: u32)
        = try_shader_storage_block_binding;
    /// glMemoryBarrier (GL 4.5 core §7.13.2): every draw that writes storage has finished
    /// and written back before the call that queued it returned, so there is nothing to
    /// wait for; only the bits are checked.
    "glMemoryBarrier" fn memory_barrier(barriers: u32) = try_memory_barrier;
    /// glMemoryBarrierByRegion: as glMemoryBarrier, for the bits it allows.
    "glMemoryBarrierByRegion" fn memory_barrier_by_region(barriers: u32)
        = try_memory_barrier_by_region;
}

impl Context {
    pub(crate) fn try_shader_storage_block_binding(
        &mut self,
        program: u32,
        index: u32,
        binding: u32,
    ) -> GlResult<()> {
        if binding >= limits::MAX_SHADER_STORAGE_BUFFER_BINDINGS {
            return Err(GlError::InvalidValue(
                "binding past GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
            ));
        }
        self.set_storage_block_binding(program, index, binding)
    }

    pub(crate) fn try_memory_barrier(&mut self, barriers: u32) -> GlResult<()> {
        if barriers != gl::ALL_BARRIER_BITS && barriers & !ALL_BARRIER_BITS_KNOWN != 0 {
            return Err(GlError::InvalidValue("unknown barrier bits"));
        }
        Ok(())
    }

    pub(crate) fn try_memory_barrier_by_region(&mut self, barriers: u32) -> GlResult<()> {
        const BY_REGION: u32 = gl::ATOMIC_COUNTER_BARRIER_BIT
            | gl::FRAMEBUFFER_BARRIER_BIT
            | gl::SHADER_IMAGE_ACCESS_BARRIER_BIT
            | gl::SHADER_STORAGE_BARRIER_BIT
            | gl::TEXTURE_FETCH_BARRIER_BIT
            | gl::UNIFORM_BARRIER_BIT;
        if barriers != gl::ALL_BARRIER_BITS && barriers & !BY_REGION != 0 {
            return Err(GlError::InvalidValue("barrier bits not allowed by region"));
        }
        Ok(())
    }

    /// The storage blocks of `exe` for a draw: each bound range as words, None for an
    /// empty binding point (INVALID_OPERATION when a buffer is mapped without
    /// GL_MAP_PERSISTENT_BIT, GL 4.5 core §6.3.2).
    pub(crate) fn storage_for_draw(&self, exe: &Executable) -> GlResult<StorageForDraw> {
        let mut stages: [Vec<Option<StorageBinding>>; 2] = [Vec::new(), Vec::new()];
        let linked = &exe.linked;
        for (stage, out) in stages.iter_mut().enumerate() {
            let n = (linked.storage_blocks.iter())
                .chain(&linked.atomic_counter_buffers)
                .filter_map(|b| b.stage_index[stage])
                .max()
                .map_or(0, |m| m as usize + 1);
            out.resize(n, None);
        }
        // Each block with the binding point it reads: storage blocks through the
        // program's glShaderStorageBlockBinding points, atomic counter buffers (hidden
        // storage blocks, `ir::atomic_counter`) through their fixed `layout(binding)`.
        let storage = linked.storage_blocks.iter().enumerate().map(|(bi, b)| {
            let point = exe.storage_bindings.get(bi).copied().unwrap_or(0);
            (b, self.storage_bindings.get(point as usize))
        });
        let counters = (linked.atomic_counter_buffers.iter())
            .map(|b| (b, self.atomic_counter_bindings.get(b.binding as usize)));
        let mut copies: Vec<(BufferName, Arc<[AtomicU32]>)> = Vec::new();
        for (b, binding) in storage.chain(counters) {
            let binding = binding.copied().unwrap_or_default();
            // No buffer at the binding point: GL leaves accesses undefined; here the block
            // reads 0 and drops writes (robust access), as Mesa does, without an error.
            let Some((name, buf)) = binding
                .buffer
                .and_then(|n| Some((n, self.objs.buffers.get(n)?)))
            else {
                continue;
            };
            if buf.blocks_draws() {
                return Err(GlError::InvalidOperation(
                    "a shader storage or atomic counter buffer is mapped",
                ));
            }
            let words = match copies.iter().find(|c| c.0 == name) {
                Some(c) => c.1.clone(),
                None => {
                    let w = words_of(&buf.data)?;
                    copies.push((name, w.clone()));
                    w
                }
            };
            // Offsets are multiples of SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT (a multiple
            // of 4); a range ending inside a word loses that partial word.
            let bytes = buf.data.len();
            let start = binding.offset.min(bytes);
            let len = binding.size.unwrap_or(usize::MAX).min(bytes - start);
            for (out, index) in stages.iter_mut().zip(b.stage_index) {
                if let Some(i) = index {
                    out[i as usize] = Some((words.clone(), start / 4, len / 4));
                }
            }
        }
        Ok(StorageForDraw {
            stages,
            write_back: if exe.writes_storage {
                copies
            } else {
                Vec::new()
            },
        })
    }

    /// After a draw that writes storage was queued: runs it, then copies each buffer's
    /// words back into its store (copy-on-write: queued draws of other contexts keep the
    /// store they saw).
    pub(crate) fn write_back_storage(&mut self, write_back: Vec<(BufferName, Arc<[AtomicU32]>)>) {
        if write_back.is_empty() {
            return;
        }
        self.flush_raster();
        for (name, words) in write_back {
            let Some(buf) = self.objs.buffers.get_mut(name) else {
                continue;
            };
            let n = buf.data.len().min(words.len() * 4);
            if buf.mapping.is_some() && Arc::get_mut(&mut buf.data).is_none() {
                // A persistent mapping points into this store, which another context's
                // queued draw still reads: keep it alive for the mapping (as
                // glBufferSubData does), the buffer gets the copy.
                buf.orphan = Some(buf.data.clone());
            }
            let store = Arc::make_mut(&mut buf.data);
            for (chunk, w) in store[..n].chunks_mut(4).zip(words.iter()) {
                let b = w.load(Ordering::Relaxed).to_le_bytes();
                chunk.copy_from_slice(&b[..chunk.len()]);
            }
        }
    }
}

/// Every barrier bit GL 4.5 defines (glMemoryBarrier takes any of them).
const ALL_BARRIER_BITS_KNOWN: u32 = gl::VERTEX_ATTRIB_ARRAY_BARRIER_BIT
    | gl::ELEMENT_ARRAY_BARRIER_BIT
    | gl::UNIFORM_BARRIER_BIT
    | gl::TEXTURE_FETCH_BARRIER_BIT
    | gl::SHADER_IMAGE_ACCESS_BARRIER_BIT
    | gl::COMMAND_BARRIER_BIT
    | gl::PIXEL_BUFFER_BARRIER_BIT
    | gl::TEXTURE_UPDATE_BARRIER_BIT
    | gl::BUFFER_UPDATE_BARRIER_BIT
    | gl::FRAMEBUFFER_BARRIER_BIT
    | gl::TRANSFORM_FEEDBACK_BARRIER_BIT
    | gl::ATOMIC_COUNTER_BARRIER_BIT
    | gl::SHADER_STORAGE_BARRIER_BIT
    | gl::CLIENT_MAPPED_BUFFER_BARRIER_BIT
    | gl::QUERY_BUFFER_BARRIER_BIT;
