//! Transform feedback at the API (GL 4.5 core §13.3, §7.13, ARB_transform_feedback2/3,
//! ARB_transform_feedback_instanced, GL 4.5 DSA): glTransformFeedbackVaryings and the
//! link-time layout it makes (which output words of the last vertex stage go to which
//! byte of which buffer, `XfbLayout`), transform feedback objects and their binding
//! points, Begin/End/Pause/Resume with the errors of §13.3, the capture of a draw into the
//! bound buffers (the words come from `raster::feedback`; the overflow rule of §13.3.2
//! is applied here, per vertex stream), glDrawTransformFeedback*(Stream), and
//! GL_RASTERIZER_DISCARD's draw side. Vertex streams (ARB_transform_feedback3, GL 4.5
//! core §11.3.4.3, §13.3): each buffer of an interleaved layout takes the stream of its
//! varyings (all of one stream, or the link fails), a primitive of stream n is written to
//! the buffers of stream n only, and the overflow rule, the vertex counts that
//! glDrawTransformFeedbackStream draws and the primitive queries are per stream.
//! The layout may come from the shader instead: `xfb_buffer` / `xfb_offset` /
//! `xfb_stride` qualifiers (GLSL 4.40 §4.4.2.1, `glsl/xfb.rs`) make it at link, in
//! interleaved mode, and glTransformFeedbackVaryings' names are then ignored.

use std::sync::Arc;

use crate::api::buffer::Buf;
use crate::api::context::{BufferBinding, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::api::names::{BufferName, Name, NameTable, ProgramObjectName};
use crate::gl::enums as gl;
use crate::ir::geometry::MAX_VERTEX_STREAMS;
use crate::ir::{InterfaceVar, Module};
use crate::raster::feedback::StreamCounts;
use crate::raster::{DrawCall, Topology};

/// GL_MAX_TRANSFORM_FEEDBACK_BUFFERS (llvmpipe's 4, GL 4.5 core table 23.63's minimum).
pub const MAX_BUFFERS: usize =
    crate::glsl::builtin_constants::MAX_TRANSFORM_FEEDBACK_BUFFERS as usize;
/// GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS (llvmpipe: 64).
pub const MAX_INTERLEAVED_COMPONENTS: u32 =
    crate::glsl::builtin_constants::MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS as u32;
/// GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS (llvmpipe: 4).
pub const MAX_SEPARATE_ATTRIBS: u32 = 4;
/// GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS: llvmpipe's 64 (piglit's gl-3.0-minmax on
/// Mesa, 2026-11-27; the minimum is 4). A double counts as two components, so a separately
/// captured dvec3 (ARB_gpu_shader_fp64's tf-separate) needs 6.
pub const MAX_SEPARATE_COMPONENTS: u32 = 64;

/// A transform feedback object name (per context, GL 4.5 core §13.3.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TransformFeedbackName(pub u32);

impl Name for TransformFeedbackName {
    fn from_raw(raw: u32) -> Self {
        TransformFeedbackName(raw)
    }
    fn raw(self) -> u32 {
        self.0
    }
}

/// One name of glTransformFeedbackVaryings as the program reports it (§7.13,
/// glGetTransformFeedbackVarying).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct XfbVarying {
    pub name: String,
    /// The GL type (GL_FLOAT_VEC4, ...); GL_NONE for gl_SkipComponents* / gl_NextBuffer.
    pub ty: u32,
    /// Elements (1 for a non-array or one element; the skipped components of
    /// gl_SkipComponentsN; 0 for gl_NextBuffer).
    pub size: i32,
    /// The buffer it is written to and its byte offset in a vertex there.
    pub buffer: u32,
    pub offset_bytes: u32,
}

/// Words of the last vertex stage's outputs copied into one buffer per vertex.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct XfbBuffer {
    /// Bytes per vertex (skipped components included).
    pub stride_bytes: u32,
    /// The vertex stream whose vertices it records (its varyings'; 0 when it has none).
    pub stream: u32,
    /// (word offset in the vertex, first output slot, words).
    pub copies: Vec<(u32, u32, u32)>,
}

/// What a linked program captures (empty: nothing; then BeginTransformFeedback fails).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct XfbLayout {
    pub separate: bool,
    pub varyings: Vec<XfbVarying>,
    /// By binding index; a buffer with stride 0 needs no binding.
    pub buffers: Vec<XfbBuffer>,
}

impl XfbLayout {
    pub fn is_empty(&self) -> bool {
        self.varyings.is_empty()
    }
}

/// One transform feedback object (GL 4.5 core table 23.48).
#[derive(Clone, Debug, Default)]
pub(crate) struct XfbObject {
    pub buffers: [BufferBinding; MAX_BUFFERS],
    pub active: bool,
    pub paused: bool,
    /// glBeginTransformFeedback's primitive mode.
    pub mode: u32,
    /// The program current at Begin and what it captures.
    pub program: Option<ProgramObjectName>,
    pub layout: Arc<XfbLayout>,
    /// Bytes written into each buffer since Begin, from its binding's offset.
    pub written: [usize; MAX_BUFFERS],
    /// Vertices recorded since Begin, per vertex stream.
    pub vertices: StreamCounts,
    /// Vertices recorded per stream between the last Begin and End: what
    /// DrawTransformFeedbackStream draws (`None` until an End).
    pub drawable: Option<StreamCounts>,
}

