//! Query objects and conditional rendering (GL 4.5 core §4.2, §4.3, §10.9): names, the
//! active query of each target, results (waiting, polling, into a query buffer), and what
//! a draw or clear does while they are active. Sync objects live in `sync.rs`; the sample
//! counting itself is the tile loop's (`raster::tile`, `DrawCall::samples`).
//!
//! How results become ready: draws are binned when they are called and run at the next
//! flush (`raster`), so a query that ends while work is queued is ready after the next
//! flush of this context (or once nothing is queued); waiting for it is that flush.
//! - Occlusion queries (SAMPLES_PASSED, ANY_SAMPLES_PASSED(_CONSERVATIVE)) give each draw
//!   queued while they are active a shared counter; every tile adds its count once, so the
//!   result is an exact integer sum whatever the thread count. No query active: draws
//!   carry `None` and the tile loop counts nothing.
//! - PRIMITIVES_GENERATED counts at draw time, per vertex stream (no geometry shader: the
//!   primitives assembled from the vertices, every instance, all of stream 0; with one,
//!   or while transform feedback captures, what the last vertex stage produced on each
//!   stream), and TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN what transform feedback wrote per
//!   stream (`transform_feedback.rs`).
//! - TIME_ELAPSED and TIMESTAMP flush at their begin and end (at glQueryCounter): the time
//!   they measure is the time the queued work took to run, which a deferred renderer only
//!   knows by running it there.
//!
//! Like Mesa, the three occlusion targets share one binding point: one of them at a time.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use crate::api::context::Context;
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{Name, NameTable};
use crate::api::sync::Fence;
use crate::gl::enums as gl;
use crate::raster::feedback::StreamCounts;
use crate::raster::DrawCall;

/// A query object name (GL 4.5 core §4.2; per context, query objects are not shared).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QueryName(pub u32);

impl Name for QueryName {
    fn from_raw(raw: u32) -> Self {
        QueryName(raw)
    }
    fn raw(self) -> u32 {
        self.0
    }
}

/// GL_MAX_VERTEX_STREAMS (GL 4.5 core table 23.62's minimum): the indices
/// PRIMITIVES_GENERATED and TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN accept.
pub const MAX_VERTEX_STREAMS: u32 = crate::ir::geometry::MAX_VERTEX_STREAMS;

/// A query object.
#[derive(Debug, Default)]
pub(crate) struct QueryObject {
    /// Fixed at first use (glBeginQuery, glQueryCounter, glCreateQueries).
    target: u32,
    /// The samples the draws of the last begin/end passed (occlusion targets).
    samples: Option<Arc<AtomicU64>>,
    /// Primitives generated, nanoseconds elapsed, or the timestamp.
    value: u64,
    /// TIME_ELAPSED: when it began (`now_ns`).
    start_ns: u64,
    /// The result is ready once this context has flushed more than this many times (or
    /// has nothing queued); `None`: ready.
    ready_after: Option<u64>,
    active: bool,
}

/// The per-context state of queries, conditional rendering and fence tracking.
#[derive(Debug, Default)]
pub(crate) struct QueryState {
    names: NameTable<QueryName, QueryObject>,
    /// (binding point, index) → the active query. The binding point is the target, but
    /// the occlusion targets share GL_SAMPLES_PASSED's.
    active: HashMap<(u32, u32), QueryName>,
    /// The counter the draws queued now add their passed samples to.
    samples: Option<Arc<AtomicU64>>,
    /// Between glBeginConditionalRender and glEndConditionalRender: whether rendering is
    /// discarded (the query's result decided at begin).
    condition: Option<bool>,
    /// How many times this context has flushed its rasterizer.
    flushes: u64,
    /// Fences of this context waiting for the queued work before them.
    pub(crate) pending_fences: Vec<Arc<Fence>>,
}

/// Nanoseconds on this process's monotonic clock (GL_TIMESTAMP, TIME_ELAPSED): one origin
/// for every context, so timestamps of different contexts compare.
pub(crate) fn now_ns() -> u64 {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    let origin = ORIGIN.get_or_init(Instant::now);
    // One nanosecond past the origin at least: 0 is no timestamp.
    u64::try_from(origin.elapsed().as_nanos())
        .unwrap_or(u64::MAX)
        .saturating_add(1)
}

/// The binding point of a target that glBeginQuery accepts; INVALID_ENUM otherwise.
fn binding_point(target: u32) -> GlResult<u32> {
    match target {
        gl::SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED_CONSERVATIVE => {
            Ok(gl::SAMPLES_PASSED)
        }
        gl::PRIMITIVES_GENERATED | gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN | gl::TIME_ELAPSED => {
            Ok(target)
        }
        _ => Err(GlError::BadEnum("query target", target)),
    }
}

/// Checks `index` for `target` (GL 4.5 core §4.2.1): below GL_MAX_VERTEX_STREAMS for the
/// per-stream targets, 0 for the others.
fn check_index(target: u32, index: u32) -> GlResult<()> {
    let max = match target {
        gl::PRIMITIVES_GENERATED | gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN => MAX_VERTEX_STREAMS,
        _ => 1,
    };
    if index >= max {
        return Err(GlError::InvalidValue(
            "query index past GL_MAX_VERTEX_STREAMS (or not 0 for this target)",
        ));
    }
    Ok(())
}

fn is_occlusion(target: u32) -> bool {
    matches!(
        target,
        gl::SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED_CONSERVATIVE
    )
}

/// The primitives a draw generates (GL 4.5 core §10.1, no geometry shader): every
/// instance's primitives (`raster::front::prim_count`; restart is not subtracted).
fn primitives_of(call: &DrawCall) -> u64 {
    let v = &call.vertices;
    let per_instance = crate::raster::front::prim_count(call.topology, v.count);
    u64::from(per_instance) * u64::from(v.instance_count)
}

gl_commands! {
    /// glGenQueries: names only; the object is made at first use (GL 4.5 core §4.2).
    "glGenQueries" fn gen_queries(n: i32) -> Vec<u32> = try_gen_queries;
    /// glCreateQueries: names with objects of `target` (GL 4.5 core §4.2).
    "glCreateQueries" fn create_queries(target: u32, n: i32) -> Vec<u32> = try_create_queries;
    /// glDeleteQueries: an active query ends; unknown names and 0 are ignored.
    "glDeleteQueries" fn delete_queries(ids: &[u32]) = try_delete_queries;
    /// glIsQuery: true for names whose object exists (begun, counted or created).
    "glIsQuery" fn is_query(id: u32) -> bool = try_is_query;
    /// glBeginQuery.
    "glBeginQuery" fn begin_query(target: u32, id: u32) = try_begin_query;
    /// glBeginQueryIndexed (GL 4.5 core §4.2.1).
    "glBeginQueryIndexed"
    fn begin_query_indexed(target: u32, index: u32, id: u32) = try_begin_query_indexed;
    /// glEndQuery.
    "glEndQuery" fn end_query(target: u32) = try_end_query;
    /// glEndQueryIndexed.
    "glEndQueryIndexed" fn end_query_indexed(target: u32, index: u32) = try_end_query_indexed;
    /// glQueryCounter (GL 4.5 core §4.3): the time when every earlier command has run.
    "glQueryCounter" fn query_counter(id: u32, target: u32) = try_query_counter;
    /// glGetQueryiv.
    "glGetQueryiv" fn get_queryiv(target: u32, pname: u32) -> i32 = try_get_queryiv;
    /// glGetQueryIndexediv (GL 4.5 core §4.2.2): GL_CURRENT_QUERY, GL_QUERY_COUNTER_BITS.
    "glGetQueryIndexediv"
    fn get_query_indexediv(target: u32, index: u32, pname: u32) -> i32 = try_get_query_indexediv;
    /// glGetQueryObjectui64v without a query buffer (GL 4.5 core §4.2.3): the value of
    /// `pname` in full; `None` for GL_QUERY_RESULT_NO_WAIT while the result is not ready
    /// (nothing is written then). The other glGetQueryObject* saturate it to their type.
    "glGetQueryObjectui64v"
    fn get_query_object(id: u32, pname: u32) -> Option<u64> = try_get_query_object;
    /// glGetQueryObject* with a buffer bound to GL_QUERY_BUFFER (`buffer` 0), or
    /// glGetQueryBufferObject* (`buffer` names it): writes the value of `pname` as `ty`
    /// (GL_INT, GL_UNSIGNED_INT, GL_INT64_ARB, GL_UNSIGNED_INT64_ARB) at `offset`.
    "glGetQueryBufferObjectui64v"
    fn get_query_object_into_buffer(id: u32, buffer: u32, pname: u32, offset: isize, ty: u32)
        = try_get_query_object_into_buffer;
    /// glBeginConditionalRender (GL 4.5 core §10.9).
    "glBeginConditionalRender"
    fn begin_conditional_render(id: u32, mode: u32) = try_begin_conditional_render;
    /// glEndConditionalRender.
    "glEndConditionalRender" fn end_conditional_render() = try_end_conditional_render;
}