/// The per-context state: objects, the default object (name 0) and the binding.
#[derive(Debug, Default)]
pub(crate) struct XfbState {
    names: NameTable<TransformFeedbackName, XfbObject>,
    default: XfbObject,
    bound: Option<TransformFeedbackName>,
}

impl XfbState {
    /// The bound object (the default one when 0 is bound).
    pub(crate) fn current(&self) -> &XfbObject {
        self.bound
            .and_then(|n| self.names.get(n))
            .unwrap_or(&self.default)
    }

    pub(crate) fn current_mut(&mut self) -> &mut XfbObject {
        match self.bound {
            Some(n) if self.names.get(n).is_some() => self.names.get_mut(n).expect("checked above"),
            _ => &mut self.default,
        }
    }

    /// Object `id` (0: the default one); `None` when it is not an object.
    fn object_mut(&mut self, id: u32) -> Option<&mut XfbObject> {
        if id == 0 {
            Some(&mut self.default)
        } else {
            self.names.get_mut(TransformFeedbackName(id))
        }
    }

    fn object(&self, id: u32) -> Option<&XfbObject> {
        if id == 0 {
            Some(&self.default)
        } else {
            self.names.get(TransformFeedbackName(id))
        }
    }

    /// Transform feedback is active and not paused: draws capture.
    pub(crate) fn capturing(&self) -> bool {
        let o = self.current();
        o.active && !o.paused
    }

    /// Whether `program` is the one an active (even paused) object of this context
    /// captures with (glLinkProgram refuses to relink it, GL 4.5 core §7.3).
    pub(crate) fn uses_program(&self, program: ProgramObjectName) -> bool {
        let o = self.current();
        o.active && o.program == Some(program)
    }
}

/// The link step of glTransformFeedbackVaryings (GL 4.5 core §11.1.2.1): the layout of
/// `names` over the outputs of `last` (the last vertex stage), or the info-log lines of
/// its errors. ARB_transform_feedback3: the varyings of one buffer come from one vertex
/// stream.
pub(crate) fn link_varyings(
    last: &Module,
    names: &[String],
    separate: bool,
) -> Result<XfbLayout, String> {
    if !last.xfb.is_empty() {
        return link_qualifiers(last);
    }
    let outputs: &[InterfaceVar] = &last.outputs;
    // The stream of each buffer's first varying, for the check.
    let mut streams: Vec<Option<u32>> = Vec::new();
    let mut layout = XfbLayout {
        separate,
        ..XfbLayout::default()
    };
    if names.is_empty() {
        return Ok(layout);
    }
    let mut errors = String::new();
    let mut buffer = 0u32;
    let mut words_in_buffer = 0u32;
    let mut components = 0u32;
    let mut seen: Vec<&str> = Vec::new();
    layout.buffers.push(XfbBuffer::default());
    for (k, name) in names.iter().enumerate() {
        if separate && k > 0 {
            buffer += 1;
            words_in_buffer = 0;
            layout.buffers.push(XfbBuffer::default());
        }
        let special = match name.as_str() {
            "gl_NextBuffer" => Some(None),
            "gl_SkipComponents1" => Some(Some(1)),
            "gl_SkipComponents2" => Some(Some(2)),
            "gl_SkipComponents3" => Some(Some(3)),
            "gl_SkipComponents4" => Some(Some(4)),
            _ => None,
        };
        if let Some(skip) = special {
            if separate {
                errors.push_str(&format!(
                    "error: transform feedback varying `{name}' is only allowed with \
                     GL_INTERLEAVED_ATTRIBS\n"
                ));
                continue;
            }
            match skip {
                None => {
                    layout.varyings.push(XfbVarying {
                        name: name.clone(),
                        ty: gl::NONE,
                        size: 0,
                        buffer,
                        offset_bytes: words_in_buffer * 4,
                    });
                    buffer += 1;
                    words_in_buffer = 0;
                    if buffer as usize >= MAX_BUFFERS {
                        errors.push_str(
                            "error: gl_NextBuffer passes GL_MAX_TRANSFORM_FEEDBACK_BUFFERS\n",
                        );
                        break;
                    }
                    layout.buffers.push(XfbBuffer::default());
                }
                Some(n) => {
                    layout.varyings.push(XfbVarying {
                        name: name.clone(),
                        ty: gl::NONE,
                        size: n,
                        buffer,
                        offset_bytes: words_in_buffer * 4,
                    });
                    words_in_buffer += n as u32;
                    components += n as u32;
                    layout.buffers[buffer as usize].stride_bytes = words_in_buffer * 4;
                }
            }
            continue;
        }
        let Some((slot, words, ty, size)) = resolve(outputs, name) else {
            errors.push_str(&format!(
                "error: transform feedback varying `{name}' is not an output of the last \
                 vertex processing stage\n"
            ));
            continue;
        };
        if seen.contains(&name.as_str()) {
            errors.push_str(&format!(
                "error: transform feedback varying `{name}' is specified more than once\n"
            ));
            continue;
        }
        seen.push(name);
        let stream = last.geometry.stream_of(resolve_base(name));
        let b = buffer as usize;
        streams.resize(streams.len().max(b + 1), None);
        match streams[b] {
            Some(other) if other != stream => {
                errors.push_str(&format!(
                    "error: transform feedback varying `{name}' is of vertex stream {stream}, \
                     but buffer {b} already records stream {other}\n"
                ));
                continue;
            }
            _ => streams[b] = Some(stream),
        }
        layout.buffers[b].stream = stream;
        if separate && words > MAX_SEPARATE_COMPONENTS {
            errors.push_str(&format!(
                "error: transform feedback varying `{name}' has {words} components, more \
                 than GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS ({MAX_SEPARATE_COMPONENTS})\n"
            ));
            continue;
        }
        layout.varyings.push(XfbVarying {
            name: name.clone(),
            ty,
            size,
            buffer,
            offset_bytes: words_in_buffer * 4,
        });
        let b = &mut layout.buffers[buffer as usize];
        b.copies.push((words_in_buffer, slot, words));
        words_in_buffer += words;
        b.stride_bytes = words_in_buffer * 4;
        components += words;
    }
    if !separate && components > MAX_INTERLEAVED_COMPONENTS {
        errors.push_str(&format!(
            "error: transform feedback captures {components} components, more than \
             GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS ({MAX_INTERLEAVED_COMPONENTS})\n"
        ));
    }
    if errors.is_empty() {
        Ok(layout)
    } else {
        Err(errors)
    }
}