impl Drop for QueryState {
    /// A context going away has run its queued work (the rasterizer flushes when it drops,
    /// before this field does): its fences signal, so another context waiting on one
    /// does not wait out its timeout.
    fn drop(&mut self) {
        self.note_idle();
    }
}

impl QueryState {
    /// Records a flush of the rasterizer: every query ended and fence made before it is
    /// ready.
    pub(crate) fn note_flush(&mut self) {
        self.flushes += 1;
        for f in self.pending_fences.drain(..) {
            f.signal();
        }
    }

    /// Records that nothing is queued: every fence made so far is signaled.
    pub(crate) fn note_idle(&mut self) {
        for f in self.pending_fences.drain(..) {
            f.signal();
        }
    }

    /// Whether draws and clears are discarded now (conditional rendering, GL 4.5 core
    /// §10.9).
    pub(crate) fn discards_rendering(&self) -> bool {
        self.condition == Some(true)
    }
}

impl Context {
    /// Whether the result of `q` is ready (its draws have run).
    fn query_ready(&self, q: &QueryObject) -> bool {
        match q.ready_after {
            None => true,
            Some(n) => self.queries.flushes > n || !self.raster.pending(),
        }
    }

    /// Runs the queued work when the query's result needs it.
    fn wait_for_query(&mut self, name: QueryName) {
        let ready = self
            .queries
            .names
            .get(name)
            .is_some_and(|q| self.query_ready(q));
        if !ready {
            let _ = self.flush_raster();
        }
    }

    /// Turns a draw snapshot into what the active queries and conditional rendering make
    /// of it: `None` when it is discarded; the occlusion counter attached; primitives
    /// counted.
    pub(crate) fn apply_queries(&mut self, mut call: DrawCall) -> Option<DrawCall> {
        let qs = &mut self.queries;
        if qs.discards_rendering() {
            return None;
        }
        call.samples = qs.samples.clone();
        Some(call)
    }

    /// Adds a draw's primitives to the active PRIMITIVES_GENERATED and
    /// TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN queries of each vertex stream (GL 4.5 core
    /// §13.4, ARB_transform_feedback3): `captured` is (generated, written) per stream when
    /// transform feedback captured the draw. Without it, a draw with a geometry shader
    /// runs its vertex stages once more to count what they emit on each stream (only while
    /// such a query is active); without either, every primitive is stream 0's.
    pub(crate) fn count_primitive_queries(
        &mut self,
        call: &DrawCall,
        captured: Option<(StreamCounts, StreamCounts)>,
    ) {
        let qs = &self.queries;
        // No query active (the usual draw): no lookups.
        if qs.active.is_empty() {
            return;
        }
        let active = |target: u32| -> [Option<QueryName>; MAX_VERTEX_STREAMS as usize] {
            std::array::from_fn(|s| qs.active.get(&(target, s as u32)).copied())
        };
        let generated_q = active(gl::PRIMITIVES_GENERATED);
        let written_q = active(gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
        let any_generated = generated_q.iter().any(Option::is_some);
        if !any_generated && written_q.iter().all(Option::is_none) {
            return;
        }
        let (generated, written) = match captured {
            Some(c) => c,
            None if any_generated && (call.program.gs.is_some() || call.program.tess.is_some()) => {
                (
                    crate::raster::feedback::capture(call, false, &mut |_, _| {}).0,
                    StreamCounts::default(),
                )
            }
            None => {
                let mut g = StreamCounts::default();
                g[0] = primitives_of(call);
                (g, StreamCounts::default())
            }
        };
        let pairs = generated_q
            .into_iter()
            .zip(generated)
            .chain(written_q.into_iter().zip(written));
        for (q, n) in pairs {
            if let Some(q) = q.and_then(|name| self.queries.names.get_mut(name)) {
                q.value = q.value.saturating_add(n);
            }
        }
    }

    pub(crate) fn try_gen_queries(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| this.queries.names.gen_many(n))
    }