/// The capture layout the transform feedback qualifiers of `last` give (GL 4.5 core
/// §11.1.2.1 as ARB_enhanced_layouts amends it): each output with an offset is written at
/// that byte offset of its buffer, a buffer's stride is its `xfb_stride` or else the end
/// of its last output, and the link fails when two outputs of a buffer overlap, a stride
/// is smaller than its outputs need, or one buffer has outputs of two vertex streams.
/// The varyings are listed by buffer, then offset (the order is the implementation's).
fn link_qualifiers(last: &Module) -> Result<XfbLayout, String> {
    let mut layout = XfbLayout::default();
    let mut errors = String::new();
    let mut captures = last.xfb.captures.clone();
    captures.sort_by_key(|&(_, buffer, offset)| (buffer, offset));
    let buffers = captures.iter().map(|c| c.1 + 1).max().unwrap_or(0);
    layout.buffers = vec![XfbBuffer::default(); buffers as usize];
    // Per buffer: the end of the output before, and its name; the stream.
    let mut ends: Vec<Option<(u32, &str)>> = vec![None; buffers as usize];
    let mut streams: Vec<Option<u32>> = vec![None; buffers as usize];
    for (name, buffer, offset) in &captures {
        let b = *buffer as usize;
        let Some((slot, words, ty, size)) = resolve(&last.outputs, name) else {
            errors.push_str(&format!(
                "error: `{name}' has an xfb_offset but is not an output softgl can capture\n"
            ));
            continue;
        };
        if let Some((end, before)) = ends[b] {
            if end > *offset {
                errors.push_str(&format!(
                    "error: `{name}' at xfb_offset {offset} of buffer {b} overlaps `{before}', \
                     which ends at byte {end}\n"
                ));
            }
        }
        let end = offset + 4 * words;
        ends[b] = Some((end, name));
        let stream = last.geometry.stream_of(resolve_base(name));
        match streams[b] {
            Some(other) if other != stream => errors.push_str(&format!(
                "error: `{name}' is of vertex stream {stream}, but transform feedback buffer {b} \
                 already records stream {other}\n"
            )),
            _ => streams[b] = Some(stream),
        }
        let xb = &mut layout.buffers[b];
        xb.stream = stream;
        xb.copies.push((offset / 4, slot, words));
        xb.stride_bytes = xb.stride_bytes.max(end);
        layout.varyings.push(XfbVarying {
            name: name.clone(),
            ty,
            size,
            buffer: *buffer,
            offset_bytes: *offset,
        });
    }
    // A stride of a buffer no output is written to changes nothing: that buffer is not
    // used (no binding is needed, GL 4.5 core §13.3.1).
    for &(buffer, stride) in &last.xfb.strides {
        let Some(xb) = layout.buffers.get_mut(buffer as usize) else {
            continue;
        };
        if xb.copies.is_empty() {
            continue;
        }
        if stride < xb.stride_bytes {
            errors.push_str(&format!(
                "error: xfb_stride {stride} of buffer {buffer} is smaller than its outputs need \
                 ({} bytes)\n",
                xb.stride_bytes
            ));
        }
        xb.stride_bytes = stride;
    }
    if errors.is_empty() {
        Ok(layout)
    } else {
        Err(errors)
    }
}

/// The output a varying name names: `v` of `v[2]`.
fn resolve_base(name: &str) -> &str {
    match name.strip_suffix(']').and_then(|s| s.rsplit_once('[')) {
        Some((b, _)) => b,
        None => name,
    }
}

/// A varying name (`v`, `v[2]`, `Block.member`, `gl_Position`, `gl_ClipDistance[1]`) as
/// (first output slot, words, GL type, size) of `outputs`.
fn resolve(outputs: &[InterfaceVar], name: &str) -> Option<(u32, u32, u32, i32)> {
    let (base, index) = match name.strip_suffix(']').and_then(|s| s.rsplit_once('[')) {
        Some((b, i)) => (b, Some(i.parse::<u32>().ok()?)),
        None => (name, None),
    };
    let o = outputs.iter().find(|o| o.name == base)?;
    let elem_words = o.ty.words();
    // A struct output is one opaque run of words: its members cannot be named yet.
    let elements = o.array_len.unwrap_or(1);
    if elem_words * elements != o.words {
        return None;
    }
    let ty = o.ty.gl_enum();
    match (index, o.array_len) {
        (None, None) => Some((o.slot, elem_words, ty, 1)),
        (None, Some(n)) => Some((o.slot, o.words, ty, n as i32)),
        (Some(i), Some(n)) if i < n => Some((o.slot + i * elem_words, elem_words, ty, 1)),
        _ => None,
    }
}

/// Whether draw mode `t` may be drawn while capturing `mode` with no geometry shader
/// (GL 4.5 core §13.3.1, table 13.1).
fn mode_allows(mode: u32, t: Topology) -> bool {
    use Topology as T;
    match mode {
        gl::POINTS => t == T::Points,
        gl::LINES => matches!(
            t,
            T::Lines | T::LineStrip | T::LineLoop | T::LinesAdjacency | T::LineStripAdjacency
        ),
        _ => matches!(
            t,
            T::Triangles
                | T::TriangleStrip
                | T::TriangleFan
                | T::TrianglesAdjacency
                | T::TriangleStripAdjacency
        ),
    }
}

gl_commands! {
    /// glTransformFeedbackVaryings (GL 4.5 core §11.1.2.1): used at the next link.
    "glTransformFeedbackVaryings"
    fn transform_feedback_varyings(program: u32, varyings: &[&str], buffer_mode: u32)
        = try_transform_feedback_varyings;
    /// glGetTransformFeedbackVarying: (size, type, name) of varying `index`.
    "glGetTransformFeedbackVarying"
    fn get_transform_feedback_varying(program: u32, index: u32) -> (i32, u32, String)
        = try_get_transform_feedback_varying;
    /// glBeginTransformFeedback (GL 4.5 core §13.3.1).
    "glBeginTransformFeedback"
    fn begin_transform_feedback(primitive_mode: u32) = try_begin_transform_feedback;
    /// glEndTransformFeedback.
    "glEndTransformFeedback" fn end_transform_feedback() = try_end_transform_feedback;
    /// glPauseTransformFeedback (GL 4.5 core §13.3.2).
    "glPauseTransformFeedback" fn pause_transform_feedback() = try_pause_transform_feedback;
    /// glResumeTransformFeedback.
    "glResumeTransformFeedback" fn resume_transform_feedback() = try_resume_transform_feedback;
    /// glGenTransformFeedbacks: names only; the object is made at first bind.
    "glGenTransformFeedbacks"
    fn gen_transform_feedbacks(n: i32) -> Vec<u32> = try_gen_transform_feedbacks;
    /// glCreateTransformFeedbacks (GL 4.5 DSA): names with objects.
    "glCreateTransformFeedbacks"
    fn create_transform_feedbacks(n: i32) -> Vec<u32> = try_create_transform_feedbacks;
    /// glDeleteTransformFeedbacks: an active object is GL_INVALID_OPERATION.
    "glDeleteTransformFeedbacks"
    fn delete_transform_feedbacks(ids: &[u32]) = try_delete_transform_feedbacks;
    /// glBindTransformFeedback (target GL_TRANSFORM_FEEDBACK).
    "glBindTransformFeedback"
    fn bind_transform_feedback(target: u32, id: u32) = try_bind_transform_feedback;
    /// glIsTransformFeedback.
    "glIsTransformFeedback" fn is_transform_feedback(id: u32) -> bool = try_is_transform_feedback;
    /// glTransformFeedbackBufferBase (GL 4.5 DSA).
    "glTransformFeedbackBufferBase"
    fn transform_feedback_buffer_base(xfb: u32, index: u32, buffer: u32)
        = try_transform_feedback_buffer_base;
    /// glTransformFeedbackBufferRange (GL 4.5 DSA).
    "glTransformFeedbackBufferRange"
    fn transform_feedback_buffer_range(xfb: u32, index: u32, buffer: u32, offset: isize, size: isize)
        = try_transform_feedback_buffer_range;
    /// glGetTransformFeedbackiv: GL_TRANSFORM_FEEDBACK_PAUSED / _ACTIVE.
    "glGetTransformFeedbackiv"
    fn get_transform_feedbackiv(xfb: u32, pname: u32) -> i32 = try_get_transform_feedbackiv;
    /// glGetTransformFeedbacki_v: GL_TRANSFORM_FEEDBACK_BUFFER_BINDING.
    "glGetTransformFeedbacki_v"
    fn get_transform_feedbacki_v(xfb: u32, pname: u32, index: u32) -> i32
        = try_get_transform_feedbacki_v;
    /// glGetTransformFeedbacki64_v: GL_TRANSFORM_FEEDBACK_BUFFER_START / _SIZE.
    "glGetTransformFeedbacki64_v"
    fn get_transform_feedbacki64_v(xfb: u32, pname: u32, index: u32) -> i64
        = try_get_transform_feedbacki64_v;
    /// glDrawTransformFeedback (GL 4.5 core §10.4): the vertices captured in `id`.
    "glDrawTransformFeedback" fn draw_transform_feedback(mode: u32, id: u32)
        = try_draw_transform_feedback;
    /// glDrawTransformFeedbackInstanced.
    "glDrawTransformFeedbackInstanced"
    fn draw_transform_feedback_instanced(mode: u32, id: u32, instancecount: i32)
        = try_draw_transform_feedback_instanced;
    /// glDrawTransformFeedbackStream.
    "glDrawTransformFeedbackStream"
    fn draw_transform_feedback_stream(mode: u32, id: u32, stream: u32)
        = try_draw_transform_feedback_stream;
    /// glDrawTransformFeedbackStreamInstanced.
    "glDrawTransformFeedbackStreamInstanced"
    fn draw_transform_feedback_stream_instanced(mode: u32, id: u32, stream: u32, instancecount: i32)
        = try_draw_transform_feedback_stream_instanced;
}