    pub(crate) fn try_create_queries(&mut self, target: u32, n: i32) -> GlResult<Vec<u32>> {
        if target != gl::TIMESTAMP {
            binding_point(target)?;
        }
        self.make_names(n, |this, n| {
            this.queries.names.create_many(n, || QueryObject {
                target,
                ..QueryObject::default()
            })
        })
    }

    pub(crate) fn try_delete_queries(&mut self, ids: &[u32]) -> GlResult<()> {
        for &id in ids {
            let name = QueryName(id);
            if id == 0 || !self.queries.names.is_name(name) {
                continue;
            }
            // An active query ends with its name (GL 4.5 core §4.2.1).
            let qs = &mut self.queries;
            let slots: Vec<(u32, u32)> = qs
                .active
                .iter()
                .filter(|(_, &n)| n == name)
                .map(|(&k, _)| k)
                .collect();
            for k in slots {
                qs.active.remove(&k);
                if k.0 == gl::SAMPLES_PASSED {
                    qs.samples = None;
                }
            }
            qs.names.remove(name);
        }
        Ok(())
    }

    pub(crate) fn try_is_query(&mut self, id: u32) -> GlResult<bool> {
        Ok(id != 0 && self.queries.names.get(QueryName(id)).is_some())
    }

    pub(crate) fn try_begin_query(&mut self, target: u32, id: u32) -> GlResult<()> {
        self.try_begin_query_indexed(target, 0, id)
    }

    pub(crate) fn try_end_query(&mut self, target: u32) -> GlResult<()> {
        self.try_end_query_indexed(target, 0)
    }

    /// The object of `id` for a command that uses it as `target`, made now if `id` was
    /// only generated (GL 4.5 core §4.2.1 errors).
    fn query_for(&mut self, id: u32, target: u32) -> GlResult<QueryName> {
        if id == 0 {
            return Err(GlError::InvalidOperation("query name 0"));
        }
        let name = QueryName(id);
        let qs = &mut self.queries;
        if !qs.names.ensure(name, || QueryObject {
            target,
            ..QueryObject::default()
        }) {
            return Err(GlError::InvalidOperation(
                "not a name from glGenQueries or glCreateQueries",
            ));
        }
        let q = qs.names.get(name).expect("ensured above");
        if q.active {
            return Err(GlError::InvalidOperation("the query is active"));
        }
        if q.target != target {
            return Err(GlError::BadPair(
                "the query object has another target",
                ("target", target),
                ("object's target", q.target),
            ));
        }
        Ok(name)
    }

    pub(crate) fn try_begin_query_indexed(
        &mut self,
        target: u32,
        index: u32,
        id: u32,
    ) -> GlResult<()> {
        let point = binding_point(target)?;
        check_index(target, index)?;
        if self.queries.active.contains_key(&(point, index)) {
            return Err(GlError::InvalidOperation(
                "a query of this target (and index) is already active",
            ));
        }
        let name = self.query_for(id, target)?;
        if target == gl::TIME_ELAPSED {
            // The work queued before the query is not part of it.
            let _ = self.flush_raster();
        }
        let start_ns = now_ns();
        let counter = is_occlusion(target).then(|| Arc::new(AtomicU64::new(0)));
        let qs = &mut self.queries;
        let q = qs.names.get_mut(name).expect("query_for made it");
        q.active = true;
        q.value = 0;
        q.start_ns = start_ns;
        q.ready_after = None;
        q.samples = counter.clone();
        if counter.is_some() {
            qs.samples = counter;
        }
        qs.active.insert((point, index), name);
        Ok(())
    }

    pub(crate) fn try_end_query_indexed(&mut self, target: u32, index: u32) -> GlResult<()> {
        let point = binding_point(target)?;
        check_index(target, index)?;
        let name = match self.queries.active.get(&(point, index)) {
            Some(&n)
                if self
                    .queries
                    .names
                    .get(n)
                    .is_some_and(|q| q.target == target) =>
            {
                n
            }
            _ => {
                return Err(GlError::InvalidOperation(
                    "no query of this target is active",
                ))
            }
        };
        let ready_after = if target == gl::TIME_ELAPSED {
            let _ = self.flush_raster();
            None
        } else if is_occlusion(target) && self.raster.pending() {
            Some(self.queries.flushes)
        } else {
            None
        };
        let end_ns = now_ns();
        let qs = &mut self.queries;
        qs.active.remove(&(point, index));
        if is_occlusion(target) {
            qs.samples = None;
        }
        let q = qs.names.get_mut(name).expect("active queries exist");
        q.active = false;
        q.ready_after = ready_after;
        if target == gl::TIME_ELAPSED {
            q.value = end_ns.saturating_sub(q.start_ns);
        }
        Ok(())
    }