impl Context {
    pub(crate) fn try_transform_feedback_varyings(
        &mut self,
        program: u32,
        varyings: &[&str],
        buffer_mode: u32,
    ) -> GlResult<()> {
        let separate = match buffer_mode {
            gl::INTERLEAVED_ATTRIBS => false,
            gl::SEPARATE_ATTRIBS => true,
            _ => {
                return Err(GlError::BadEnum(
                    "transform feedback buffer mode",
                    buffer_mode,
                ))
            }
        };
        if separate && varyings.len() > MAX_SEPARATE_ATTRIBS as usize {
            return Err(GlError::InvalidValue(
                "more varyings than GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS",
            ));
        }
        self.program_obj(program)?;
        // ARB_transform_feedback3 (GL 4.5 core §11.1.2.1): the separators are for
        // interleaved mode, and gl_NextBuffer names one of the buffers after the first.
        let special = |v: &&str| {
            matches!(
                *v,
                "gl_NextBuffer"
                    | "gl_SkipComponents1"
                    | "gl_SkipComponents2"
                    | "gl_SkipComponents3"
                    | "gl_SkipComponents4"
            )
        };
        if separate && varyings.iter().any(special) {
            return Err(GlError::InvalidOperation(
                "gl_NextBuffer and gl_SkipComponents* need GL_INTERLEAVED_ATTRIBS",
            ));
        }
        if varyings.iter().filter(|v| **v == "gl_NextBuffer").count() >= MAX_BUFFERS {
            return Err(GlError::InvalidOperation(
                "as many gl_NextBuffer as GL_MAX_TRANSFORM_FEEDBACK_BUFFERS or more",
            ));
        }
        let p = self.program_mut(program)?;
        p.xfb_varyings = varyings.iter().map(|s| s.to_string()).collect();
        p.xfb_separate = separate;
        Ok(())
    }

    pub(crate) fn try_get_transform_feedback_varying(
        &mut self,
        program: u32,
        index: u32,
    ) -> GlResult<(i32, u32, String)> {
        let p = self.program_obj(program)?;
        let layout = p
            .exe
            .as_ref()
            .filter(|_| p.link_status)
            .map(|e| e.xfb.clone())
            .unwrap_or_default();
        let v = layout
            .varyings
            .get(index as usize)
            .ok_or(GlError::InvalidValue(
                "index past GL_TRANSFORM_FEEDBACK_VARYINGS",
            ))?;
        Ok((v.size, v.ty, v.name.clone()))
    }

    pub(crate) fn try_begin_transform_feedback(&mut self, primitive_mode: u32) -> GlResult<()> {
        if !matches!(primitive_mode, gl::POINTS | gl::LINES | gl::TRIANGLES) {
            return Err(GlError::BadEnum(
                "transform feedback primitive mode",
                primitive_mode,
            ));
        }
        if self.xfb.current().active {
            return Err(GlError::InvalidOperation(
                "transform feedback is already active",
            ));
        }
        // With no current program, the bound pipeline's stages (`pipeline.rs`).
        self.prepare_pipeline_draw()?;
        let exe = self.current_executable().ok_or(GlError::InvalidOperation(
            "no current program to capture from",
        ))?;
        let layout = exe.xfb.clone();
        if layout.is_empty() {
            return Err(GlError::InvalidOperation(
                "the current program has no transform feedback varyings",
            ));
        }
        let o = self.xfb.current();
        for (i, b) in layout.buffers.iter().enumerate() {
            let needed = b.stride_bytes > 0 || layout.separate;
            if needed && o.buffers[i].buffer.is_none() {
                return Err(GlError::InvalidOperation(
                    "a transform feedback buffer the program writes is not bound",
                ));
            }
        }
        let program = self.program;
        let o = self.xfb.current_mut();
        o.active = true;
        o.paused = false;
        o.mode = primitive_mode;
        o.program = program;
        o.layout = layout;
        o.written = [0; MAX_BUFFERS];
        o.vertices = StreamCounts::default();
        Ok(())
    }

    pub(crate) fn try_end_transform_feedback(&mut self) -> GlResult<()> {
        let o = self.xfb.current_mut();
        if !o.active {
            return Err(GlError::InvalidOperation(
                "transform feedback is not active",
            ));
        }
        o.active = false;
        o.paused = false;
        o.drawable = Some(o.vertices);
        o.program = None;
        Ok(())
    }

    pub(crate) fn try_pause_transform_feedback(&mut self) -> GlResult<()> {
        let o = self.xfb.current_mut();
        if !o.active || o.paused {
            return Err(GlError::InvalidOperation(
                "transform feedback is not active or already paused",
            ));
        }
        o.paused = true;
        Ok(())
    }

    pub(crate) fn try_resume_transform_feedback(&mut self) -> GlResult<()> {
        let program = self.program;
        let o = self.xfb.current_mut();
        if !o.active || !o.paused {
            return Err(GlError::InvalidOperation(
                "transform feedback is not active or not paused",
            ));
        }
        // GL 4.5 core §13.3.2: the program must be the one Begin captured with.
        if o.program != program {
            return Err(GlError::InvalidOperation(
                "the current program is not the one transform feedback began with",
            ));
        }
        o.paused = false;
        Ok(())
    }

    pub(crate) fn try_gen_transform_feedbacks(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| this.xfb.names.gen_many(n))
    }

    pub(crate) fn try_create_transform_feedbacks(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| {
            this.xfb.names.create_many(n, XfbObject::default)
        })
    }

    pub(crate) fn try_delete_transform_feedbacks(&mut self, ids: &[u32]) -> GlResult<()> {
        if ids.iter().any(|&id| {
            id != 0
                && self
                    .xfb
                    .names
                    .get(TransformFeedbackName(id))
                    .is_some_and(|o| o.active)
        }) {
            return Err(GlError::InvalidOperation(
                "a transform feedback object to delete is active",
            ));
        }
        for &id in ids {
            let name = TransformFeedbackName(id);
            if id == 0 || !self.xfb.names.is_name(name) {
                continue;
            }
            if self.xfb.bound == Some(name) {
                self.xfb.bound = None;
            }
            self.xfb.names.remove(name);
        }
        Ok(())
    }

    pub(crate) fn try_bind_transform_feedback(&mut self, target: u32, id: u32) -> GlResult<()> {
        if target != gl::TRANSFORM_FEEDBACK {
            return Err(GlError::BadEnum("transform feedback target", target));
        }
        if self.xfb.capturing() {
            return Err(GlError::InvalidOperation(
                "transform feedback is active and not paused",
            ));
        }
        if id == 0 {
            self.xfb.bound = None;
            return Ok(());
        }
        let name = TransformFeedbackName(id);
        if !self.xfb.names.ensure(name, XfbObject::default) {
            return Err(GlError::InvalidOperation(
                "not a name from glGenTransformFeedbacks",
            ));
        }
        self.xfb.bound = Some(name);
        Ok(())
    }

    pub(crate) fn try_is_transform_feedback(&mut self, id: u32) -> GlResult<bool> {
        Ok(id != 0 && self.xfb.names.get(TransformFeedbackName(id)).is_some())
    }

    /// Binds `buffer` to binding `index` of the bound object (glBindBufferBase/Range on
    /// GL_TRANSFORM_FEEDBACK_BUFFER) or of object `xfb` (the DSA forms).
    pub(crate) fn bind_xfb_buffer(
        &mut self,
        xfb: Option<u32>,
        index: u32,
        buffer: u32,
        offset: isize,
        size: Option<isize>,
    ) -> GlResult<()> {
        if index as usize >= MAX_BUFFERS {
            return Err(GlError::InvalidValue(
                "index past GL_MAX_TRANSFORM_FEEDBACK_BUFFERS",
            ));
        }
        if let Some(size) = size {
            if buffer != 0 && size <= 0 {
                return Err(GlError::InvalidValue("size must be positive"));
            }
            if offset < 0 {
                return Err(GlError::InvalidValue("negative offset"));
            }
            // GL 4.5 core §13.3.1: offset and size are multiples of 4.
            if offset % 4 != 0 || size % 4 != 0 {
                return Err(GlError::InvalidValue(
                    "transform feedback offset and size must be multiples of 4",
                ));
            }
        }
        let name = self.buffer_object(buffer)?;
        let o = match xfb {
            None => self.xfb.current(),
            Some(id) => self.xfb.object(id).ok_or(GlError::InvalidOperation(
                "not the name of a transform feedback object",
            ))?,
        };
        if o.active {
            return Err(GlError::InvalidOperation(
                "the transform feedback object is active",
            ));
        }
        let binding = BufferBinding {
            buffer: name,
            offset: offset.max(0) as usize,
            size: size.map(|s| s.max(0) as usize),
        };
        let o = match xfb {
            None => self.xfb.current_mut(),
            Some(id) => self.xfb.object_mut(id).expect("checked above"),
        };
        o.buffers[index as usize] = binding;
        Ok(())
    }

    pub(crate) fn try_transform_feedback_buffer_base(
        &mut self,
        xfb: u32,
        index: u32,
        buffer: u32,
    ) -> GlResult<()> {
        self.bind_xfb_buffer(Some(xfb), index, buffer, 0, None)
    }

    pub(crate) fn try_transform_feedback_buffer_range(
        &mut self,
        xfb: u32,
        index: u32,
        buffer: u32,
        offset: isize,
        size: isize,
    ) -> GlResult<()> {
        self.bind_xfb_buffer(Some(xfb), index, buffer, offset, Some(size))
    }

    fn named_xfb(&self, xfb: u32) -> GlResult<&XfbObject> {
        self.xfb.object(xfb).ok_or(GlError::InvalidOperation(
            "not the name of a transform feedback object",
        ))
    }

    pub(crate) fn try_get_transform_feedbackiv(&mut self, xfb: u32, pname: u32) -> GlResult<i32> {
        let o = self.named_xfb(xfb)?;
        match pname {
            gl::TRANSFORM_FEEDBACK_PAUSED => Ok(o.paused as i32),
            gl::TRANSFORM_FEEDBACK_ACTIVE => Ok(o.active as i32),
            _ => Err(GlError::BadEnum("transform feedback parameter", pname)),
        }
    }

    pub(crate) fn try_get_transform_feedbacki_v(
        &mut self,
        xfb: u32,
        pname: u32,
        index: u32,
    ) -> GlResult<i32> {
        let o = self.named_xfb(xfb)?;
        if pname != gl::TRANSFORM_FEEDBACK_BUFFER_BINDING {
            return Err(GlError::BadEnum("transform feedback parameter", pname));
        }
        let b = o.buffers.get(index as usize).ok_or(GlError::InvalidValue(
            "index past GL_MAX_TRANSFORM_FEEDBACK_BUFFERS",
        ))?;
        Ok(b.buffer.map_or(0, |n| n.0 as i32))
    }

    pub(crate) fn try_get_transform_feedbacki64_v(
        &mut self,
        xfb: u32,
        pname: u32,
        index: u32,
    ) -> GlResult<i64> {
        let o = self.named_xfb(xfb)?;
        if !matches!(
            pname,
            gl::TRANSFORM_FEEDBACK_BUFFER_START | gl::TRANSFORM_FEEDBACK_BUFFER_SIZE
        ) {
            return Err(GlError::BadEnum("transform feedback parameter", pname));
        }
        let b = o.buffers.get(index as usize).ok_or(GlError::InvalidValue(
            "index past GL_MAX_TRANSFORM_FEEDBACK_BUFFERS",
        ))?;
        Ok(xfb_binding_value(b, pname))
    }

    /// glGetIntegeri_v / glGetInteger64i_v of GL_TRANSFORM_FEEDBACK_BUFFER_BINDING,
    /// _START and _SIZE (the bound object's bindings); `None` for other names.
    pub(crate) fn xfb_indexed(&self, pname: u32, index: u32) -> Option<GlResult<i64>> {
        if !matches!(
            pname,
            gl::TRANSFORM_FEEDBACK_BUFFER_BINDING
                | gl::TRANSFORM_FEEDBACK_BUFFER_START
                | gl::TRANSFORM_FEEDBACK_BUFFER_SIZE
        ) {
            return None;
        }
        Some(
            self.xfb
                .current()
                .buffers
                .get(index as usize)
                .map(|b| xfb_binding_value(b, pname))
                .ok_or(GlError::InvalidValue(
                    "index past GL_MAX_TRANSFORM_FEEDBACK_BUFFERS",
                )),
        )
    }

    /// glGetIntegerv of the transform feedback state and limits; `None` for other names.
    pub(crate) fn xfb_integer(&self, pname: u32) -> Option<i64> {
        let o = self.xfb.current();
        Some(match pname {
            gl::TRANSFORM_FEEDBACK_BINDING => self.xfb.bound.map_or(0, |n| n.0 as i64),
            gl::TRANSFORM_FEEDBACK_ACTIVE => o.active as i64,
            gl::TRANSFORM_FEEDBACK_PAUSED => o.paused as i64,
            gl::RASTERIZER_DISCARD => self.fixed.rasterizer_discard as i64,
            gl::MAX_TRANSFORM_FEEDBACK_BUFFERS => MAX_BUFFERS as i64,
            gl::MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS => MAX_INTERLEAVED_COMPONENTS as i64,
            gl::MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS => MAX_SEPARATE_ATTRIBS as i64,
            gl::MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS => MAX_SEPARATE_COMPONENTS as i64,
            _ => return None,
        })
    }

    /// The draw-time check of §13.3.1 while capturing: the draw mode (or the geometry
    /// shader's output) must be Begin's primitive type.
    pub(crate) fn check_xfb_draw(
        &self,
        code: &crate::raster::ProgramCode,
        topology: Topology,
    ) -> GlResult<()> {
        if !self.xfb.capturing() {
            return Ok(());
        }
        let mode = self.xfb.current().mode;
        let ok = match code.gs.as_deref() {
            // Tessellation: independent triangles, lines or points (GL 4.5 core §13.3.1).
            None if code.tess.is_some() => mode_allows(mode, code.last_topology(topology)),
            Some(g) => {
                let out = crate::raster::geometry::output_topology(g);
                matches!(
                    (mode, out),
                    (gl::POINTS, Topology::Points)
                        | (gl::LINES, Topology::LineStrip)
                        | (gl::TRIANGLES, Topology::TriangleStrip)
                )
            }
            None => mode_allows(mode, topology),
        };
        if !ok {
            return Err(GlError::InvalidOperation(
                "the draw's primitives are not transform feedback's primitive mode",
            ));
        }
        // A mapped buffer cannot be written (GL 4.5 core §6.3.2).
        let o = self.xfb.current();
        for (i, b) in o.layout.buffers.iter().enumerate() {
            if b.stride_bytes == 0 {
                continue;
            }
            let buf = o.buffers[i].buffer.and_then(|n| self.objs.buffers.get(n));
            if buf.is_none_or(|b| b.blocks_draws()) {
                return Err(GlError::InvalidOperation(
                    "a transform feedback buffer is mapped or deleted",
                ));
            }
        }
        Ok(())
    }

    /// Captures `call` into the bound buffers when transform feedback is active and not
    /// paused: every primitive of vertex stream n that fits whole in every buffer of
    /// stream n is written to them, in order; the first that does not stops the writing
    /// of that stream (GL 4.5 core §13.3.2, ARB_transform_feedback3). A primitive of a
    /// stream no buffer records is generated but not written. Returns (primitives
    /// generated, primitives written) per stream; `None` when not capturing. With `keep`
    /// (the draw is rasterized too), the shaded vertices go into `call.preshaded`, so the
    /// front end does not run the shaders again.
    pub(crate) fn capture_draw(
        &mut self,
        call: &mut DrawCall,
        keep: bool,
    ) -> GlResult<Option<(StreamCounts, StreamCounts)>> {
        if !self.xfb.capturing() {
            return Ok(None);
        }
        let o = self.xfb.current();
        let layout = o.layout.clone();
        let per_prim = crate::raster::feedback::captured_vertices(call) as u64;
        // Per buffer: (name, start byte, room left, the store as it is now).
        let mut targets = Vec::new();
        for (i, b) in layout.buffers.iter().enumerate() {
            let binding = o.buffers[i];
            let Some(name) = binding.buffer.filter(|_| b.stride_bytes > 0) else {
                targets.push(None);
                continue;
            };
            let store = self
                .objs
                .buffers
                .get(name)
                .map(|b| b.data.clone())
                .unwrap_or_default();
            let end = match binding.size {
                Some(s) => (binding.offset.saturating_add(s)).min(store.len()),
                None => store.len(),
            };
            let start = binding.offset.saturating_add(o.written[i]);
            targets.push(Some((name, start, end.saturating_sub(start), store)));
        }
        // The streams some buffer records.
        let recorded: Vec<bool> = (0..MAX_VERTEX_STREAMS)
            .map(|s| {
                layout
                    .buffers
                    .iter()
                    .zip(&targets)
                    .any(|(b, t)| b.stream == s && t.is_some())
            })
            .collect();
        let mut staged: Vec<Vec<u8>> = vec![Vec::new(); layout.buffers.len()];
        let mut written = StreamCounts::default();
        let mut full = [false; MAX_VERTEX_STREAMS as usize];
        let (generated, kept) =
            crate::raster::feedback::capture(call, keep, &mut |stream, verts| {
                let s = stream as usize;
                if full[s] || !recorded[s] || verts.len() as u64 != per_prim {
                    return;
                }
                let of_stream = |i: usize| layout.buffers[i].stream == stream;
                // The whole primitive fits in every buffer of its stream, or nothing of it is
                // written.
                for (i, b) in layout.buffers.iter().enumerate() {
                    if let (true, Some((_, _, room, _))) = (of_stream(i), &targets[i]) {
                        let need = b.stride_bytes as usize * verts.len();
                        if staged[i].len() + need > *room {
                            full[s] = true;
                            return;
                        }
                    }
                }
                for (i, b) in layout.buffers.iter().enumerate() {
                    let (true, Some((_, start, _, store))) = (of_stream(i), &targets[i]) else {
                        continue;
                    };
                    let out = &mut staged[i];
                    for v in verts {
                        // Skipped components keep what the buffer holds (§13.3.2).
                        let at = out.len();
                        let from = start + at;
                        out.extend_from_slice(&store[from..from + b.stride_bytes as usize]);
                        for &(word, slot, n) in &b.copies {
                            for k in 0..n {
                                let w = v.get((slot + k) as usize).copied().unwrap_or(0);
                                let d = at + 4 * (word + k) as usize;
                                out[d..d + 4].copy_from_slice(&w.to_le_bytes());
                            }
                        }
                    }
                }
                written[s] += 1;
            });
        call.preshaded = kept.map(Arc::new);
        let stores: Vec<(BufferName, usize, Vec<u8>)> = targets
            .into_iter()
            .zip(staged)
            .filter_map(|(t, bytes)| t.map(|(name, start, _, _)| (name, start, bytes)))
            .collect();
        for (name, start, bytes) in stores {
            if !bytes.is_empty() {
                self.write_buffer_bytes(Buf::Named(name.0), start, &bytes)?;
            }
        }
        let o = self.xfb.current_mut();
        for (i, b) in layout.buffers.iter().enumerate() {
            let n = written[b.stream as usize];
            o.written[i] += (b.stride_bytes as u64 * per_prim * n) as usize;
        }
        for (v, n) in o.vertices.iter_mut().zip(written) {
            *v += per_prim * n;
        }
        Ok(Some((generated, written)))
    }

    pub(crate) fn try_draw_transform_feedback(&mut self, mode: u32, id: u32) -> GlResult<()> {
        self.try_draw_transform_feedback_stream_instanced(mode, id, 0, 1)
    }

    pub(crate) fn try_draw_transform_feedback_instanced(
        &mut self,
        mode: u32,
        id: u32,
        instancecount: i32,
    ) -> GlResult<()> {
        self.try_draw_transform_feedback_stream_instanced(mode, id, 0, instancecount)
    }

    pub(crate) fn try_draw_transform_feedback_stream(
        &mut self,
        mode: u32,
        id: u32,
        stream: u32,
    ) -> GlResult<()> {
        self.try_draw_transform_feedback_stream_instanced(mode, id, stream, 1)
    }

    pub(crate) fn try_draw_transform_feedback_stream_instanced(
        &mut self,
        mode: u32,
        id: u32,
        stream: u32,
        instancecount: i32,
    ) -> GlResult<()> {
        if stream >= MAX_VERTEX_STREAMS {
            return Err(GlError::InvalidValue("stream past GL_MAX_VERTEX_STREAMS"));
        }
        let o = self.xfb.object(id).ok_or(GlError::InvalidValue(
            "not the name of a transform feedback object",
        ))?;
        let counts = o.drawable.ok_or(GlError::InvalidOperation(
            "glEndTransformFeedback was never called on the object",
        ))?;
        // The vertices recorded to the stream by the last Begin/End (ARB_transform_feedback3).
        let count = i32::try_from(counts[stream as usize]).unwrap_or(i32::MAX);
        self.try_draw_arrays_instanced(mode, 0, count, instancecount)
    }
}

/// GL_TRANSFORM_FEEDBACK_BUFFER_BINDING / _START / _SIZE of one binding.
fn xfb_binding_value(b: &BufferBinding, pname: u32) -> i64 {
    match pname {
        gl::TRANSFORM_FEEDBACK_BUFFER_BINDING => b.buffer.map_or(0, |n| n.0 as i64),
        gl::TRANSFORM_FEEDBACK_BUFFER_START => b.offset as i64,
        _ => b.size.map_or(0, |s| s as i64),
    }
}