    pub(crate) fn try_query_counter(&mut self, id: u32, target: u32) -> GlResult<()> {
        if target != gl::TIMESTAMP {
            return Err(GlError::BadEnum("glQueryCounter target", target));
        }
        let name = self.query_for(id, target)?;
        // GL 4.5 core §4.3: the time after every earlier command has completed.
        let _ = self.flush_raster();
        let now = now_ns();
        let q = self.queries.names.get_mut(name).expect("query_for made it");
        q.value = now;
        q.ready_after = None;
        Ok(())
    }

    pub(crate) fn try_get_queryiv(&mut self, target: u32, pname: u32) -> GlResult<i32> {
        self.try_get_query_indexediv(target, 0, pname)
    }

    pub(crate) fn try_get_query_indexediv(
        &mut self,
        target: u32,
        index: u32,
        pname: u32,
    ) -> GlResult<i32> {
        let point = if target == gl::TIMESTAMP {
            None
        } else {
            Some(binding_point(target)?)
        };
        check_index(target, index)?;
        match pname {
            gl::CURRENT_QUERY => Ok(point
                .and_then(|p| self.queries.active.get(&(p, index)))
                .filter(|&&n| {
                    self.queries
                        .names
                        .get(n)
                        .is_some_and(|q| q.target == target)
                })
                .map_or(0, |n| n.0 as i32)),
            // An ANY_SAMPLES_PASSED result is a boolean (Mesa answers 1 too); the others
            // are 64-bit counters.
            gl::QUERY_COUNTER_BITS => Ok(match target {
                gl::ANY_SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED_CONSERVATIVE => 1,
                _ => 64,
            }),
            _ => Err(GlError::BadEnum("query parameter", pname)),
        }
    }

    /// The value of `pname` for query `id` (GL 4.5 core §4.2.3); `None` for
    /// GL_QUERY_RESULT_NO_WAIT before the result is ready.
    pub(crate) fn try_get_query_object(&mut self, id: u32, pname: u32) -> GlResult<Option<u64>> {
        if self.robustness.lost {
            // GL 4.5 core §2.3.1: the one question a lost context answers about a query.
            return match pname {
                gl::QUERY_RESULT_AVAILABLE => Ok(Some(1)),
                _ => Err(GlError::ContextLost("the context was reset")),
            };
        }
        if !matches!(
            pname,
            gl::QUERY_RESULT
                | gl::QUERY_RESULT_AVAILABLE
                | gl::QUERY_RESULT_NO_WAIT
                | gl::QUERY_TARGET
        ) {
            return Err(GlError::BadEnum("query object parameter", pname));
        }
        let name = QueryName(id);
        let q = self
            .queries
            .names
            .get(name)
            .ok_or(GlError::InvalidOperation("not a query object"))?;
        if q.active {
            return Err(GlError::InvalidOperation("the query is active"));
        }
        if pname == gl::QUERY_TARGET {
            return Ok(Some(u64::from(q.target)));
        }
        let ready = self.query_ready(q);
        match pname {
            gl::QUERY_RESULT_NO_WAIT if !ready => return Ok(None),
            // Asking whether it is ready runs the queued work (as Mesa's llvmpipe submits
            // it): repeated polls become true, as §4.2.3 requires, and then it is.
            gl::QUERY_RESULT_AVAILABLE | gl::QUERY_RESULT => self.wait_for_query(name),
            _ => {}
        }
        if pname == gl::QUERY_RESULT_AVAILABLE {
            return Ok(Some(1));
        }
        let q = self.queries.names.get(name).expect("looked up above");
        let samples = q.samples.as_ref().map_or(0, |c| c.load(Ordering::Relaxed));
        Ok(Some(match q.target {
            gl::SAMPLES_PASSED => samples,
            gl::ANY_SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED_CONSERVATIVE => u64::from(samples > 0),
            _ => q.value,
        }))
    }

    pub(crate) fn try_get_query_object_into_buffer(
        &mut self,
        id: u32,
        buffer: u32,
        pname: u32,
        offset: isize,
        ty: u32,
    ) -> GlResult<()> {
        let size = match ty {
            gl::INT | gl::UNSIGNED_INT => 4,
            gl::INT64_ARB | gl::UNSIGNED_INT64_ARB => 8,
            _ => return Err(GlError::BadEnum("query result type", ty)),
        };
        let offset =
            usize::try_from(offset).map_err(|_| GlError::InvalidValue("negative offset"))?;
        let buf_name = if buffer == 0 {
            self.bound_buffer(gl::QUERY_BUFFER)?
        } else {
            crate::api::names::BufferName(buffer)
        };
        let len = self
            .objs
            .buffers
            .get(buf_name)
            .ok_or(GlError::InvalidOperation("not a buffer object"))?
            .data
            .len();
        if offset.checked_add(size).is_none_or(|end| end > len) {
            return Err(GlError::InvalidOperation(
                "the result would be written past the end of the buffer",
            ));
        }
        let Some(v) = self.try_get_query_object(id, pname)? else {
            return Ok(());
        };
        let bytes = match ty {
            gl::INT => (v.min(i32::MAX as u64) as i32).to_le_bytes().to_vec(),
            gl::UNSIGNED_INT => (v.min(u32::MAX as u64) as u32).to_le_bytes().to_vec(),
            gl::INT64_ARB => (v.min(i64::MAX as u64) as i64).to_le_bytes().to_vec(),
            _ => v.to_le_bytes().to_vec(),
        };
        self.store_bytes_in(buf_name, offset, &bytes)
    }

    /// Writes `bytes` at `offset` (checked) of buffer `name`: in place when nothing else
    /// holds the store (a persistent mapping then sees it), else copy-on-write, so queued
    /// draws keep the contents they saw (`buffer.rs`).
    fn store_bytes_in(
        &mut self,
        name: crate::api::names::BufferName,
        offset: usize,
        bytes: &[u8],
    ) -> GlResult<()> {
        if self
            .objs
            .buffers
            .get(name)
            .is_some_and(|b| b.mapping.is_some())
        {
            // The mapping's pointer must keep aliasing the store: drop the queued
            // draws' references first.
            let _ = self.flush_raster();
        }
        let buf = self
            .objs
            .buffers
            .get_mut(name)
            .ok_or(GlError::InvalidOperation("not a buffer object"))?;
        let range = offset..offset + bytes.len();
        match Arc::get_mut(&mut buf.data) {
            Some(store) => store[range].copy_from_slice(bytes),
            None => Arc::make_mut(&mut buf.data)[range].copy_from_slice(bytes),
        }
        Ok(())
    }

    pub(crate) fn try_begin_conditional_render(&mut self, id: u32, mode: u32) -> GlResult<()> {
        let inverted = match mode {
            gl::QUERY_WAIT
            | gl::QUERY_NO_WAIT
            | gl::QUERY_BY_REGION_WAIT
            | gl::QUERY_BY_REGION_NO_WAIT => false,
            gl::QUERY_WAIT_INVERTED
            | gl::QUERY_NO_WAIT_INVERTED
            | gl::QUERY_BY_REGION_WAIT_INVERTED
            | gl::QUERY_BY_REGION_NO_WAIT_INVERTED => true,
            _ => return Err(GlError::BadEnum("conditional render mode", mode)),
        };
        if self.queries.condition.is_some() {
            return Err(GlError::InvalidOperation(
                "conditional rendering is already active",
            ));
        }
        let q = self
            .queries
            .names
            .get(QueryName(id))
            .ok_or(GlError::InvalidValue("not a query object"))?;
        if !is_occlusion(q.target) {
            return Err(GlError::InvalidOperation(
                "the query is not an occlusion query",
            ));
        }
        if q.active {
            return Err(GlError::InvalidOperation("the query is active"));
        }
        // Every mode waits for the result: the NO_WAIT modes may (§10.9), and waiting
        // makes the image the same whenever the work runs.
        self.wait_for_query(QueryName(id));
        let passed = self
            .queries
            .names
            .get(QueryName(id))
            .and_then(|q| q.samples.as_ref())
            .is_some_and(|c| c.load(Ordering::Relaxed) > 0);
        self.queries.condition = Some(passed == inverted);
        Ok(())
    }

    pub(crate) fn try_end_conditional_render(&mut self) -> GlResult<()> {
        if self.queries.condition.take().is_none() {
            return Err(GlError::InvalidOperation(
                "conditional rendering is not active",
            ));
        }
        Ok(())
    }
}
