//! Texture objects (2D), sampler objects and texture units (GL 4.5 core chapter 8):
//! specification (TexImage2D, TexStorage2D, TexSubImage2D, GenerateMipmap), parameters,
//! completeness (§8.17), and the immutability ARB_bindless_texture imposes once a handle
//! exists. Texel conversion is in `pixels.rs`; handles are in `bindless.rs`.

use std::sync::Arc;

use crate::api::context::{dirty, limits, Context};
use crate::api::dispatch::{gl_commands, Group};
use crate::api::error::{GlError, GlResult};
use crate::api::names::{SamplerName, TextureName};
use crate::api::pixels;
use crate::gl::enums as gl;
use crate::gl::{CompareFunc, MagFilter, MinFilter, Wrap};
use crate::ir::BaseType;
use crate::sampler::{Format, Image, SamplerState, TexKind, TextureHandle, TextureView};

pub(crate) use crate::api::texture_buffer::TexBufferRange;

/// The kind of texture a target names (the targets softgl has).
pub(crate) fn kind_of_target(target: u32) -> Option<TexKind> {
    Some(match target {
        gl::TEXTURE_2D => TexKind::D2,
        gl::TEXTURE_2D_ARRAY => TexKind::D2Array,
        gl::TEXTURE_CUBE_MAP => TexKind::Cube,
        gl::TEXTURE_3D => TexKind::D3,
        gl::TEXTURE_2D_MULTISAMPLE => TexKind::D2Multisample,
        gl::TEXTURE_2D_MULTISAMPLE_ARRAY => TexKind::D2MultisampleArray,
        gl::TEXTURE_1D => TexKind::D1,
        gl::TEXTURE_1D_ARRAY => TexKind::D1Array,
        gl::TEXTURE_RECTANGLE => TexKind::Rect,
        gl::TEXTURE_CUBE_MAP_ARRAY => TexKind::CubeArray,
        gl::TEXTURE_BUFFER => TexKind::Buffer,
        _ => return None,
    })
}

/// The targets of issue #13 whose default textures and unit bindings live in
/// `Context::default_textures_more` / `texture_units_more`, in that order.
pub(crate) const MORE_TARGETS: [u32; 5] = [
    gl::TEXTURE_1D,
    gl::TEXTURE_1D_ARRAY,
    gl::TEXTURE_RECTANGLE,
    gl::TEXTURE_CUBE_MAP_ARRAY,
    gl::TEXTURE_BUFFER,
];

/// The `MORE_TARGETS` index of a kind (`None` for the kinds with their own fields).
fn more_index(kind: TexKind) -> Option<usize> {
    Some(match kind {
        TexKind::D1 => 0,
        TexKind::D1Array => 1,
        TexKind::Rect => 2,
        TexKind::CubeArray => 3,
        TexKind::Buffer => 4,
        _ => return None,
    })
}

/// The `MORE_TARGETS` index of a GL_TEXTURE_BINDING_* query of those targets.
pub(crate) fn more_binding_index(pname: u32) -> usize {
    match pname {
        gl::TEXTURE_BINDING_1D => 0,
        gl::TEXTURE_BINDING_1D_ARRAY => 1,
        gl::TEXTURE_BINDING_RECTANGLE => 2,
        gl::TEXTURE_BINDING_CUBE_MAP_ARRAY => 3,
        _ => 4,
    }
}

/// What the INVALID_ENUM of a texture target names.
const TARGETS: &str = "texture target (GL_TEXTURE_1D, _2D, _3D, _1D_ARRAY, _2D_ARRAY, _RECTANGLE, \
                       _CUBE_MAP, _CUBE_MAP_ARRAY, _BUFFER, _2D_MULTISAMPLE(_ARRAY))";

/// The face index (0..6, table 8.19's order) of a GL_TEXTURE_CUBE_MAP_POSITIVE_X ..
/// NEGATIVE_Z target.
pub(crate) fn cube_face_of(target: u32) -> Option<u32> {
    (gl::TEXTURE_CUBE_MAP_POSITIVE_X..=gl::TEXTURE_CUBE_MAP_NEGATIVE_Z)
        .contains(&target)
        .then(|| target - gl::TEXTURE_CUBE_MAP_POSITIVE_X)
}

/// The unit binding a sampler type reads (GL 4.5 core §11.1.3.5: the texture bound to
/// the target of the sampler's type).
pub(crate) fn sampler_kind(base: BaseType) -> TexKind {
    if base.is_1d_sampler() {
        TexKind::D1
    } else if base.is_1d_array_sampler() {
        TexKind::D1Array
    } else if base.is_rect_sampler() {
        TexKind::Rect
    } else if base.is_cube_array_sampler() {
        TexKind::CubeArray
    } else if base.is_buffer_sampler() {
        TexKind::Buffer
    } else if base.is_ms_array_sampler() {
        TexKind::D2MultisampleArray
    } else if base.is_ms_sampler() {
        TexKind::D2Multisample
    } else if base.is_array_sampler() {
        TexKind::D2Array
    } else if base.is_cube_sampler() {
        TexKind::Cube
    } else if base.is_3d_sampler() {
        TexKind::D3
    } else {
        TexKind::D2
    }
}

/// The next mip level of a 3D image (GL 4.5 core §8.14.4): each size halved with floor, at
/// least 1; each texel the mean of the (up to) 2×2×2 texels it covers, summed in a fixed
/// order in f32.
fn next_level_3d(src: &Image) -> Image {
    let (sw, sh, sd) = (
        src.width() as usize,
        src.height() as usize,
        src.depth() as usize,
    );
    let (w, h, d) = ((sw / 2).max(1), (sh / 2).max(1), (sd / 2).max(1));
    let f = src.format();
    let bpt = f.bytes_per_texel();
    let all = src.to_bytes();
    let mut out = vec![0u8; w * h * d * bpt];
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                let (mut sum, mut count) = ([0.0f32; 4], 0.0f32);
                for (dx, dy, dz) in (0..8).map(|i| (i & 1, (i >> 1) & 1, i >> 2)) {
                    let (tx, ty, tz) = (2 * x + dx, 2 * y + dy, 2 * z + dz);
                    if tx < sw && ty < sh && tz < sd {
                        let t = ((tz * sh + ty) * sw + tx) * bpt;
                        let v = pixels::decode_texel(f, &all[t..t + bpt]);
                        for c in 0..4 {
                            sum[c] += v[c];
                        }
                        count += 1.0;
                    }
                }
                let o = ((z * h + y) * w + x) * bpt;
                pixels::encode_texel(f, sum.map(|s| s / count), 0, &mut out[o..o + bpt]);
            }
        }
    }
    let mut img = Image::new_layers(w as u32, h as u32, d as u32, f);
    img.write_bytes(0, &out);
    img
}

/// The six faces of a cube level, as `Texture::cube_faces` bits.
const ALL_FACES: u8 = 0x3F;

/// A 2D texture object.
#[derive(Debug, Clone)]
pub(crate) struct Texture {
    /// Set at first bind (GL 4.5 core §8.1); only TEXTURE_2D exists here.
    pub target: Option<u32>,
    pub levels: Vec<Option<Arc<Image>>>,
    /// The internal format each level was specified with.
    pub formats: Vec<Option<pixels::InternalFormat>>,
    pub state: SamplerState,
    pub base_level: i32,
    pub max_level: i32,
    /// glTexStorage2D was used (GL 4.5 core §8.19).
    pub immutable: bool,
    /// Levels allocated by glTexStorage2D.
    pub immutable_levels: i32,
    /// Cube maps: which faces of each level were specified (bit f for face f). A level's
    /// image holds all six faces; it is complete once every face was (§8.17).
    pub cube_faces: Vec<u8>,
    /// The blocks of each level specified in a compressed format, as uploaded
    /// (glGetCompressedTexImage; `compressed.rs`).
    pub compressed: Vec<Option<crate::api::compressed::KeptBlocks>>,
    /// A bindless handle exists: state is frozen (ARB_bindless_texture).
    pub has_handle: bool,
    /// Bumped whenever anything a descriptor captures changes.
    pub version: u64,
    /// Internal descriptors created for bound-unit sampling:
    /// (sampler name, sampler version, texture version, handle).
    pub internal: Vec<(Option<SamplerName>, u64, u64, TextureHandle)>,
    /// Multisample textures (`api::multisample`): GL_TEXTURE_SAMPLES (0 until storage is
    /// specified; level 0 is sample 0 and `planes` samples 1..) and
    /// GL_TEXTURE_FIXED_SAMPLE_LOCATIONS.
    pub samples: u32,
    pub planes: Vec<Arc<Image>>,
    pub fixed_sample_locations: bool,
    /// GL_TEXTURE_BUFFER: the buffer range glTexBuffer(Range) attached (`texture_buffer`).
    pub buffer: Option<TexBufferRange>,
    /// GL_TEXTURE_BUFFER: the internal format of the last glTexBuffer(Range), kept when it
    /// detached the buffer (buffer 0); 0 before any, which reads as R8 (table 23.17).
    pub buffer_format: u32,
    /// A texture view's part of its original's storage (`texture_view`); None otherwise.
    pub view: Option<crate::api::texture_view::ViewRange>,
}

impl Default for Texture {
    fn default() -> Self {
        Texture {
            target: None,
            levels: vec![None; limits::MAX_MIP_LEVELS],
            formats: vec![None; limits::MAX_MIP_LEVELS],
            state: SamplerState::default(),
            base_level: 0,
            max_level: 1000,
            immutable: false,
            immutable_levels: 0,
            cube_faces: vec![0; limits::MAX_MIP_LEVELS],
            compressed: vec![None; limits::MAX_MIP_LEVELS],
            has_handle: false,
            version: 0,
            internal: Vec::new(),
            samples: 0,
            planes: Vec::new(),
            fixed_sample_locations: true,
            buffer: None,
            buffer_format: 0,
            view: None,
        }
    }
}

impl Texture {
    /// GL_TEXTURE_BUFFER's internal format: the last glTexBuffer(Range)'s, R8 before any
    /// (GL 4.5 core table 23.17).
    pub fn buffer_format_or_r8(&self) -> u32 {
        if self.buffer_format == 0 {
            gl::R8
        } else {
            self.buffer_format
        }
    }

    /// A texture object of `target` (default textures of the other targets). A rectangle
    /// texture starts with LINEAR minification and CLAMP_TO_EDGE wraps (GL 4.5 core
    /// §8.10, table 23.18's footnotes).
    pub fn of_target(target: u32) -> Texture {
        let mut t = Texture {
            target: Some(target),
            ..Texture::default()
        };
        if target == gl::TEXTURE_RECTANGLE {
            t.state.min_filter = MinFilter::Linear;
            t.state.wrap_s = Wrap::ClampToEdge;
            t.state.wrap_t = Wrap::ClampToEdge;
            t.state.wrap_r = Wrap::ClampToEdge;
        }
        t
    }

    /// What sampling sees this texture as (2D before its first bind).
    pub fn kind(&self) -> TexKind {
        self.target.and_then(kind_of_target).unwrap_or_default()
    }
    /// The internal format of `level` as specified (or as stored, for a level made without
    /// one, e.g. by GenerateMipmap); `None` when the level has no image.
    pub fn level_format(&self, level: usize) -> Option<pixels::InternalFormat> {
        let img = self.levels.get(level)?.as_ref()?;
        Some(
            self.formats
                .get(level)
                .copied()
                .flatten()
                .unwrap_or_else(|| pixels::InternalFormat::of_storage(img.format())),
        )
    }

    /// The effective (base, max) levels: for immutable-format textures both are clamped to
    /// the allocated levels (GL 4.5 core §8.17).
    pub fn level_range(&self) -> (i32, i32) {
        if self.immutable {
            // A view has its own levels (GL 4.5 core §8.18: levels relative to the view).
            let last = self
                .view
                .map_or(self.immutable_levels, |v| v.num_levels as i32)
                - 1;
            let base = self.base_level.clamp(0, last);
            (base, self.max_level.clamp(base, last))
        } else {
            (self.base_level, self.max_level)
        }
    }

    /// The view a descriptor captures.
    pub fn view(&self) -> TextureView {
        let (base, max) = self.level_range();
        let kind = self.kind();
        if kind.is_multisample() {
            // Sample s where other kinds have level s (`sampler::TexKind`).
            let levels = std::iter::once(self.levels[0].clone())
                .chain(self.planes.iter().map(|p| Some(p.clone())))
                .collect();
            return TextureView {
                levels,
                base_level: 0,
                max_level: 0,
                kind,
            };
        }
        let mut levels = self.levels.clone();
        if kind == TexKind::Cube {
            // A cube level with a face missing does not exist for sampling (cube
            // completeness, GL 4.5 core §8.17).
            for (l, img) in levels.iter_mut().enumerate() {
                if self.cube_faces.get(l).copied().unwrap_or(0) != ALL_FACES {
                    *img = None;
                }
            }
        }
        TextureView {
            levels,
            base_level: base.max(0) as u32,
            max_level: max.max(0) as u32,
            kind,
        }
    }

    /// Texture completeness with the given sampler state (GL 4.5 core §8.17): the
    /// sampler's rules on `view` (which leaves out cube levels with a face missing), and
    /// base ≤ max level.
    pub fn is_complete(&self, state: &SamplerState) -> bool {
        let (base_level, max_level) = self.level_range();
        base_level <= max_level && crate::sampler::is_complete(&self.view(), state)
    }

    fn touch(&mut self) {
        self.version += 1;
    }
}

/// A sampler object.
#[derive(Debug, Clone, Default)]
pub(crate) struct SamplerObject {
    pub state: SamplerState,
    pub has_handle: bool,
    pub version: u64,
}

/// The four border colours ARB_bindless_texture allows for handles, as floats or (when an
/// I form set the colour) as integers.
pub(crate) fn border_allowed_state(s: &SamplerState) -> bool {
    match s.border_int {
        Some(b) => [[0, 0, 0, 0], [0, 0, 0, 1], [1, 1, 1, 0], [1, 1, 1, 1]].contains(&b),
        None => border_allowed(s.border_color),
    }
}

/// The four border colours ARB_bindless_texture allows for handles.
pub(crate) fn border_allowed(c: [f32; 4]) -> bool {
    [
        [0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        [1.0, 1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0, 1.0],
    ]
    .contains(&c)
}

/// Which object a texture binding names (0 is the default texture).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TexRef {
    /// The default texture of `MORE_TARGETS[i]`.
    DefaultMore(u8),
    Default,
    /// The default GL_TEXTURE_2D_ARRAY texture.
    DefaultArray,
    /// The default GL_TEXTURE_CUBE_MAP and GL_TEXTURE_3D textures.
    DefaultCube,
    Default3D,
    /// The default GL_TEXTURE_2D_MULTISAMPLE(_ARRAY) textures.
    DefaultMs,
    DefaultMsArray,
    Named(TextureName),
}

/// A sampler parameter value as passed by the i/f/iv/fv entry points, and the pure
/// integer forms (glTexParameterIiv/Iuiv, glSamplerParameterIiv/Iuiv), which differ only
/// for the border colour: kept as integers, for integer textures (GL 4.5 core §8.10).
enum Param<'a> {
    Int(&'a [i32]),
    Float(&'a [f32]),
    PureInt(&'a [i32]),
    PureUint(&'a [u32]),
}

impl Param<'_> {
    fn len(&self) -> usize {
        match self {
            Param::Int(v) | Param::PureInt(v) => v.len(),
            Param::Float(v) => v.len(),
            Param::PureUint(v) => v.len(),
        }
    }
    fn f(&self, i: usize) -> f32 {
        match self {
            Param::Int(v) | Param::PureInt(v) => v[i] as f32,
            Param::Float(v) => v[i],
            Param::PureUint(v) => v[i] as f32,
        }
    }
    /// An enum value (floats are rounded, GL 4.5 core §2.2.1).
    fn e(&self) -> u32 {
        match self {
            Param::Int(v) | Param::PureInt(v) => v[0] as u32,
            Param::Float(v) => v[0].round_ties_even() as i64 as u32,
            Param::PureUint(v) => v[0],
        }
    }
    fn i(&self) -> i32 {
        match self {
            Param::Int(v) | Param::PureInt(v) => v[0],
            Param::Float(v) => v[0].round_ties_even() as i32,
            Param::PureUint(v) => v[0].min(i32::MAX as u32) as i32,
        }
    }
}

/// Applies a sampler-state parameter (GL 4.5 core §8.10, table 23.18); `Ok(false)` when
/// `pname` is not a sampler-state parameter.
fn apply_sampler_param(
    s: &mut SamplerState,
    pname: u32,
    p: &Param,
    vector: bool,
) -> GlResult<bool> {
    if p.len() == 0 {
        return Err(GlError::InvalidValue("no value"));
    }
    match pname {
        gl::TEXTURE_MIN_FILTER => {
            s.min_filter =
                MinFilter::from_gl(p.e()).ok_or(GlError::BadEnum("min filter", p.e()))?;
        }
        gl::TEXTURE_MAG_FILTER => {
            s.mag_filter =
                MagFilter::from_gl(p.e()).ok_or(GlError::BadEnum("mag filter", p.e()))?;
        }
        gl::TEXTURE_WRAP_S | gl::TEXTURE_WRAP_T | gl::TEXTURE_WRAP_R => {
            // GL 4.5 core §8.14.2, table 8.22: MIRROR_CLAMP_TO_EDGE is core since GL 4.4.
            let w = Wrap::from_gl(p.e()).ok_or(GlError::BadEnum("wrap mode", p.e()))?;
            match pname {
                gl::TEXTURE_WRAP_S => s.wrap_s = w,
                gl::TEXTURE_WRAP_T => s.wrap_t = w,
                _ => s.wrap_r = w,
            }
        }
        gl::TEXTURE_BORDER_COLOR => {
            if !vector {
                return Err(GlError::InvalidEnum("border colour needs the vector form"));
            }
            if p.len() < 4 {
                return Err(GlError::InvalidValue("border colour needs 4 values"));
            }
            s.border_int = match p {
                Param::PureInt(v) => Some([0, 1, 2, 3].map(|i| v[i] as u32)),
                Param::PureUint(v) => Some([v[0], v[1], v[2], v[3]]),
                _ => None,
            };
            s.border_color = match p {
                // Integers map to [-1, 1] (GL 4.5 core §8.10: signed normalized).
                Param::Int(v) => {
                    [0, 1, 2, 3].map(|i| (v[i] as f64 / i32::MAX as f64).max(-1.0) as f32)
                }
                _ => [p.f(0), p.f(1), p.f(2), p.f(3)],
            };
        }
        // GL 4.5 core §8.10, table 23.18: depth comparison (§8.23).
        gl::TEXTURE_COMPARE_MODE => {
            s.compare_mode = match p.e() {
                gl::NONE => false,
                gl::COMPARE_REF_TO_TEXTURE => true,
                e => return Err(GlError::BadEnum("texture compare mode", e)),
            };
        }
        gl::TEXTURE_COMPARE_FUNC => {
            s.compare_func = CompareFunc::from_gl(p.e())
                .ok_or(GlError::BadEnum("texture compare function", p.e()))?;
        }
        gl::TEXTURE_MIN_LOD => s.min_lod = p.f(0),
        gl::TEXTURE_MAX_LOD => s.max_lod = p.f(0),
        gl::TEXTURE_LOD_BIAS => s.lod_bias = p.f(0),
        _ => return Ok(false),
    }
    Ok(true)
}

/// The `SamplerState::swizzle` code of a GL_TEXTURE_SWIZZLE_* value.
fn swizzle_code(e: u32) -> GlResult<u8> {
    Ok(match e {
        gl::RED => 0,
        gl::GREEN => 1,
        gl::BLUE => 2,
        gl::ALPHA => 3,
        gl::ZERO => crate::sampler::SWIZZLE_ZERO,
        gl::ONE => crate::sampler::SWIZZLE_ONE,
        _ => return Err(GlError::BadEnum("texture swizzle", e)),
    })
}

/// The GL enum of a `SamplerState::swizzle` code.
fn swizzle_enum(code: u8) -> u32 {
    match code {
        0 => gl::RED,
        1 => gl::GREEN,
        2 => gl::BLUE,
        3 => gl::ALPHA,
        crate::sampler::SWIZZLE_ZERO => gl::ZERO,
        _ => gl::ONE,
    }
}

/// A texture or sampler parameter's value, before a glGet*Parameter* form converts it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ParamValue {
    /// Enums and integers: returned exactly by every form.
    Int(i32),
    Float(f32),
    /// The border colour as floats, and as integers when an I form set it.
    Border([f32; 4], Option<[u32; 4]>),
    /// Four enums (GL_TEXTURE_SWIZZLE_RGBA).
    Ints([i32; 4]),
}

/// The sampler-state part of glGetTexParameter* / glGetSamplerParameter* (GL 4.5 core
/// §8.11.2, table 23.18).
fn sampler_param_value(s: &SamplerState, pname: u32) -> Option<ParamValue> {
    use ParamValue::*;
    Some(match pname {
        gl::TEXTURE_MIN_FILTER => Int(s.min_filter.to_gl() as i32),
        gl::TEXTURE_MAG_FILTER => Int(s.mag_filter.to_gl() as i32),
        gl::TEXTURE_WRAP_S => Int(s.wrap_s.to_gl() as i32),
        gl::TEXTURE_WRAP_T => Int(s.wrap_t.to_gl() as i32),
        gl::TEXTURE_WRAP_R => Int(s.wrap_r.to_gl() as i32),
        gl::TEXTURE_BORDER_COLOR => Border(s.border_color, s.border_int),
        gl::TEXTURE_COMPARE_MODE => Int(if s.compare_mode {
            gl::COMPARE_REF_TO_TEXTURE
        } else {
            gl::NONE
        } as i32),
        gl::TEXTURE_COMPARE_FUNC => Int(s.compare_func.to_gl() as i32),
        gl::TEXTURE_MIN_LOD => Float(s.min_lod),
        gl::TEXTURE_MAX_LOD => Float(s.max_lod),
        gl::TEXTURE_LOD_BIAS => Float(s.lod_bias),
        _ => return None,
    })
}

/// A value as the `iv` form returns it: floats round to nearest, a border colour converts
/// as signed normalized (GL 4.5 core §2.2.2). With `pure` (the `Iiv`/`Iuiv` forms) the
/// border colour comes back as the integers glTexParameterI*/glSamplerParameterI* gave, or,
/// when a float form set it, its values truncated to integers (GL 4.5 core §8.11.2 leaves
/// that mix undefined). An integer border read by the plain `iv` form comes back as given.
pub(crate) fn param_ints(v: ParamValue, pure: bool) -> Vec<i32> {
    match v {
        ParamValue::Int(i) => vec![i],
        ParamValue::Ints(v) => v.to_vec(),
        ParamValue::Float(f) => vec![f.round() as i32],
        ParamValue::Border(_, Some(int)) => int.iter().map(|&i| i as i32).collect(),
        ParamValue::Border(b, None) if pure => b.iter().map(|&f| f as i32).collect(),
        ParamValue::Border(b, None) => b
            .iter()
            .map(|&f| (f64::from(f.clamp(-1.0, 1.0)) * f64::from(i32::MAX)).round() as i32)
            .collect(),
    }
}

pub(crate) fn param_floats(v: ParamValue) -> Vec<f32> {
    match v {
        ParamValue::Int(i) => vec![i as f32],
        ParamValue::Ints(v) => v.map(|i| i as f32).to_vec(),
        ParamValue::Float(f) => vec![f],
        ParamValue::Border(b, _) => b.to_vec(),
    }
}

/// glTexImage*'s checks of `border` and `internalformat` for an image of `kind` (real or
/// proxy): border 0, an internal format softgl has, and one the target may hold.
pub(crate) fn image_format(
    kind: TexKind,
    internalformat: i32,
    border: i32,
) -> GlResult<pixels::InternalFormat> {
    if border != 0 {
        return Err(GlError::InvalidValue("border must be 0"));
    }
    if let Some(e) = pixels::unsupported_internal_format(internalformat as u32) {
        return Err(e);
    }
    let ifmt = pixels::internal_format(internalformat as u32)
        .ok_or(GlError::InvalidValue("internal format"))?;
    crate::api::compressed::check_target(kind, ifmt.gl)?;
    Ok(ifmt)
}

/// glTexStorage*'s check of `internalformat`: a sized format softgl has.
pub(crate) fn storage_format(internalformat: u32) -> GlResult<pixels::InternalFormat> {
    if let Some(e) = pixels::unsupported_internal_format(internalformat) {
        return Err(e);
    }
    pixels::internal_format(internalformat)
        .filter(|f| f.sized)
        .ok_or(GlError::BadEnum(
            "internal format must be sized",
            internalformat,
        ))
}

/// The proxy targets glTexImage2D and glTexStorage2D accept.
const PROXIES_2D: [u32; 4] = [
    gl::PROXY_TEXTURE_2D,
    gl::PROXY_TEXTURE_1D_ARRAY,
    gl::PROXY_TEXTURE_RECTANGLE,
    gl::PROXY_TEXTURE_CUBE_MAP,
];

/// The proxy targets glTexImage3D and glTexStorage3D accept.
const PROXIES_3D: [u32; 3] = [
    gl::PROXY_TEXTURE_3D,
    gl::PROXY_TEXTURE_2D_ARRAY,
    gl::PROXY_TEXTURE_CUBE_MAP_ARRAY,
];

/// The texture kind of `target` when it is one of the proxy targets `allowed`.
pub(crate) fn proxy_of(target: u32, allowed: &[u32]) -> Option<TexKind> {
    allowed
        .contains(&target)
        .then(|| crate::api::proxy::proxy_kind(target))
        .flatten()
}

/// The glGetTexLevelParameteriv answers that depend only on a level's internal format
/// `f` (None: no image): component sizes and types (GL 4.5 core §8.11.3) of the format as
/// stored, zero / NONE without an image; the initial internal format is RGBA (table 23.16).
pub(crate) fn format_level_parameter(
    f: Option<pixels::InternalFormat>,
    pname: u32,
) -> GlResult<i32> {
    let size = |k: usize| f.map_or(0, |f| f.component_sizes()[k]);
    let ty = |k: usize| {
        f.filter(|_| size(k) > 0)
            .map_or(gl::NONE, |f| f.component_type()) as i32
    };
    Ok(match pname {
        gl::TEXTURE_INTERNAL_FORMAT => f.map_or(gl::RGBA, |f| f.gl) as i32,
        gl::TEXTURE_COMPRESSED => {
            f.is_some_and(|f| crate::api::compressed::specific(f.gl).is_some()) as i32
        }
        gl::TEXTURE_RED_SIZE => size(0),
        gl::TEXTURE_GREEN_SIZE => size(1),
        gl::TEXTURE_BLUE_SIZE => size(2),
        gl::TEXTURE_ALPHA_SIZE => size(3),
        gl::TEXTURE_DEPTH_SIZE => size(4),
        gl::TEXTURE_STENCIL_SIZE => size(5),
        gl::TEXTURE_RED_TYPE => ty(0),
        gl::TEXTURE_GREEN_TYPE => ty(1),
        gl::TEXTURE_BLUE_TYPE => ty(2),
        gl::TEXTURE_ALPHA_TYPE => ty(3),
        gl::TEXTURE_DEPTH_TYPE => ty(4),
        _ => return Err(GlError::BadEnum("level parameter", pname)),
    })
}

gl_commands! {
    /// glGenTextures.
    "glGenTextures" fn gen_textures(n: i32) -> Vec<u32> = try_gen_textures;
    /// glActiveTexture.
    "glActiveTexture" fn active_texture(texture: u32) = try_active_texture;
    /// glBindTexture.
    "glBindTexture" fn bind_texture(target: u32, texture: u32) = try_bind_texture;
    /// glDeleteTextures: unbinds from units, detaches from the bound framebuffers, and frees
    /// the texture's handles (they go stale, ARB_bindless_texture).
    "glDeleteTextures" fn delete_textures(textures: &[u32]) = try_delete_textures;
    /// glTexImage2D (GL 4.5 core §8.5).
    #[allow(clippy::too_many_arguments)]
    "glTexImage2D"
    fn tex_image_2d(target: u32, level: i32, internalformat: i32, width: i32, height: i32, border: i32, format: u32, ty: u32, data: Option<&[u8]>)
        = try_tex_image_2d;
    /// glTexImage2D with a GL_PIXEL_UNPACK_BUFFER bound: the image is read from that buffer
    /// at `offset` (the C `pixels` argument), GL 4.5 core §8.4.4.
    #[allow(clippy::too_many_arguments)]
    "glTexImage2D"
    fn tex_image_2d_from_buffer(target: u32, level: i32, internalformat: i32, width: i32, height: i32, border: i32, format: u32, ty: u32, offset: usize)
        = try_tex_image_2d_from_buffer;
    /// glTexImage1D (GL 4.5 core §8.5): GL_TEXTURE_1D.
    #[allow(clippy::too_many_arguments)]
    "glTexImage1D"
    fn tex_image_1d(target: u32, level: i32, internalformat: i32, width: i32, border: i32, format: u32, ty: u32, data: Option<&[u8]>)
        = try_tex_image_1d;
    /// glCopyTexImage1D (GL 4.5 core §8.6).
    #[allow(clippy::too_many_arguments)]
    "glCopyTexImage1D"
    fn copy_tex_image_1d(target: u32, level: i32, internalformat: u32, x: i32, y: i32, width: i32, border: i32)
        = try_copy_tex_image_1d;
    /// glCopyTexSubImage1D / glCopyTextureSubImage1D (`texture` for the DSA form).
    "glCopyTexSubImage1D"
    fn copy_tex_sub_image_1d(target: u32, texture: Option<u32>, level: i32, xoffset: i32, src: [i32; 3])
        = try_copy_tex_sub_image_1d;
    /// glTexStorage1D (GL 4.5 core §8.19).
    "glTexStorage1D"
    fn tex_storage_1d(target: u32, levels: i32, internalformat: u32, width: i32)
        = try_tex_storage_1d;
    /// glTextureStorage1D.
    "glTextureStorage1D"
    fn texture_storage_1d(texture: u32, levels: i32, internalformat: u32, width: i32)
        = try_texture_storage_1d;
    /// glTexSubImage1D / glTextureSubImage1D (`texture` for the DSA form).
    #[allow(clippy::too_many_arguments)]
    "glTexSubImage1D"
    fn tex_sub_image_1d(target: u32, texture: Option<u32>, level: i32, xoffset: i32, width: i32, format: u32, ty: u32, data: &[u8])
        = try_tex_sub_image_1d;
    /// glTexStorage2D (GL 4.5 core §8.19).
    "glTexStorage2D"
    fn tex_storage_2d(target: u32, levels: i32, internalformat: u32, width: i32, height: i32)
        = try_tex_storage_2d;
    /// glTexSubImage2D (GL 4.5 core §8.6). Allowed with a bindless handle: contents change,
    /// state does not. Flushes first: queued draws may read the image.
    #[allow(clippy::too_many_arguments)]
    "glTexSubImage2D"
    fn tex_sub_image_2d(target: u32, level: i32, xoffset: i32, yoffset: i32, width: i32, height: i32, format: u32, ty: u32, data: &[u8])
        = try_tex_sub_image_2d;
    /// glTexSubImage2D with a GL_PIXEL_UNPACK_BUFFER bound: the pixels are read from that
    /// buffer at `offset` (the C `pixels` argument).
    #[allow(clippy::too_many_arguments)]
    "glTexSubImage2D"
    fn tex_sub_image_2d_from_buffer(target: u32, level: i32, xoffset: i32, yoffset: i32, width: i32, height: i32, format: u32, ty: u32, offset: usize)
        = try_tex_sub_image_2d_from_buffer;
    /// glTextureSubImage2D (GL 4.5 core §8.6, DSA): glTexSubImage2D on the named texture.
    #[allow(clippy::too_many_arguments)]
    "glTextureSubImage2D"
    fn texture_sub_image_2d(texture: u32, level: i32, xoffset: i32, yoffset: i32, width: i32, height: i32, format: u32, ty: u32, data: &[u8])
        = try_texture_sub_image_2d;
    /// glTextureSubImage2D with a GL_PIXEL_UNPACK_BUFFER bound.
    #[allow(clippy::too_many_arguments)]
    "glTextureSubImage2D"
    fn texture_sub_image_2d_from_buffer(texture: u32, level: i32, xoffset: i32, yoffset: i32, width: i32, height: i32, format: u32, ty: u32, offset: usize)
        = try_texture_sub_image_2d_from_buffer;
    /// glGenerateMipmap (GL 4.5 core §8.14.4): levels base+1..=q from the base level.
    "glGenerateMipmap" fn generate_mipmap(target: u32) = try_generate_mipmap;
    /// glTexParameteri.
    "glTexParameteri" fn tex_parameter_i(target: u32, pname: u32, param: i32) = try_tex_parameter_i;
    /// glTexParameterf.
    "glTexParameterf" fn tex_parameter_f(target: u32, pname: u32, param: f32) = try_tex_parameter_f;
    /// glTexParameteriv.
    "glTexParameteriv"
    fn tex_parameter_iv(target: u32, pname: u32, params: &[i32]) = try_tex_parameter_iv;
    /// glTexParameterfv.
    "glTexParameterfv"
    fn tex_parameter_fv(target: u32, pname: u32, params: &[f32]) = try_tex_parameter_fv;
    /// glGetTexParameteriv for the basic state.
    "glGetTexParameteriv"
    fn get_tex_parameteriv(target: u32, pname: u32) -> i32 = try_get_tex_parameteriv;
    /// glGetTexParameteriv with every value (four for GL_TEXTURE_BORDER_COLOR).
    "glGetTexParameteriv"
    fn get_tex_parameteriv_all(target: u32, pname: u32) -> Vec<i32> = try_get_tex_parameteriv_all;
    /// glGetTexParameterfv.
    "glGetTexParameterfv"
    fn get_tex_parameterfv(target: u32, pname: u32) -> Vec<f32> = try_get_tex_parameterfv;
    /// glGetSamplerParameteriv.
    "glGetSamplerParameteriv"
    fn get_sampler_parameteriv(sampler: u32, pname: u32) -> Vec<i32> = try_get_sampler_parameteriv;
    /// glGetSamplerParameterfv.
    "glGetSamplerParameterfv"
    fn get_sampler_parameterfv(sampler: u32, pname: u32) -> Vec<f32> = try_get_sampler_parameterfv;
    /// glGetSamplerParameterIiv.
    "glGetSamplerParameterIiv"
    fn get_sampler_parameter_iiv(sampler: u32, pname: u32) -> Vec<i32>
        = try_get_sampler_parameter_iiv;
    /// glGetSamplerParameterIuiv.
    "glGetSamplerParameterIuiv"
    fn get_sampler_parameter_iuiv(sampler: u32, pname: u32) -> Vec<u32>
        = try_get_sampler_parameter_iuiv;
    /// glGetTexLevelParameteriv: size, internal format, component sizes and types.
    "glGetTexLevelParameteriv"
    fn get_tex_level_parameteriv(target: u32, level: i32, pname: u32) -> i32
        = try_get_tex_level_parameteriv;
    /// glCreateSamplers.
    "glCreateSamplers" fn create_samplers(n: i32) -> Vec<u32> = try_create_samplers;
    /// glBindSampler.
    "glBindSampler" fn bind_sampler(unit: u32, sampler: u32) = try_bind_sampler;
    /// glDeleteSamplers: unbinds from units, frees the sampler's handles.
    "glDeleteSamplers" fn delete_samplers(samplers: &[u32]) = try_delete_samplers;
    /// glSamplerParameteri.
    "glSamplerParameteri"
    fn sampler_parameter_i(sampler: u32, pname: u32, param: i32) = try_sampler_parameter_i;
    /// glSamplerParameterf.
    "glSamplerParameterf"
    fn sampler_parameter_f(sampler: u32, pname: u32, param: f32) = try_sampler_parameter_f;
    /// glSamplerParameteriv.
    "glSamplerParameteriv"
    fn sampler_parameter_iv(sampler: u32, pname: u32, params: &[i32]) = try_sampler_parameter_iv;
    /// glSamplerParameterfv.
    "glSamplerParameterfv"
    fn sampler_parameter_fv(sampler: u32, pname: u32, params: &[f32]) = try_sampler_parameter_fv;
    /// glTexParameterIiv: as glTexParameteriv, but a border colour stays integers.
    /// glTextureParameteri (DSA, GL 4.5 core §8.10).
    "glTextureParameteri"
    fn texture_parameter_i(texture: u32, pname: u32, param: i32) = try_texture_parameter_i;
    /// glTextureParameterf.
    "glTextureParameterf"
    fn texture_parameter_f(texture: u32, pname: u32, param: f32) = try_texture_parameter_f;
    /// glTextureParameteriv.
    "glTextureParameteriv"
    fn texture_parameter_iv(texture: u32, pname: u32, params: &[i32]) = try_texture_parameter_iv;
    /// glTextureParameterfv.
    "glTextureParameterfv"
    fn texture_parameter_fv(texture: u32, pname: u32, params: &[f32]) = try_texture_parameter_fv;
    /// glTextureParameterIiv.
    "glTextureParameterIiv"
    fn texture_parameter_iiv(texture: u32, pname: u32, params: &[i32]) = try_texture_parameter_iiv;
    /// glTextureParameterIuiv.
    "glTextureParameterIuiv"
    fn texture_parameter_iuiv(texture: u32, pname: u32, params: &[u32])
        = try_texture_parameter_iuiv;
    /// glTexParameterIiv.
    "glTexParameterIiv"
    fn tex_parameter_iiv(target: u32, pname: u32, params: &[i32]) = try_tex_parameter_iiv;
    /// glTexParameterIuiv.
    "glTexParameterIuiv"
    fn tex_parameter_iuiv(target: u32, pname: u32, params: &[u32]) = try_tex_parameter_iuiv;
    /// glGetTexParameterIiv.
    "glGetTexParameterIiv"
    fn get_tex_parameter_iiv(target: u32, pname: u32) -> Vec<i32> = try_get_tex_parameter_iiv;
    /// glGetTexParameterIuiv.
    "glGetTexParameterIuiv"
    fn get_tex_parameter_iuiv(target: u32, pname: u32) -> Vec<u32> = try_get_tex_parameter_iuiv;
    /// glSamplerParameterIiv.
    "glSamplerParameterIiv"
    fn sampler_parameter_iiv(sampler: u32, pname: u32, params: &[i32]) = try_sampler_parameter_iiv;
    /// glSamplerParameterIuiv.
    "glSamplerParameterIuiv"
    fn sampler_parameter_iuiv(sampler: u32, pname: u32, params: &[u32])
        = try_sampler_parameter_iuiv;
    /// glTexImage3D (GL 4.5 core §8.5) of a 2D array texture: `depth` layers.
    #[allow(clippy::too_many_arguments)]
    "glTexImage3D"
    fn tex_image_3d(target: u32, level: i32, internalformat: i32, width: i32, height: i32, depth: i32, border: i32, format: u32, ty: u32, data: Option<&[u8]>)
        = try_tex_image_3d;
    /// glTexImage3D with a GL_PIXEL_UNPACK_BUFFER bound.
    #[allow(clippy::too_many_arguments)]
    "glTexImage3D"
    fn tex_image_3d_from_buffer(target: u32, level: i32, internalformat: i32, width: i32, height: i32, depth: i32, border: i32, format: u32, ty: u32, offset: usize)
        = try_tex_image_3d_from_buffer;
    /// glTexStorage3D (GL 4.5 core §8.19) of a 2D array texture.
    "glTexStorage3D"
    fn tex_storage_3d(target: u32, levels: i32, internalformat: u32, width: i32, height: i32, depth: i32)
        = try_tex_storage_3d;
    /// glTextureStorage3D (DSA) of a 2D array texture.
    "glTextureStorage3D"
    fn texture_storage_3d(texture: u32, levels: i32, internalformat: u32, width: i32, height: i32, depth: i32)
        = try_texture_storage_3d;
    /// glTextureStorage2D (DSA).
    "glTextureStorage2D"
    fn texture_storage_2d(texture: u32, levels: i32, internalformat: u32, width: i32, height: i32)
        = try_texture_storage_2d;
    /// glTexSubImage3D of a 2D array texture: `offset` (x, y, layer), `size` (w, h, layers).
    #[allow(clippy::too_many_arguments)]
    "glTexSubImage3D"
    fn tex_sub_image_3d(target: u32, level: i32, offset: [i32; 3], size: [i32; 3], format: u32, ty: u32, data: &[u8])
        = try_tex_sub_image_3d;
    /// glTextureSubImage3D (DSA) of a 2D array texture.
    #[allow(clippy::too_many_arguments)]
    "glTextureSubImage3D"
    fn texture_sub_image_3d(texture: u32, level: i32, offset: [i32; 3], size: [i32; 3], format: u32, ty: u32, data: &[u8])
        = try_texture_sub_image_3d;
    /// glTexSubImage3D with a GL_PIXEL_UNPACK_BUFFER bound.
    #[allow(clippy::too_many_arguments)]
    "glTexSubImage3D"
    fn tex_sub_image_3d_from_buffer(target: u32, level: i32, offset: [i32; 3], size: [i32; 3], format: u32, ty: u32, buffer_offset: usize)
        = try_tex_sub_image_3d_from_buffer;
    /// glTextureSubImage3D with a GL_PIXEL_UNPACK_BUFFER bound.
    #[allow(clippy::too_many_arguments)]
    "glTextureSubImage3D"
    fn texture_sub_image_3d_from_buffer(texture: u32, level: i32, offset: [i32; 3], size: [i32; 3], format: u32, ty: u32, buffer_offset: usize)
        = try_texture_sub_image_3d_from_buffer;
    /// glGetTexImage (GL 4.5 core §8.11.4): the whole level (every layer) in `format`/`ty`
    /// at GL_PACK_ALIGNMENT.
    "glGetTexImage"
    fn get_tex_image(target: u32, level: i32, format: u32, ty: u32) -> Vec<u8> = try_get_tex_image;
    /// glCreateTextures (GL_TEXTURE_2D and GL_TEXTURE_2D_ARRAY).
    "glCreateTextures"
    fn create_textures(target: u32, n: i32) -> Vec<u32> = try_create_textures;
    /// glGenSamplers (sampler names are objects at once, GL 4.5 core §8.2).
    "glGenSamplers"
    fn gen_samplers(n: i32) -> Vec<u32> = try_gen_samplers;
    /// glCopyTexImage2D (GL 4.5 core §8.6): a new level from the read framebuffer.
    #[allow(clippy::too_many_arguments)]
    "glCopyTexImage2D"
    fn copy_tex_image_2d(target: u32, level: i32, internalformat: u32, x: i32, y: i32, width: i32, height: i32, border: i32)
        = try_copy_tex_image_2d;
    /// glCopyTexSubImage2D: `offset` (x, y) in the level, `src` (x, y, width, height) in
    /// the read framebuffer.
    "glCopyTexSubImage2D"
    fn copy_tex_sub_image_2d(target: u32, level: i32, offset: [i32; 2], src: [i32; 4])
        = try_copy_tex_sub_image_2d;
    /// glCopyTexSubImage3D: `offset` (x, y, layer, face or slice).
    "glCopyTexSubImage3D"
    fn copy_tex_sub_image_3d(target: u32, level: i32, offset: [i32; 3], src: [i32; 4])
        = try_copy_tex_sub_image_3d;
    /// glCopyTextureSubImage2D (DSA).
    "glCopyTextureSubImage2D"
    fn copy_texture_sub_image_2d(texture: u32, level: i32, offset: [i32; 2], src: [i32; 4])
        = try_copy_texture_sub_image_2d;
    /// glCopyTextureSubImage3D (DSA; a cube map's z is the face).
    "glCopyTextureSubImage3D"
    fn copy_texture_sub_image_3d(texture: u32, level: i32, offset: [i32; 3], src: [i32; 4])
        = try_copy_texture_sub_image_3d;
}

impl Context {
    /// The texture object `r` refers to.
    pub(crate) fn texture(&self, r: TexRef) -> Option<&Texture> {
        match r {
            TexRef::Default => Some(&self.default_texture),
            TexRef::DefaultArray => Some(&self.default_texture_2d_array),
            TexRef::DefaultCube => Some(&self.default_texture_cube),
            TexRef::Default3D => Some(&self.default_texture_3d),
            TexRef::DefaultMs => Some(&self.default_texture_ms),
            TexRef::DefaultMsArray => Some(&self.default_texture_ms_array),
            TexRef::DefaultMore(i) => self.default_textures_more.get(i as usize),
            TexRef::Named(n) => self.objs.textures.get(n),
        }
    }

    pub(crate) fn texture_mut(&mut self, r: TexRef) -> Option<&mut Texture> {
        match r {
            TexRef::Default => Some(&mut self.default_texture),
            TexRef::DefaultArray => Some(&mut self.default_texture_2d_array),
            TexRef::DefaultCube => Some(&mut self.default_texture_cube),
            TexRef::Default3D => Some(&mut self.default_texture_3d),
            TexRef::DefaultMs => Some(&mut self.default_texture_ms),
            TexRef::DefaultMsArray => Some(&mut self.default_texture_ms_array),
            TexRef::DefaultMore(i) => self.default_textures_more.get_mut(i as usize),
            TexRef::Named(n) => self.objs.textures.get_mut(n),
        }
    }

    /// The texture bound to `target` on the active unit: GL_TEXTURE_2D, _2D_ARRAY,
    /// _CUBE_MAP (or one of its face targets) or _3D.
    fn bound_texture(&self, target: u32) -> GlResult<TexRef> {
        let kind = cube_face_of(target)
            .map(|_| TexKind::Cube)
            .or_else(|| kind_of_target(target))
            .ok_or(GlError::BadEnum(TARGETS, target))?;
        Ok(self.unit_texture_for(self.active_texture as usize, kind))
    }

    /// The texture bound to `target` for a command that takes the targets `allowed`
    /// (GL 4.5 core §8.5, §8.6, §8.19: INVALID_ENUM otherwise).
    pub(crate) fn bound_texture_of(
        &self,
        target: u32,
        allowed: &[u32],
        what: &'static str,
    ) -> GlResult<TexRef> {
        let face_ok = allowed.contains(&gl::TEXTURE_CUBE_MAP_POSITIVE_X);
        let face = face_ok && cube_face_of(target).is_some();
        if !(allowed.contains(&target) || face) {
            return Err(GlError::BadEnum(what, target));
        }
        self.bound_texture(target)
    }

    /// The binding of `unit` for the texture kind `kind` (what a sampler of that type
    /// reads), or that target's default texture.
    pub(crate) fn unit_texture_for(&self, unit: usize, kind: TexKind) -> TexRef {
        if let Some(i) = more_index(kind) {
            return match self.texture_units_more[i].get(unit).copied().flatten() {
                Some(n) => TexRef::Named(n),
                None => TexRef::DefaultMore(i as u8),
            };
        }
        let (units, default) = match kind {
            TexKind::D2 => (&self.texture_units, TexRef::Default),
            TexKind::D2Array => (&self.texture_units_2d_array, TexRef::DefaultArray),
            TexKind::Cube => (&self.texture_units_cube, TexRef::DefaultCube),
            TexKind::D3 => (&self.texture_units_3d, TexRef::Default3D),
            TexKind::D2Multisample => (&self.texture_units_ms, TexRef::DefaultMs),
            TexKind::D2MultisampleArray => (&self.texture_units_ms_array, TexRef::DefaultMsArray),
            _ => unreachable!("`more_index` covers the other kinds"),
        };
        match units.get(unit).copied().flatten() {
            Some(n) => TexRef::Named(n),
            None => default,
        }
    }

    /// The unit bindings of one kind.
    pub(crate) fn units_mut(&mut self, kind: TexKind) -> &mut Vec<Option<TextureName>> {
        if let Some(i) = more_index(kind) {
            return &mut self.texture_units_more[i];
        }
        match kind {
            TexKind::D2 => &mut self.texture_units,
            TexKind::D2Array => &mut self.texture_units_2d_array,
            TexKind::Cube => &mut self.texture_units_cube,
            TexKind::D3 => &mut self.texture_units_3d,
            TexKind::D2Multisample => &mut self.texture_units_ms,
            TexKind::D2MultisampleArray => &mut self.texture_units_ms_array,
            _ => unreachable!("`more_index` covers the other kinds"),
        }
    }

    /// The texture `r`, mutable, after checking bindless immutability.
    pub(crate) fn texture_for_state_change_of(&mut self, r: TexRef) -> GlResult<&mut Texture> {
        let t = self
            .texture_mut(r)
            .ok_or(GlError::InvalidOperation("no texture"))?;
        if t.has_handle {
            // ARB_bindless_texture: the state of a texture with a handle is immutable.
            return Err(GlError::InvalidOperation("texture has a bindless handle"));
        }
        Ok(t)
    }

    pub(crate) fn try_gen_textures(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| this.objs.textures.gen_many(n))
    }

    pub(crate) fn try_create_textures(&mut self, target: u32, n: i32) -> GlResult<Vec<u32>> {
        if kind_of_target(target).is_none() {
            return Err(GlError::BadEnum(TARGETS, target));
        }
        let t = Texture::of_target(target);
        self.make_names(n, |this, n| this.objs.textures.create_many(n, || t.clone()))
    }

    /// glIsTexture.
    pub fn is_texture(&self, texture: u32) -> bool {
        self.read_group(|o| o.textures.get(TextureName(texture)).is_some())
    }

    pub(crate) fn try_active_texture(&mut self, texture: u32) -> GlResult<()> {
        let unit = texture.wrapping_sub(gl::TEXTURE0);
        if unit >= limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS {
            return Err(GlError::InvalidEnum("texture unit"));
        }
        self.active_texture = unit;
        Ok(())
    }

    pub(crate) fn try_bind_texture(&mut self, target: u32, texture: u32) -> GlResult<()> {
        let kind = kind_of_target(target).ok_or(GlError::BadEnum(TARGETS, target))?;
        let unit = self.active_texture as usize;
        if texture == 0 {
            self.units_mut(kind)[unit] = None;
            return Ok(());
        }
        let name = TextureName(texture);
        if !self.objs.textures.ensure(name, Texture::default) {
            return Err(GlError::InvalidOperation("not a texture name"));
        }
        let t = self
            .objs
            .textures
            .get_mut(name)
            .ok_or(GlError::InvalidOperation("not a texture"))?;
        if t.target.is_some_and(|t| t != target) {
            return Err(GlError::InvalidOperation("texture has another target"));
        }
        if t.target.is_none() {
            // First bind: the target's initial state (rectangle defaults).
            let fresh = Texture::of_target(target);
            t.state = fresh.state;
        }
        t.target = Some(target);
        self.units_mut(kind)[unit] = Some(name);
        Ok(())
    }

    pub(crate) fn try_delete_textures(&mut self, textures: &[u32]) -> GlResult<()> {
        for &t in textures {
            let name = TextureName(t);
            if t == 0 || !self.objs.textures.is_name(name) {
                continue;
            }
            self.unbind_image_units(name);
            for u in self
                .texture_units
                .iter_mut()
                .chain(&mut self.texture_units_2d_array)
                .chain(&mut self.texture_units_cube)
                .chain(&mut self.texture_units_3d)
                .chain(&mut self.texture_units_ms)
                .chain(&mut self.texture_units_ms_array)
                .chain(self.texture_units_more.iter_mut().flatten())
            {
                if *u == Some(name) {
                    *u = None;
                }
            }
            self.detach_texture(name);
            self.free_texture_handles(name);
            if let Some(tex) = self.objs.textures.remove(name) {
                self.retired_descriptors
                    .extend(tex.internal.iter().map(|i| i.3));
            }
        }
        Ok(())
    }

    pub(crate) fn check_level(level: i32) -> GlResult<usize> {
        if level < 0 || level as usize >= limits::MAX_MIP_LEVELS {
            return Err(GlError::InvalidValue("level out of range"));
        }
        Ok(level as usize)
    }

    /// A 2D array's layer count (GL 4.5 core §8.5: INVALID_VALUE past
    /// MAX_ARRAY_TEXTURE_LAYERS or below 0).
    pub(crate) fn check_layers(d: i32) -> GlResult<u32> {
        if !(0..=limits::MAX_ARRAY_TEXTURE_LAYERS).contains(&d) {
            return Err(GlError::InvalidValue("layer count out of range"));
        }
        Ok(d as u32)
    }

    pub(crate) fn check_size(w: i32, h: i32) -> GlResult<(u32, u32)> {
        if w < 0 || h < 0 || w > limits::MAX_TEXTURE_SIZE || h > limits::MAX_TEXTURE_SIZE {
            return Err(GlError::InvalidValue("size out of range"));
        }
        Ok((w as u32, h as u32))
    }

    /// Drops the compressed blocks level `lvl` of `r` kept: its texels were written
    /// through an uncompressed path, so they no longer describe it.
    pub(crate) fn forget_compressed(&mut self, r: TexRef, lvl: usize) {
        if let Some(slot) = self.texture_mut(r).and_then(|t| t.compressed.get_mut(lvl)) {
            *slot = None;
        }
    }

    /// Marks that an image a framebuffer may use changed, and retires the internal
    /// descriptors of a texture whose captured state changed.
    pub(crate) fn texture_changed(&mut self, r: TexRef) {
        if let Some(t) = self.texture_mut(r) {
            t.touch();
            let stale: Vec<TextureHandle> = t.internal.drain(..).map(|i| i.3).collect();
            self.retired_descriptors.extend(stale);
        }
        self.dirty |= dirty::TARGET;
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_image_2d(
        &mut self,
        target: u32,
        level: i32,
        internalformat: i32,
        width: i32,
        height: i32,
        border: i32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        if let Some(kind) = proxy_of(target, &PROXIES_2D) {
            let dims = [width, height, 1];
            return self.proxy_image(
                target,
                kind,
                level,
                internalformat,
                dims,
                border,
                format,
                ty,
            );
        }
        let r = self.bound_texture_of(
            target,
            &[
                gl::TEXTURE_2D,
                gl::TEXTURE_CUBE_MAP_POSITIVE_X,
                gl::TEXTURE_1D_ARRAY,
                gl::TEXTURE_RECTANGLE,
            ],
            "texture target (GL_TEXTURE_2D, _1D_ARRAY, _RECTANGLE, a cube map face or a proxy)",
        )?;
        if target == gl::TEXTURE_1D_ARRAY {
            // The image's rows are the layers (GL 4.5 core §8.5): stored as `height`
            // one-row layers.
            let dims = [width, 1, height];
            return self.tex_image(r, level, internalformat, dims, border, format, ty, data);
        }
        if target == gl::TEXTURE_RECTANGLE && level != 0 {
            return Err(GlError::InvalidValue(
                "rectangle textures have level 0 only",
            ));
        }
        if let Some(face) = cube_face_of(target) {
            // Cube faces are square (GL 4.5 core §8.5.3).
            if width != height {
                return Err(GlError::InvalidValue("cube map faces must be square"));
            }
            let dims = [width, height, 1];
            return self.tex_image_at(
                r,
                Some(face),
                level,
                internalformat,
                dims,
                border,
                format,
                ty,
                data,
            );
        }
        let dims = [width, height, 1];
        self.tex_image(r, level, internalformat, dims, border, format, ty, data)
    }

    /// glTexImage2D / glTexImage3D on the texture `r`: `dims` is (width, height, layers
    /// or depth).
    #[allow(clippy::too_many_arguments)]
    fn tex_image(
        &mut self,
        r: TexRef,
        level: i32,
        internalformat: i32,
        dims: [i32; 3],
        border: i32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        self.tex_image_at(
            r,
            None,
            level,
            internalformat,
            dims,
            border,
            format,
            ty,
            data,
        )
    }

    /// `tex_image`, or with `face` glTexImage2D on one face of a cube map: the level's
    /// six-face image is kept (and the face written in place, after queued draws finish)
    /// when it has this size and format, else replaced by a new one holding only this face.
    #[allow(clippy::too_many_arguments)]
    fn tex_image_at(
        &mut self,
        r: TexRef,
        face: Option<u32>,
        level: i32,
        internalformat: i32,
        [width, height, depth]: [i32; 3],
        border: i32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        let lvl = Self::check_level(level)?;
        let (w, h) = Self::check_size(width, height)?;
        let d = Self::check_layers(depth)?;
        let kind = self.texture(r).map(|t| t.kind()).unwrap_or_default();
        let ifmt = image_format(kind, internalformat, border)?;
        if kind == TexKind::CubeArray && (w != h || d % 6 != 0) {
            return Err(GlError::InvalidValue(
                "cube map array faces must be square and layer-faces a multiple of 6",
            ));
        }
        let fmt = ifmt.storage;
        let bytes = match data {
            Some(src) => Some(pixels::unpack_3d(
                ifmt,
                format,
                ty,
                [w as usize, h as usize, d as usize],
                src,
                &self.unpack_store(r),
            )?),
            None => {
                // Validate format/type even without data.
                pixels::unpack(ifmt, format, ty, 0, 0, &[], &pixels::PixelStore::INITIAL)?;
                None
            }
        };
        // Texels uploaded into a specific compressed format: the GL compresses them.
        let dims = [w as usize, h as usize, d as usize];
        let packed = bytes
            .as_ref()
            .and_then(|b| crate::api::compressed::compress(ifmt.gl, dims, b));
        let t = self.texture_for_state_change_of(r)?;
        if t.immutable {
            return Err(GlError::InvalidOperation("texture storage is immutable"));
        }
        if let Some(face) = face {
            let keep = t.levels[lvl]
                .clone()
                .filter(|i| i.width() == w && i.height() == h && i.depth() == 6)
                .filter(|i| i.format() == fmt && t.formats[lvl] == Some(ifmt));
            let face_bytes = w as usize * h as usize * fmt.bytes_per_texel();
            let src = bytes.unwrap_or_else(|| vec![0; face_bytes]);
            let off = face as usize * face_bytes;
            match keep {
                Some(img) => {
                    let flushed = self.flush_raster();
                    img.write_bytes_flushed(&flushed, off, &src);
                    if packed.is_none() {
                        self.forget_compressed(r, lvl);
                    }
                }
                None => {
                    let mut img = pixels::new_image_layers(w, h, 6, fmt)?;
                    img.write_bytes(off, &src);
                    let t = self.texture_for_state_change_of(r)?;
                    t.levels[lvl] = Some(Arc::new(img));
                    t.cube_faces[lvl] = 0;
                }
            }
            let t = self.texture_for_state_change_of(r)?;
            t.cube_faces[lvl] |= 1 << face;
            t.formats[lvl] = Some(ifmt);
            let img = t.levels[lvl].clone();
            if let (Some((c, blocks)), Some(img)) = (packed, img) {
                let at = [0, 0, face as usize];
                self.write_blocks(r, lvl, &img, c, at, [dims[0], dims[1], 1], blocks)?;
            }
            self.texture_changed(r);
            return Ok(());
        }
        let mut img = pixels::new_image_layers(w, h, d, fmt)?;
        if let Some(b) = bytes {
            img.write_bytes(0, &b);
        }
        // A new image: queued draws keep reading the old one.
        let img = Arc::new(img);
        t.levels[lvl] = Some(img.clone());
        t.formats[lvl] = Some(ifmt);
        if let Some((c, blocks)) = packed {
            self.write_blocks(r, lvl, &img, c, [0; 3], dims, blocks)?;
        }
        self.texture_changed(r);
        Ok(())
    }

    /// The bytes a `width`×`height` unpack of `format`/`ty` takes from the bound
    /// GL_PIXEL_UNPACK_BUFFER at `offset`, checked (`pixel_buffer_range`); a negative size
    /// reads nothing here and is refused by the command itself.
    fn unpack_buffer_bytes(
        &self,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        offset: usize,
    ) -> GlResult<(Arc<Vec<u8>>, usize)> {
        let (w, h) = (width.max(0) as usize, height.max(0) as usize);
        let len = pixels::client_size(w, h, format, ty, &self.unpack.for_dims(false))?;
        let data =
            self.pixel_buffer_range(gl::PIXEL_UNPACK_BUFFER, offset, len, pixels::type_size(ty)?)?;
        Ok((data, len))
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_image_2d_from_buffer(
        &mut self,
        target: u32,
        level: i32,
        internalformat: i32,
        width: i32,
        height: i32,
        border: i32,
        format: u32,
        ty: u32,
        offset: usize,
    ) -> GlResult<()> {
        let (data, len) = self.unpack_buffer_bytes(width, height, format, ty, offset)?;
        let src = &data[offset..offset + len];
        self.try_tex_image_2d(
            target,
            level,
            internalformat,
            width,
            height,
            border,
            format,
            ty,
            Some(src),
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_sub_image_2d_from_buffer(
        &mut self,
        target: u32,
        level: i32,
        xoffset: i32,
        yoffset: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        offset: usize,
    ) -> GlResult<()> {
        let (data, len) = self.unpack_buffer_bytes(width, height, format, ty, offset)?;
        let src = &data[offset..offset + len];
        self.try_tex_sub_image_2d(
            target, level, xoffset, yoffset, width, height, format, ty, src,
        )
    }

    pub(crate) fn try_tex_storage_2d(
        &mut self,
        target: u32,
        levels: i32,
        internalformat: u32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        if let Some(kind) = proxy_of(target, &PROXIES_2D) {
            let dims = [width, height, 1];
            return self.proxy_storage(target, kind, levels, internalformat, dims);
        }
        let r = self.bound_texture_of(
            target,
            &[
                gl::TEXTURE_2D,
                gl::TEXTURE_CUBE_MAP,
                gl::TEXTURE_1D_ARRAY,
                gl::TEXTURE_RECTANGLE,
            ],
            "texture target (GL_TEXTURE_2D, _CUBE_MAP, _1D_ARRAY, _RECTANGLE or a proxy)",
        )?;
        self.tex_storage(r, levels, internalformat, [width, height, 1])
    }

    /// glTexStorage1D (GL 4.5 core §8.19): GL_TEXTURE_1D only.
    pub(crate) fn try_tex_storage_1d(
        &mut self,
        target: u32,
        levels: i32,
        internalformat: u32,
        width: i32,
    ) -> GlResult<()> {
        if let Some(kind) = proxy_of(target, &[gl::PROXY_TEXTURE_1D]) {
            return self.proxy_storage(target, kind, levels, internalformat, [width, 1, 1]);
        }
        let r =
            self.bound_texture_of(target, &[gl::TEXTURE_1D], "texture target (GL_TEXTURE_1D)")?;
        self.tex_storage(r, levels, internalformat, [width, 1, 1])
    }

    /// glTextureStorage1D.
    pub(crate) fn try_texture_storage_1d(
        &mut self,
        texture: u32,
        levels: i32,
        internalformat: u32,
        width: i32,
    ) -> GlResult<()> {
        let r = self.dsa_texture_of(texture, &[gl::TEXTURE_1D])?;
        self.tex_storage(r, levels, internalformat, [width, 1, 1])
    }

    /// glTexImage1D (GL 4.5 core §8.5): GL_TEXTURE_1D, stored one texel high.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_image_1d(
        &mut self,
        target: u32,
        level: i32,
        internalformat: i32,
        width: i32,
        border: i32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        let dims = [width, 1, 1];
        if let Some(kind) = proxy_of(target, &[gl::PROXY_TEXTURE_1D]) {
            return self.proxy_image(
                target,
                kind,
                level,
                internalformat,
                dims,
                border,
                format,
                ty,
            );
        }
        let r =
            self.bound_texture_of(target, &[gl::TEXTURE_1D], "texture target (GL_TEXTURE_1D)")?;
        self.tex_image(r, level, internalformat, dims, border, format, ty, data)
    }

    /// glTexSubImage1D and glTextureSubImage1D (`texture` for the DSA form).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_sub_image_1d(
        &mut self,
        target: u32,
        texture: Option<u32>,
        level: i32,
        xoffset: i32,
        width: i32,
        format: u32,
        ty: u32,
        data: &[u8],
    ) -> GlResult<()> {
        let r = match texture {
            Some(t) => self.dsa_texture_of(t, &[gl::TEXTURE_1D])?,
            None => {
                self.bound_texture_of(target, &[gl::TEXTURE_1D], "texture target (GL_TEXTURE_1D)")?
            }
        };
        self.sub_image(r, level, [xoffset, 0, 0], [width, 1, 1], format, ty, data)
    }

    /// glTexStorage2D/3D and glTextureStorage2D/3D on the texture `r`.
    fn tex_storage(
        &mut self,
        r: TexRef,
        levels: i32,
        internalformat: u32,
        [width, height, depth]: [i32; 3],
    ) -> GlResult<()> {
        let ifmt = storage_format(internalformat)?;
        if levels < 1 || width < 1 || height < 1 || depth < 1 {
            return Err(GlError::InvalidValue(
                "levels, width, height and depth must be positive",
            ));
        }
        let kind = self.texture(r).map(|t| t.kind()).unwrap_or_default();
        // A 1D array's height is its layer count (stored as one-row layers).
        let [width, height, depth] = if kind == TexKind::D1Array {
            [width, 1, height]
        } else {
            [width, height, depth]
        };
        let (w, h) = Self::check_size(width, height)?;
        let mut d = Self::check_layers(depth)?;
        crate::api::compressed::check_target(kind, internalformat)?;
        if kind == TexKind::Cube {
            if w != h {
                return Err(GlError::InvalidValue("cube map faces must be square"));
            }
            d = 6;
        }
        if kind == TexKind::CubeArray && (w != h || d % 6 != 0) {
            return Err(GlError::InvalidValue(
                "cube map array faces must be square and layer-faces a multiple of 6",
            ));
        }
        if kind == TexKind::Rect && levels != 1 {
            return Err(GlError::InvalidValue("rectangle textures have one level"));
        }
        let volume = kind == TexKind::D3;
        let largest = if volume { w.max(h).max(d) } else { w.max(h) };
        let max_levels = 32 - largest.leading_zeros();
        if levels as u32 > max_levels {
            return Err(GlError::InvalidOperation("too many levels for the size"));
        }
        let fmt = ifmt.storage;
        let t = self.texture_for_state_change_of(r)?;
        if t.immutable {
            return Err(GlError::InvalidOperation("texture storage is immutable"));
        }
        let mut new_levels = vec![None; limits::MAX_MIP_LEVELS];
        for (l, slot) in new_levels.iter_mut().enumerate().take(levels as usize) {
            // A 2D array's layers and a cube's faces do not shrink with the level; a 3D
            // texture's depth does (GL 4.5 core §8.19).
            let dl = if volume { (d >> l).max(1) } else { d };
            let img = pixels::new_image_layers((w >> l).max(1), (h >> l).max(1), dl, fmt)?;
            *slot = Some(Arc::new(img));
        }
        t.levels = new_levels;
        t.cube_faces = vec![ALL_FACES; limits::MAX_MIP_LEVELS];
        t.formats = (0..limits::MAX_MIP_LEVELS)
            .map(|l| (l < levels as usize).then_some(ifmt))
            .collect();
        t.immutable = true;
        t.immutable_levels = levels;
        self.texture_changed(r);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_sub_image_2d(
        &mut self,
        target: u32,
        level: i32,
        xoffset: i32,
        yoffset: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        data: &[u8],
    ) -> GlResult<()> {
        let r = self.bound_texture_of(
            target,
            &[
                gl::TEXTURE_2D,
                gl::TEXTURE_CUBE_MAP_POSITIVE_X,
                gl::TEXTURE_1D_ARRAY,
                gl::TEXTURE_RECTANGLE,
            ],
            "texture target (GL_TEXTURE_2D, _1D_ARRAY, _RECTANGLE or a cube map face)",
        )?;
        if let Some(face) = cube_face_of(target) {
            let (o, d) = ([xoffset, yoffset, face as i32], [width, height, 1]);
            return self.sub_image(r, level, o, d, format, ty, data);
        }
        self.sub_image_2d(r, level, xoffset, yoffset, width, height, format, ty, data)
    }

    /// The texture object a DSA command names, which must have one of the targets
    /// `allowed` (GL 4.5 core §8.6: INVALID_OPERATION if `texture` is not an existing
    /// texture object or has a target the command does not take).
    pub(crate) fn dsa_texture_of(&self, texture: u32, allowed: &[u32]) -> GlResult<TexRef> {
        match self
            .objs
            .textures
            .get(TextureName(texture))
            .map(|t| t.target)
        {
            Some(Some(t)) if allowed.contains(&t) => Ok(TexRef::Named(TextureName(texture))),
            Some(Some(_)) => Err(GlError::InvalidOperation(
                "the texture's target does not take this command",
            )),
            _ => Err(GlError::InvalidOperation(
                "not the name of a texture object",
            )),
        }
    }

    /// The texture a DSA 2D command names (glTextureSubImage2D: 2D only).
    fn dsa_texture(&self, texture: u32) -> GlResult<TexRef> {
        self.dsa_texture_of(
            texture,
            &[gl::TEXTURE_2D, gl::TEXTURE_1D_ARRAY, gl::TEXTURE_RECTANGLE],
        )
    }

    /// The texture a DSA 3D command names: 2D array, 3D, and for glTextureSubImage3D
    /// cube maps (the z offset is the face).
    fn dsa_texture_array(&self, texture: u32) -> GlResult<TexRef> {
        self.dsa_texture_of(
            texture,
            &[
                gl::TEXTURE_2D_ARRAY,
                gl::TEXTURE_3D,
                gl::TEXTURE_CUBE_MAP,
                gl::TEXTURE_CUBE_MAP_ARRAY,
            ],
        )
    }

    /// The texture object named by a DSA command of any target softgl has.
    fn dsa_texture_any(&self, texture: u32) -> GlResult<TexRef> {
        self.dsa_texture_of(
            texture,
            &[
                gl::TEXTURE_2D,
                gl::TEXTURE_2D_ARRAY,
                gl::TEXTURE_CUBE_MAP,
                gl::TEXTURE_3D,
                gl::TEXTURE_1D,
                gl::TEXTURE_1D_ARRAY,
                gl::TEXTURE_RECTANGLE,
                gl::TEXTURE_CUBE_MAP_ARRAY,
            ],
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_texture_sub_image_2d(
        &mut self,
        texture: u32,
        level: i32,
        xoffset: i32,
        yoffset: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        data: &[u8],
    ) -> GlResult<()> {
        let r = self.dsa_texture(texture)?;
        self.sub_image_2d(r, level, xoffset, yoffset, width, height, format, ty, data)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_texture_sub_image_2d_from_buffer(
        &mut self,
        texture: u32,
        level: i32,
        xoffset: i32,
        yoffset: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        offset: usize,
    ) -> GlResult<()> {
        let r = self.dsa_texture(texture)?;
        let (data, len) = self.unpack_buffer_bytes(width, height, format, ty, offset)?;
        let src = &data[offset..offset + len];
        self.sub_image_2d(r, level, xoffset, yoffset, width, height, format, ty, src)
    }

    /// glTexSubImage2D / glTextureSubImage2D on the texture `r`.
    #[allow(clippy::too_many_arguments)]
    fn sub_image_2d(
        &mut self,
        r: TexRef,
        level: i32,
        xoffset: i32,
        yoffset: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        data: &[u8],
    ) -> GlResult<()> {
        // A 1D array's rows are its layers.
        let one_d_array = self
            .texture(r)
            .is_some_and(|t| t.kind() == TexKind::D1Array);
        let (o, d) = if one_d_array {
            ([xoffset, 0, yoffset], [width, 1, height])
        } else {
            ([xoffset, yoffset, 0], [width, height, 1])
        };
        self.sub_image(r, level, o, d, format, ty, data)
    }

    /// glTex(ture)SubImage2D/3D on the texture `r`: the box at `offset` (x, y, layer) of
    /// `size` (width, height, layers).
    #[allow(clippy::too_many_arguments)]
    fn sub_image(
        &mut self,
        r: TexRef,
        level: i32,
        [xoffset, yoffset, zoffset]: [i32; 3],
        [width, height, depth]: [i32; 3],
        format: u32,
        ty: u32,
        data: &[u8],
    ) -> GlResult<()> {
        let lvl = Self::check_level(level)?;
        let t = self
            .texture(r)
            .ok_or(GlError::InvalidOperation("no texture"))?;
        let img = t.levels[lvl]
            .clone()
            .ok_or(GlError::InvalidOperation("level not specified"))?;
        if xoffset < 0 || yoffset < 0 || zoffset < 0 || width < 0 || height < 0 || depth < 0 {
            return Err(GlError::InvalidValue("negative offset or size"));
        }
        let (x, y, w, h) = (xoffset as u32, yoffset as u32, width as u32, height as u32);
        let (z, d) = (zoffset as u32, depth as u32);
        if x.checked_add(w).is_none_or(|e| e > img.width())
            || y.checked_add(h).is_none_or(|e| e > img.height())
            || z.checked_add(d).is_none_or(|e| e > img.depth())
        {
            return Err(GlError::InvalidValue("region outside the image"));
        }
        let ifmt =
            t.formats[lvl].unwrap_or_else(|| pixels::InternalFormat::of_storage(img.format()));
        crate::api::compressed::check_sub_region(ifmt.gl, [x, y, w, h], &img)?;
        let dims = [w, h, d].map(|v| v as usize);
        let bytes = pixels::unpack_3d(ifmt, format, ty, dims, data, &self.unpack_store(r))?;
        if let Some((c, blocks)) = crate::api::compressed::compress(ifmt.gl, dims, &bytes) {
            let at = [x, y, z].map(|v| v as usize);
            return self.write_blocks(r, lvl, &img, c, at, dims, blocks);
        }
        let flushed = self.flush_raster();
        self.forget_compressed(r, lvl);
        let bpt = img.format().bytes_per_texel();
        // Row `row` of the client box is row `row % h` of layer `z + row / h`.
        for row in 0..(h * d) as usize {
            let (layer, r) = (z as usize + row / h as usize, row % h as usize);
            let iy = layer * img.height() as usize + y as usize + r;
            let off = (iy * img.width() as usize + x as usize) * bpt;
            img.write_bytes_flushed(
                &flushed,
                off,
                &bytes[row * w as usize * bpt..(row + 1) * w as usize * bpt],
            );
        }
        Ok(())
    }

    // ---- 2D array textures (GL 4.5 core §8.5 TexImage3D, §8.6, §8.19) ----

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_image_3d(
        &mut self,
        target: u32,
        level: i32,
        internalformat: i32,
        width: i32,
        height: i32,
        depth: i32,
        border: i32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        let dims = [width, height, depth];
        if let Some(kind) = proxy_of(target, &PROXIES_3D) {
            return self.proxy_image(
                target,
                kind,
                level,
                internalformat,
                dims,
                border,
                format,
                ty,
            );
        }
        let r = self.bound_texture_of(
            target,
            &[
                gl::TEXTURE_2D_ARRAY,
                gl::TEXTURE_3D,
                gl::TEXTURE_CUBE_MAP_ARRAY,
            ],
            "texture target (GL_TEXTURE_2D_ARRAY, _3D, _CUBE_MAP_ARRAY or a proxy)",
        )?;
        self.tex_image(r, level, internalformat, dims, border, format, ty, data)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_image_3d_from_buffer(
        &mut self,
        target: u32,
        level: i32,
        internalformat: i32,
        width: i32,
        height: i32,
        depth: i32,
        border: i32,
        format: u32,
        ty: u32,
        offset: usize,
    ) -> GlResult<()> {
        let src = self.unpack_buffer_bytes_3d([width, height, depth], format, ty, offset)?;
        let src = &src[..];
        self.try_tex_image_3d(
            target,
            level,
            internalformat,
            width,
            height,
            depth,
            border,
            format,
            ty,
            Some(src),
        )
    }

    pub(crate) fn try_tex_storage_3d(
        &mut self,
        target: u32,
        levels: i32,
        internalformat: u32,
        width: i32,
        height: i32,
        depth: i32,
    ) -> GlResult<()> {
        let dims = [width, height, depth];
        if let Some(kind) = proxy_of(target, &PROXIES_3D) {
            return self.proxy_storage(target, kind, levels, internalformat, dims);
        }
        let r = self.bound_texture_of(
            target,
            &[
                gl::TEXTURE_2D_ARRAY,
                gl::TEXTURE_3D,
                gl::TEXTURE_CUBE_MAP_ARRAY,
            ],
            "texture target (GL_TEXTURE_2D_ARRAY, _3D, _CUBE_MAP_ARRAY or a proxy)",
        )?;
        self.tex_storage(r, levels, internalformat, dims)
    }

    pub(crate) fn try_texture_storage_3d(
        &mut self,
        texture: u32,
        levels: i32,
        internalformat: u32,
        width: i32,
        height: i32,
        depth: i32,
    ) -> GlResult<()> {
        let r = self.dsa_texture_of(
            texture,
            &[
                gl::TEXTURE_2D_ARRAY,
                gl::TEXTURE_3D,
                gl::TEXTURE_CUBE_MAP_ARRAY,
            ],
        )?;
        self.tex_storage(r, levels, internalformat, [width, height, depth])
    }

    pub(crate) fn try_texture_storage_2d(
        &mut self,
        texture: u32,
        levels: i32,
        internalformat: u32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        let r = self.dsa_texture_of(
            texture,
            &[
                gl::TEXTURE_2D,
                gl::TEXTURE_CUBE_MAP,
                gl::TEXTURE_1D_ARRAY,
                gl::TEXTURE_RECTANGLE,
            ],
        )?;
        self.tex_storage(r, levels, internalformat, [width, height, 1])
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_sub_image_3d(
        &mut self,
        target: u32,
        level: i32,
        offset: [i32; 3],
        size: [i32; 3],
        format: u32,
        ty: u32,
        data: &[u8],
    ) -> GlResult<()> {
        let r = self.bound_texture_of(
            target,
            &[
                gl::TEXTURE_2D_ARRAY,
                gl::TEXTURE_3D,
                gl::TEXTURE_CUBE_MAP_ARRAY,
            ],
            "texture target (GL_TEXTURE_2D_ARRAY, _3D or _CUBE_MAP_ARRAY)",
        )?;
        self.sub_image(r, level, offset, size, format, ty, data)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_texture_sub_image_3d(
        &mut self,
        texture: u32,
        level: i32,
        offset: [i32; 3],
        size: [i32; 3],
        format: u32,
        ty: u32,
        data: &[u8],
    ) -> GlResult<()> {
        let r = self.dsa_texture_array(texture)?;
        self.sub_image(r, level, offset, size, format, ty, data)
    }

    /// The bytes a 3D unpack of `size` takes from the bound GL_PIXEL_UNPACK_BUFFER.
    pub(crate) fn unpack_buffer_bytes_3d(
        &self,
        size: [i32; 3],
        format: u32,
        ty: u32,
        offset: usize,
    ) -> GlResult<Vec<u8>> {
        let [w, h, d] = size.map(|v| v.max(0) as usize);
        let len = pixels::client_size_3d([w, h, d], format, ty, &self.unpack)?;
        let data =
            self.pixel_buffer_range(gl::PIXEL_UNPACK_BUFFER, offset, len, pixels::type_size(ty)?)?;
        Ok(data[offset..offset + len].to_vec())
    }

    /// The unpack state an upload into `r` uses: IMAGE_HEIGHT and SKIP_IMAGES count for
    /// layered textures only (their uploads are 3D).
    fn unpack_store(&self, r: TexRef) -> pixels::PixelStore {
        let layered = matches!(r, TexRef::DefaultArray)
            || self
                .texture(r)
                .is_some_and(|t| pixels::is_3d_target(t.target));
        self.unpack.for_dims(layered)
    }

    // ---- copies from the read framebuffer (GL 4.5 core §8.6) ----

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_copy_tex_image_2d(
        &mut self,
        target: u32,
        level: i32,
        internalformat: u32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        border: i32,
    ) -> GlResult<()> {
        let r = self.bound_texture_of(
            target,
            &[
                gl::TEXTURE_2D,
                gl::TEXTURE_CUBE_MAP_POSITIVE_X,
                gl::TEXTURE_1D,
                gl::TEXTURE_1D_ARRAY,
                gl::TEXTURE_RECTANGLE,
            ],
            "texture target (GL_TEXTURE_2D, _1D_ARRAY, _RECTANGLE or a cube map face)",
        )?;
        // glCopyTexImage1D comes here with height 1 (`try_copy_tex_image_1d`).
        if target == gl::TEXTURE_RECTANGLE && level != 0 {
            return Err(GlError::InvalidValue(
                "rectangle textures have level 0 only",
            ));
        }
        let face = cube_face_of(target);
        if face.is_some() && width != height {
            return Err(GlError::InvalidValue("cube map faces must be square"));
        }
        let ifmt = pixels::internal_format(internalformat)
            .ok_or(GlError::BadEnum("internal format", internalformat))?;
        // The level is specified first (its checks and errors are TexImage2D's), with a
        // format/type pair that suits the internal format, and no data.
        let (format, ty) = match ifmt.storage {
            Format::Depth24Stencil8 => (gl::DEPTH_STENCIL, gl::UNSIGNED_INT_24_8),
            f if f.is_depth() => (gl::DEPTH_COMPONENT, gl::FLOAT),
            Format::Int(f) if f.signed => (gl::RGBA_INTEGER, gl::INT),
            Format::Int(_) | Format::Rgb10A2ui => (gl::RGBA_INTEGER, gl::UNSIGNED_INT),
            _ => (gl::RGBA, gl::FLOAT),
        };
        let one_d_array = target == gl::TEXTURE_1D_ARRAY;
        let dims = if one_d_array {
            [width, 1, height]
        } else {
            [width, height, 1]
        };
        self.tex_image_at(
            r,
            face,
            level,
            internalformat as i32,
            dims,
            border,
            format,
            ty,
            None,
        )?;
        if one_d_array {
            return self.copy_rows_to_layers(r, level, [0, 0], [x, y, width, height]);
        }
        let z = face.unwrap_or(0) as i32;
        self.copy_into(r, level, [0, 0, z], [x, y, width, height])
    }

    /// glCopyTexImage1D (GL 4.5 core §8.6): one row of the read framebuffer.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_copy_tex_image_1d(
        &mut self,
        target: u32,
        level: i32,
        internalformat: u32,
        x: i32,
        y: i32,
        width: i32,
        border: i32,
    ) -> GlResult<()> {
        if target != gl::TEXTURE_1D {
            return Err(GlError::BadEnum("texture target (GL_TEXTURE_1D)", target));
        }
        self.try_copy_tex_image_2d(target, level, internalformat, x, y, width, 1, border)
    }

    /// glCopyTexSubImage1D / glCopyTextureSubImage1D (`texture`).
    pub(crate) fn try_copy_tex_sub_image_1d(
        &mut self,
        target: u32,
        texture: Option<u32>,
        level: i32,
        xoffset: i32,
        [x, y, width]: [i32; 3],
    ) -> GlResult<()> {
        let r = match texture {
            Some(t) => self.dsa_texture_of(t, &[gl::TEXTURE_1D])?,
            None => {
                self.bound_texture_of(target, &[gl::TEXTURE_1D], "texture target (GL_TEXTURE_1D)")?
            }
        };
        self.copy_into(r, level, [xoffset, 0, 0], [x, y, width, 1])
    }

    /// A copy into a 1D array: read-framebuffer row y + k goes to layer yoff + k.
    fn copy_rows_to_layers(
        &mut self,
        r: TexRef,
        level: i32,
        [xoff, yoff]: [i32; 2],
        [x, y, width, height]: [i32; 4],
    ) -> GlResult<()> {
        if height < 0 {
            return Err(GlError::InvalidValue("negative size"));
        }
        for k in 0..height {
            self.copy_into(r, level, [xoff, 0, yoff + k], [x, y + k, width, 1])?;
        }
        Ok(())
    }

    pub(crate) fn try_copy_tex_sub_image_2d(
        &mut self,
        target: u32,
        level: i32,
        [xoffset, yoffset]: [i32; 2],
        src: [i32; 4],
    ) -> GlResult<()> {
        let r = self.bound_texture_of(
            target,
            &[
                gl::TEXTURE_2D,
                gl::TEXTURE_CUBE_MAP_POSITIVE_X,
                gl::TEXTURE_1D_ARRAY,
                gl::TEXTURE_RECTANGLE,
            ],
            "texture target (GL_TEXTURE_2D, _1D_ARRAY, _RECTANGLE or a cube map face)",
        )?;
        if target == gl::TEXTURE_1D_ARRAY {
            return self.copy_rows_to_layers(r, level, [xoffset, yoffset], src);
        }
        let z = cube_face_of(target).unwrap_or(0) as i32;
        self.copy_into(r, level, [xoffset, yoffset, z], src)
    }

    pub(crate) fn try_copy_tex_sub_image_3d(
        &mut self,
        target: u32,
        level: i32,
        offset: [i32; 3],
        src: [i32; 4],
    ) -> GlResult<()> {
        let r = self.bound_texture_of(
            target,
            &[
                gl::TEXTURE_2D_ARRAY,
                gl::TEXTURE_3D,
                gl::TEXTURE_CUBE_MAP_ARRAY,
            ],
            "texture target (GL_TEXTURE_2D_ARRAY, _3D or _CUBE_MAP_ARRAY)",
        )?;
        self.copy_into(r, level, offset, src)
    }

    pub(crate) fn try_copy_texture_sub_image_2d(
        &mut self,
        texture: u32,
        level: i32,
        [xoffset, yoffset]: [i32; 2],
        src: [i32; 4],
    ) -> GlResult<()> {
        let r = self.dsa_texture(texture)?;
        if self
            .texture(r)
            .is_some_and(|t| t.kind() == TexKind::D1Array)
        {
            return self.copy_rows_to_layers(r, level, [xoffset, yoffset], src);
        }
        self.copy_into(r, level, [xoffset, yoffset, 0], src)
    }

    pub(crate) fn try_copy_texture_sub_image_3d(
        &mut self,
        texture: u32,
        level: i32,
        offset: [i32; 3],
        src: [i32; 4],
    ) -> GlResult<()> {
        let r = self.dsa_texture_array(texture)?;
        self.copy_into(r, level, offset, src)
    }

    /// Copies the read framebuffer's rectangle `[x, y, width, height]` into layer (array
    /// layer, cube face or 3D slice) `offset[2]` of level `level` of `r` at (`offset[0]`,
    /// `offset[1]`) (GL 4.5 core §8.6). Colour comes from the read buffer, depth from the
    /// depth buffer when the texture is a depth texture. Equal formats copy the stored
    /// bytes; others convert through the texel's values (as a ReadPixels of FLOAT then a
    /// TexSubImage would). Pixels outside the read framebuffer leave the texel as it was
    /// (their value is undefined, §18.2). INVALID_OPERATION when one side is integer and
    /// the other not, or depth meets colour.
    fn copy_into(
        &mut self,
        r: TexRef,
        level: i32,
        [xoff, yoff, zoff]: [i32; 3],
        [x, y, width, height]: [i32; 4],
    ) -> GlResult<()> {
        let lvl = Self::check_level(level)?;
        let dst = self
            .texture(r)
            .and_then(|t| t.levels[lvl].clone())
            .ok_or(GlError::InvalidOperation("the level has no image"))?;
        if width < 0 || height < 0 {
            return Err(GlError::InvalidValue("negative size"));
        }
        if xoff < 0
            || yoff < 0
            || zoff < 0
            || xoff as i64 + width as i64 > dst.width() as i64
            || yoff as i64 + height as i64 > dst.height() as i64
            || zoff as u32 >= dst.depth()
        {
            return Err(GlError::InvalidValue("region outside the level"));
        }
        let df = dst.format();
        let source = if df.is_depth() {
            crate::api::framebuffer::ReadSource::Depth
        } else {
            crate::api::framebuffer::ReadSource::Color
        };
        let src = self.with_group(|this| this.read_image(source))?;
        let sf = src.format();
        if sf.is_integer() != df.is_integer() {
            return Err(GlError::InvalidOperation(
                "integer and non-integer formats do not copy into each other",
            ));
        }
        if sf.is_depth() != df.is_depth() {
            return Err(GlError::InvalidOperation(
                "depth and colour formats do not mix",
            ));
        }
        if sf.is_integer() && sf != df {
            return Err(GlError::InvalidOperation(
                "integer copies need the same format here",
            ));
        }
        if width == 0 || height == 0 {
            return Ok(());
        }
        let flushed = self.flush_raster();
        self.forget_compressed(r, lvl);
        let (sbpt, dbpt) = (sf.bytes_per_texel(), df.bytes_per_texel());
        let (sw, sh) = (src.width() as i64, src.height() as i64);
        // The columns of the rectangle inside the read framebuffer.
        let c0 = (x as i64).max(0);
        let c1 = (x as i64 + width as i64).min(sw);
        if c0 >= c1 {
            return Ok(());
        }
        let n = (c1 - c0) as usize;
        let mut row = vec![0u8; n * sbpt];
        let mut out = vec![0u8; n * dbpt];
        for dr in 0..height as i64 {
            let sy = y as i64 + dr;
            if !(0..sh).contains(&sy) {
                continue;
            }
            src.read_bytes((sy as usize * sw as usize + c0 as usize) * sbpt, &mut row);
            let bytes: &[u8] = if sf == df {
                &row
            } else {
                for (i, o) in out.chunks_exact_mut(dbpt).enumerate() {
                    let v = pixels::decode_texel(sf, &row[i * sbpt..(i + 1) * sbpt]);
                    pixels::encode_texel(df, v, 0, o);
                }
                &out
            };
            let dx = (xoff as i64 + (c0 - x as i64)) as usize;
            let dy = zoff as usize * dst.height() as usize + (yoff as i64 + dr) as usize;
            let at = (dy * dst.width() as usize + dx) * dbpt;
            dst.write_bytes_flushed(&flushed, at, bytes);
        }
        Ok(())
    }

    // ---- downloads (GL 4.5 core §8.11.4 GetTexImage, GetTextureSubImage) ----

    /// The level image and the box of glGet(n)TexImage / glGetTextureImage /
    /// glGetTextureSubImage, checked: INVALID_VALUE for a bad level or a box outside the
    /// level, INVALID_OPERATION for a level with no image.
    fn download_source(
        &self,
        r: TexRef,
        level: i32,
        offset: [i32; 3],
        size: Option<[i32; 3]>,
    ) -> GlResult<(Arc<Image>, [u32; 3], [u32; 3])> {
        let lvl = Self::check_level(level)?;
        let img = self
            .texture(r)
            .and_then(|t| t.levels[lvl].clone())
            .ok_or(GlError::InvalidOperation("the level has no image"))?;
        let full = [img.width() as i32, img.height() as i32, img.depth() as i32];
        let size = size.unwrap_or(full);
        if offset.iter().chain(&size).any(|&v| v < 0)
            || (0..3).any(|i| offset[i] as i64 + size[i] as i64 > full[i] as i64)
        {
            return Err(GlError::InvalidValue("box outside the level"));
        }
        Ok((img, offset.map(|v| v as u32), size.map(|v| v as u32)))
    }

    /// Packs the box of `img` into `out(len)` (laid out by the pack pixel store, layer after
    /// layer; GL 4.5 core §8.4.4 through `pixels::pack_box`); `limit` is bufSize of the
    /// robust forms (INVALID_OPERATION when the image does not fit, §8.11.4).
    #[allow(clippy::too_many_arguments)]
    fn pack_box<'o>(
        &mut self,
        img: &Image,
        [x, y, z]: [u32; 3],
        [w, h, d]: [u32; 3],
        format: u32,
        ty: u32,
        limit: Option<usize>,
        out: impl FnOnce(usize) -> GlResult<&'o mut [u8]>,
    ) -> GlResult<()> {
        let store = self.pack;
        let (w, h, d) = (w as usize, h as usize, d as usize);
        // A layered level's download is 3D (PACK_IMAGE_HEIGHT and PACK_SKIP_IMAGES count).
        let mode = pixels::PackMode {
            three_d: img.depth() > 1,
            clamp: false,
        };
        let len = pixels::client_size_3d([w, h, d], format, ty, &store.for_dims(mode.three_d))?;
        if limit.is_some_and(|l| len > l) {
            return Err(GlError::InvalidOperation(
                "bufSize is smaller than the image",
            ));
        }
        self.flush_raster();
        let origin = [x as i32, y as i32, z as i32];
        pixels::pack_box(img, origin, [w, h, d], format, ty, &store, mode, out)
    }

    /// glGetTexImage into a new buffer (the whole level, all its layers).
    pub(crate) fn try_get_tex_image(
        &mut self,
        target: u32,
        level: i32,
        format: u32,
        ty: u32,
    ) -> GlResult<Vec<u8>> {
        let (img, o, size) = self.download_box(target, None, level, [0; 3], None)?;
        let mut v = Vec::new();
        self.pack_box(&img, o, size, format, ty, None, |n| {
            v.try_reserve_exact(n)
                .map_err(|_| GlError::OutOfMemoryFor(n as u64, "bytes of pixels"))?;
            v.resize(n, 0);
            Ok(&mut v[..])
        })?;
        Ok(v)
    }

    /// `download_source` of the texture a download command names: by target (`texture`
    /// None; a cube face target reads that face's layer) or by name (a cube map's z is
    /// the face).
    fn download_box(
        &self,
        target: u32,
        texture: Option<u32>,
        level: i32,
        offset: [i32; 3],
        size: Option<[i32; 3]>,
    ) -> GlResult<(Arc<Image>, [u32; 3], [u32; 3])> {
        let r = self.download_texture(target, texture)?;
        match cube_face_of(target).filter(|_| texture.is_none()) {
            Some(face) => {
                let lvl = Self::check_level(level)?;
                let (w, h) = self
                    .texture(r)
                    .and_then(|t| t.levels[lvl].as_ref())
                    .map_or((0, 0), |i| (i.width() as i32, i.height() as i32));
                let o = [offset[0], offset[1], face as i32];
                self.download_source(r, level, o, Some(size.unwrap_or([w, h, 1])))
            }
            None => {
                if texture.is_none() && target == gl::TEXTURE_CUBE_MAP {
                    return Err(GlError::BadEnum(
                        "target (a cube map face, not GL_TEXTURE_CUBE_MAP)",
                        target,
                    ));
                }
                self.download_source(r, level, offset, size)
            }
        }
    }

    /// The texture a download command names: by target (`texture` None) or by name.
    pub(crate) fn download_texture(&self, target: u32, texture: Option<u32>) -> GlResult<TexRef> {
        match texture {
            Some(t) => self.dsa_texture_any(t),
            // Multisample textures have no image to download (GL 4.5 core §8.11.4).
            None if kind_of_target(target)
                .is_some_and(|k| k.is_multisample() || k == TexKind::Buffer) =>
            {
                Err(GlError::BadEnum(
                    "texture target (multisample or buffer)",
                    target,
                ))
            }
            None => self.bound_texture(target),
        }
    }

    /// glGetTexImage / glGetnTexImage / glGetTextureImage / glGetTextureSubImage (`name`)
    /// into the buffer `out(len)` gives (the C caller's memory): the texture bound to
    /// `target`, or the one named `texture`; the whole level when `size` is None; `limit`
    /// is the robust forms' bufSize.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn get_texture_sub_image_with<'o>(
        &mut self,
        name: &'static str,
        (target, texture): (u32, Option<u32>),
        level: i32,
        offset: [i32; 3],
        size: Option<[i32; 3]>,
        (format, ty): (u32, u32),
        limit: Option<usize>,
        out: impl FnOnce(usize) -> GlResult<&'o mut [u8]>,
    ) {
        self.dispatch(
            name,
            Group::ByBody,
            || (),
            |this| {
                let (img, o, s) = this
                    .with_group(|this| this.download_box(target, texture, level, offset, size))?;
                this.pack_box(&img, o, s, format, ty, limit, out)
            },
        )
    }

    /// The download commands with a GL_PIXEL_PACK_BUFFER bound: the pixels go into that
    /// buffer at `buffer_offset` (GL 4.5 core §8.11.4 with §18.2's rules: INVALID_OPERATION
    /// when mapped, misaligned or too short).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn get_texture_sub_image_to_buffer(
        &mut self,
        name: &'static str,
        (target, texture): (u32, Option<u32>),
        level: i32,
        offset: [i32; 3],
        size: Option<[i32; 3]>,
        (format, ty): (u32, u32),
        limit: Option<usize>,
        buffer_offset: usize,
    ) {
        self.dispatch(
            name,
            Group::ByBody,
            || (),
            |this| {
                let (img, o, s) = this
                    .with_group(|this| this.download_box(target, texture, level, offset, size))?;
                let store = this.pack.for_dims(img.depth() > 1);
                let size = s.map(|v| v as usize);
                let len = pixels::client_size_3d(size, format, ty, &store)?;
                let type_size = pixels::type_size(ty)?;
                // The buffer's bytes: padding and skipped bytes keep them (§8.4.4).
                let old = this.with_group(|this| {
                    this.pixel_buffer_range(gl::PIXEL_PACK_BUFFER, buffer_offset, len, type_size)
                })?;
                let mut packed = Vec::new();
                this.pack_box(&img, o, s, format, ty, limit, |n| {
                    packed
                        .try_reserve_exact(n)
                        .map_err(|_| GlError::OutOfMemoryFor(n as u64, "bytes of pixels"))?;
                    packed.extend_from_slice(&old[buffer_offset..buffer_offset + n]);
                    Ok(&mut packed[..])
                })?;
                this.with_group(|this| {
                    this.store_bytes(gl::PIXEL_PACK_BUFFER, buffer_offset, &packed)
                })
            },
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_tex_sub_image_3d_from_buffer(
        &mut self,
        target: u32,
        level: i32,
        offset: [i32; 3],
        size: [i32; 3],
        format: u32,
        ty: u32,
        buffer_offset: usize,
    ) -> GlResult<()> {
        let data = self.unpack_buffer_bytes_3d(size, format, ty, buffer_offset)?;
        self.try_tex_sub_image_3d(target, level, offset, size, format, ty, &data)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn try_texture_sub_image_3d_from_buffer(
        &mut self,
        texture: u32,
        level: i32,
        offset: [i32; 3],
        size: [i32; 3],
        format: u32,
        ty: u32,
        buffer_offset: usize,
    ) -> GlResult<()> {
        let data = self.unpack_buffer_bytes_3d(size, format, ty, buffer_offset)?;
        self.try_texture_sub_image_3d(texture, level, offset, size, format, ty, &data)
    }

    pub(crate) fn try_generate_mipmap(&mut self, target: u32) -> GlResult<()> {
        // GL 4.5 core §8.14.4: no mipmaps of multisample, rectangle or buffer textures.
        if kind_of_target(target)
            .is_some_and(|k| k.is_multisample() || matches!(k, TexKind::Rect | TexKind::Buffer))
        {
            return Err(GlError::BadEnum(
                "texture target (multisample, rectangle or buffer)",
                target,
            ));
        }
        let r = self.bound_texture(target)?;
        self.generate_mipmap_of(r)
    }

    /// glGenerateMipmap / glGenerateTextureMipmap on the texture `r`, whose target allows
    /// mipmaps.
    pub(crate) fn generate_mipmap_of(&mut self, r: TexRef) -> GlResult<()> {
        let t = self
            .texture(r)
            .ok_or(GlError::InvalidOperation("no texture"))?;
        let (base_level, max_level) = t.level_range();
        let base = base_level.max(0) as usize;
        let Some(Some(b)) = t.levels.get(base).cloned() else {
            return Ok(());
        };
        if b.format().is_depth() {
            return Err(GlError::InvalidOperation(
                "depth textures cannot be mipmapped",
            ));
        }
        // GL 4.5 core §8.14.4: the base must be texture-filterable, which integer formats
        // are not.
        if b.format().is_integer() {
            return Err(GlError::InvalidOperation(
                "integer textures cannot be mipmapped",
            ));
        }
        let kind = t.kind();
        // A cube map's base must be cube complete (GL 4.5 core §8.14.4).
        if kind == TexKind::Cube && t.cube_faces[base] != ALL_FACES {
            return Err(GlError::InvalidOperation(
                "the cube map's base level is not cube complete",
            ));
        }
        let volume = kind == TexKind::D3;
        let largest = if volume {
            b.width().max(b.height()).max(b.depth())
        } else {
            b.width().max(b.height())
        };
        let p = base + (31 - largest.max(1).leading_zeros()) as usize;
        let q = p
            .min(max_level.max(0) as usize)
            .min(limits::MAX_MIP_LEVELS - 1);
        let depth_at = |l: usize| {
            if volume {
                (b.depth() >> (l - base)).max(1)
            } else {
                b.depth()
            }
        };
        // With a handle (or immutable storage) the level images exist already and are
        // written in place; new level images would change descriptor state.
        let in_place = (base + 1..=q).all(|l| {
            matches!(&t.levels[l], Some(img) if img.format() == b.format()
            && img.depth() == depth_at(l)
            && img.width() == (b.width() >> (l - base)).max(1)
            && img.height() == (b.height() >> (l - base)).max(1))
        });
        if t.has_handle && !in_place {
            return Err(GlError::InvalidOperation("texture has a bindless handle"));
        }
        let flushed = self.flush_raster();
        let mut prev = b;
        let mut new_levels = Vec::new();
        for l in base + 1..=q {
            let img = if volume {
                next_level_3d(&prev)
            } else {
                // Array layers and cube faces are each filtered on their own.
                pixels::next_level(&prev)
            };
            let img = Arc::new(img);
            new_levels.push((l, img.clone()));
            prev = img;
        }
        let t = self
            .texture_mut(r)
            .ok_or(GlError::InvalidOperation("no texture"))?;
        for (l, img) in new_levels {
            t.cube_faces[l] = ALL_FACES;
            t.compressed[l] = None;
            match &t.levels[l] {
                Some(existing) if in_place => {
                    existing.write_bytes_flushed(&flushed, 0, &img.to_bytes())
                }
                _ => t.levels[l] = Some(img),
            }
        }
        if !in_place {
            self.texture_changed(r);
        }
        Ok(())
    }

    fn tex_parameter(&mut self, target: u32, pname: u32, p: Param, vector: bool) -> GlResult<()> {
        let r = self.bound_texture(target)?;
        self.tex_parameter_of(r, pname, p, vector)
    }

    /// glTexParameter* of the texture `r` (bound, or named by a glTextureParameter* call).
    fn tex_parameter_of(&mut self, r: TexRef, pname: u32, p: Param, vector: bool) -> GlResult<()> {
        let t = self.texture_for_state_change_of(r)?;
        // GL 4.5 core §8.10: multisample textures take no sampler state.
        if t.kind().is_multisample()
            && matches!(
                pname,
                gl::TEXTURE_MIN_FILTER
                    | gl::TEXTURE_MAG_FILTER
                    | gl::TEXTURE_WRAP_S
                    | gl::TEXTURE_WRAP_T
                    | gl::TEXTURE_WRAP_R
                    | gl::TEXTURE_BORDER_COLOR
                    | gl::TEXTURE_MIN_LOD
                    | gl::TEXTURE_MAX_LOD
                    | gl::TEXTURE_LOD_BIAS
                    | gl::TEXTURE_COMPARE_MODE
                    | gl::TEXTURE_COMPARE_FUNC
            )
        {
            return Err(GlError::BadEnum(
                "sampler state of a multisample texture",
                pname,
            ));
        }
        let mut state = t.state;
        let rect = t.kind() == TexKind::Rect;
        // GL 4.5 core §8.10: rectangle textures take no repeating or mirroring wraps
        // (REPEAT, MIRRORED_REPEAT, MIRROR_CLAMP_TO_EDGE) and no mipmap minification
        // (INVALID_ENUM).
        if rect && p.len() > 0 {
            let e = p.e();
            let wraps = matches!(
                pname,
                gl::TEXTURE_WRAP_S | gl::TEXTURE_WRAP_T | gl::TEXTURE_WRAP_R
            );
            if (wraps
                && matches!(
                    e,
                    gl::REPEAT | gl::MIRRORED_REPEAT | gl::MIRROR_CLAMP_TO_EDGE
                ))
                || (pname == gl::TEXTURE_MIN_FILTER && !matches!(e, gl::NEAREST | gl::LINEAR))
            {
                return Err(GlError::BadEnum("rectangle texture parameter value", e));
            }
        }
        if !apply_sampler_param(&mut state, pname, &p, vector)? {
            if p.len() == 0 {
                return Err(GlError::InvalidValue("no value"));
            }
            match pname {
                gl::TEXTURE_BASE_LEVEL | gl::TEXTURE_MAX_LEVEL => {
                    let v = p.i();
                    if v < 0 {
                        return Err(GlError::InvalidValue("level must not be negative"));
                    }
                    // GL 4.5 core §8.10: a rectangle texture's base level is 0.
                    if rect && pname == gl::TEXTURE_BASE_LEVEL && v != 0 {
                        return Err(GlError::InvalidOperation(
                            "a rectangle texture's base level must be 0",
                        ));
                    }
                    if pname == gl::TEXTURE_BASE_LEVEL {
                        t.base_level = v;
                    } else {
                        t.max_level = v;
                    }
                }
                // GL 4.5 core §8.10, table 8.26: texture swizzle (texture state only).
                gl::TEXTURE_SWIZZLE_R
                | gl::TEXTURE_SWIZZLE_G
                | gl::TEXTURE_SWIZZLE_B
                | gl::TEXTURE_SWIZZLE_A => {
                    let code = swizzle_code(p.e())?;
                    state.swizzle[(pname - gl::TEXTURE_SWIZZLE_R) as usize] = code;
                }
                gl::TEXTURE_SWIZZLE_RGBA => {
                    if !vector {
                        return Err(GlError::InvalidEnum(
                            "GL_TEXTURE_SWIZZLE_RGBA needs the vector form",
                        ));
                    }
                    if p.len() < 4 {
                        return Err(GlError::InvalidValue(
                            "GL_TEXTURE_SWIZZLE_RGBA needs 4 values",
                        ));
                    }
                    let mut sw = [0u8; 4];
                    for (c, slot) in sw.iter_mut().enumerate() {
                        let e = match &p {
                            Param::Int(v) | Param::PureInt(v) => v[c] as u32,
                            Param::PureUint(v) => v[c],
                            Param::Float(v) => v[c].round_ties_even() as i64 as u32,
                        };
                        *slot = swizzle_code(e)?;
                    }
                    state.swizzle = sw;
                }
                // GL 4.5 core §8.10: which component of a depth/stencil texture is sampled.
                // softgl samples depth only; STENCIL_INDEX is valid GL it cannot do yet.
                gl::DEPTH_STENCIL_TEXTURE_MODE => {
                    match p.e() {
                        gl::DEPTH_COMPONENT => {}
                        gl::STENCIL_INDEX => return Err(GlError::InvalidOperation(
                            "GL_DEPTH_STENCIL_TEXTURE_MODE GL_STENCIL_INDEX is not supported by \
                             softgl yet (stencil textures cannot be sampled)",
                        )),
                        e => return Err(GlError::BadEnum("depth stencil texture mode", e)),
                    }
                }
                _ => return Err(GlError::BadEnum("texture parameter", pname)),
            }
        }
        t.state = state;
        self.texture_changed(r);
        Ok(())
    }

    /// glTextureParameter*: glTexParameter* of the texture named `texture` (DSA).
    fn texture_parameter(
        &mut self,
        texture: u32,
        pname: u32,
        p: Param,
        vector: bool,
    ) -> GlResult<()> {
        let r = self.dsa_texture_any(texture)?;
        self.tex_parameter_of(r, pname, p, vector)
    }
    pub(crate) fn try_texture_parameter_i(
        &mut self,
        texture: u32,
        pname: u32,
        param: i32,
    ) -> GlResult<()> {
        self.texture_parameter(texture, pname, Param::Int(&[param]), false)
    }
    pub(crate) fn try_texture_parameter_f(
        &mut self,
        texture: u32,
        pname: u32,
        param: f32,
    ) -> GlResult<()> {
        self.texture_parameter(texture, pname, Param::Float(&[param]), false)
    }
    pub(crate) fn try_texture_parameter_iv(
        &mut self,
        texture: u32,
        pname: u32,
        params: &[i32],
    ) -> GlResult<()> {
        self.texture_parameter(texture, pname, Param::Int(params), true)
    }
    pub(crate) fn try_texture_parameter_fv(
        &mut self,
        texture: u32,
        pname: u32,
        params: &[f32],
    ) -> GlResult<()> {
        self.texture_parameter(texture, pname, Param::Float(params), true)
    }
    pub(crate) fn try_texture_parameter_iiv(
        &mut self,
        texture: u32,
        pname: u32,
        params: &[i32],
    ) -> GlResult<()> {
        self.texture_parameter(texture, pname, Param::PureInt(params), true)
    }
    pub(crate) fn try_texture_parameter_iuiv(
        &mut self,
        texture: u32,
        pname: u32,
        params: &[u32],
    ) -> GlResult<()> {
        self.texture_parameter(texture, pname, Param::PureUint(params), true)
    }
    pub(crate) fn try_tex_parameter_i(
        &mut self,
        target: u32,
        pname: u32,
        param: i32,
    ) -> GlResult<()> {
        self.tex_parameter(target, pname, Param::Int(&[param]), false)
    }
    pub(crate) fn try_tex_parameter_f(
        &mut self,
        target: u32,
        pname: u32,
        param: f32,
    ) -> GlResult<()> {
        self.tex_parameter(target, pname, Param::Float(&[param]), false)
    }
    pub(crate) fn try_tex_parameter_iv(
        &mut self,
        target: u32,
        pname: u32,
        params: &[i32],
    ) -> GlResult<()> {
        self.tex_parameter(target, pname, Param::Int(params), true)
    }
    pub(crate) fn try_tex_parameter_fv(
        &mut self,
        target: u32,
        pname: u32,
        params: &[f32],
    ) -> GlResult<()> {
        self.tex_parameter(target, pname, Param::Float(params), true)
    }

    /// glGetTexParameter*'s value of the bound texture (GL 4.5 core §8.11.2).
    fn tex_param_value(&self, target: u32, pname: u32) -> GlResult<ParamValue> {
        let r = self.bound_texture(target)?;
        self.tex_param_value_of(r, pname)
    }

    /// glGetTex(ture)Parameter*'s value of the texture `r`.
    pub(crate) fn tex_param_value_of(&self, r: TexRef, pname: u32) -> GlResult<ParamValue> {
        let t = self
            .texture(r)
            .ok_or(GlError::InvalidOperation("no texture"))?;
        if let Some(v) = sampler_param_value(&t.state, pname) {
            return Ok(v);
        }
        if pname == gl::TEXTURE_SWIZZLE_RGBA {
            let e = t.state.swizzle.map(|c| swizzle_enum(c) as i32);
            return Ok(ParamValue::Ints(e));
        }
        Ok(ParamValue::Int(match pname {
            gl::TEXTURE_SWIZZLE_R
            | gl::TEXTURE_SWIZZLE_G
            | gl::TEXTURE_SWIZZLE_B
            | gl::TEXTURE_SWIZZLE_A => {
                swizzle_enum(t.state.swizzle[(pname - gl::TEXTURE_SWIZZLE_R) as usize]) as i32
            }
            gl::TEXTURE_BASE_LEVEL => t.base_level,
            gl::TEXTURE_MAX_LEVEL => t.max_level,
            gl::TEXTURE_IMMUTABLE_FORMAT => t.immutable as i32,
            gl::TEXTURE_IMMUTABLE_LEVELS => t.immutable_levels,
            gl::TEXTURE_VIEW_MIN_LEVEL => t.view_range().min_level as i32,
            gl::TEXTURE_VIEW_NUM_LEVELS => t.view_range().num_levels as i32,
            gl::TEXTURE_VIEW_MIN_LAYER => t.view_range().min_layer as i32,
            gl::TEXTURE_VIEW_NUM_LAYERS => t.view_range().num_layers as i32,
            gl::DEPTH_STENCIL_TEXTURE_MODE => gl::DEPTH_COMPONENT as i32,
            // GL 4.5 core §8.26.1 (table 23.15): image units match formats by size for
            // every texture here (`api::image_unit`).
            gl::IMAGE_FORMAT_COMPATIBILITY_TYPE => gl::IMAGE_FORMAT_COMPATIBILITY_BY_SIZE as i32,
            _ => return Err(GlError::BadEnum("texture parameter", pname)),
        }))
    }

    /// glGetTexParameteriv's first value (the only one but for GL_TEXTURE_BORDER_COLOR).
    pub(crate) fn try_get_tex_parameteriv(&mut self, target: u32, pname: u32) -> GlResult<i32> {
        self.try_get_tex_parameteriv_all(target, pname)
            .map(|v| v[0])
    }

    pub(crate) fn try_get_tex_parameteriv_all(
        &mut self,
        target: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        self.tex_param_value(target, pname)
            .map(|v| param_ints(v, false))
    }

    pub(crate) fn try_get_tex_parameterfv(
        &mut self,
        target: u32,
        pname: u32,
    ) -> GlResult<Vec<f32>> {
        self.tex_param_value(target, pname).map(param_floats)
    }

    /// glGetSamplerParameter*'s value (GL 4.5 core §8.2): INVALID_OPERATION for a name that
    /// is not a sampler, INVALID_ENUM for a pname that is not sampler state.
    fn sampler_value(&self, sampler: u32, pname: u32) -> GlResult<ParamValue> {
        let s = self
            .objs
            .samplers
            .get(SamplerName(sampler))
            .ok_or(GlError::InvalidOperation("not a sampler"))?;
        sampler_param_value(&s.state, pname).ok_or(GlError::BadEnum("sampler parameter", pname))
    }

    pub(crate) fn try_get_sampler_parameteriv(
        &mut self,
        sampler: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        self.sampler_value(sampler, pname)
            .map(|v| param_ints(v, false))
    }

    pub(crate) fn try_get_sampler_parameterfv(
        &mut self,
        sampler: u32,
        pname: u32,
    ) -> GlResult<Vec<f32>> {
        self.sampler_value(sampler, pname).map(param_floats)
    }

    pub(crate) fn try_get_sampler_parameter_iiv(
        &mut self,
        sampler: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        self.sampler_value(sampler, pname)
            .map(|v| param_ints(v, true))
    }

    pub(crate) fn try_get_sampler_parameter_iuiv(
        &mut self,
        sampler: u32,
        pname: u32,
    ) -> GlResult<Vec<u32>> {
        self.sampler_value(sampler, pname)
            .map(|v| param_ints(v, true).into_iter().map(|i| i as u32).collect())
    }

    pub(crate) fn try_get_tex_parameter_iiv(
        &mut self,
        target: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        self.tex_param_value(target, pname)
            .map(|v| param_ints(v, true))
    }

    pub(crate) fn try_get_tex_parameter_iuiv(
        &mut self,
        target: u32,
        pname: u32,
    ) -> GlResult<Vec<u32>> {
        self.tex_param_value(target, pname)
            .map(|v| param_ints(v, true).into_iter().map(|i| i as u32).collect())
    }

    pub(crate) fn try_tex_parameter_iiv(
        &mut self,
        target: u32,
        pname: u32,
        params: &[i32],
    ) -> GlResult<()> {
        self.tex_parameter(target, pname, Param::PureInt(params), true)
    }

    pub(crate) fn try_tex_parameter_iuiv(
        &mut self,
        target: u32,
        pname: u32,
        params: &[u32],
    ) -> GlResult<()> {
        self.tex_parameter(target, pname, Param::PureUint(params), true)
    }

    pub(crate) fn try_sampler_parameter_iiv(
        &mut self,
        sampler: u32,
        pname: u32,
        params: &[i32],
    ) -> GlResult<()> {
        self.sampler_parameter(sampler, pname, Param::PureInt(params), true)
    }

    pub(crate) fn try_sampler_parameter_iuiv(
        &mut self,
        sampler: u32,
        pname: u32,
        params: &[u32],
    ) -> GlResult<()> {
        self.sampler_parameter(sampler, pname, Param::PureUint(params), true)
    }

    pub(crate) fn try_get_tex_level_parameteriv(
        &self,
        target: u32,
        level: i32,
        pname: u32,
    ) -> GlResult<i32> {
        if crate::api::proxy::proxy_kind(target).is_some() {
            let l = Self::check_level(level)?;
            return self.proxy_level_parameter(target, l, pname);
        }
        let r = self.bound_texture(target)?;
        self.level_parameter_of(r, target, level, pname)
    }

    /// glGetTex(ture)LevelParameteriv of level `level` of the texture `r`, bound to (or
    /// made for) `target`; a cube map face target reports that face.
    pub(crate) fn level_parameter_of(
        &self,
        r: TexRef,
        target: u32,
        level: i32,
        pname: u32,
    ) -> GlResult<i32> {
        let l = Self::check_level(level)?;
        let img = self.texture(r).and_then(|t| t.levels[l].clone());
        let f = self.texture(r).and_then(|t| t.level_format(l));
        // A 1D array's height is its layer count (its levels are stored as one-row layers).
        let one_d_array = target == gl::TEXTURE_1D_ARRAY;
        Ok(match pname {
            gl::TEXTURE_WIDTH => img.map_or(0, |i| i.width() as i32),
            gl::TEXTURE_HEIGHT if one_d_array => img.map_or(0, |i| i.depth() as i32),
            gl::TEXTURE_DEPTH if one_d_array => img.map_or(0, |_| 1),
            gl::TEXTURE_HEIGHT => img.map_or(0, |i| i.height() as i32),
            gl::TEXTURE_BUFFER_OFFSET
            | gl::TEXTURE_BUFFER_SIZE
            | gl::TEXTURE_BUFFER_DATA_STORE_BINDING => {
                let b = self.texture(r).and_then(|t| t.buffer.clone());
                match pname {
                    gl::TEXTURE_BUFFER_OFFSET => b.map_or(0, |b| b.offset as i32),
                    gl::TEXTURE_BUFFER_SIZE => b.map_or(0, |b| {
                        let len = self.objs.buffers.get(b.name).map_or(0, |x| x.data.len());
                        b.size.unwrap_or(len) as i32
                    }),
                    _ => b.map_or(0, |b| b.name.0 as i32),
                }
            }
            // A buffer texture's format is glTexBuffer's (R8 before it, GL 4.5 core table
            // 23.17).
            gl::TEXTURE_INTERNAL_FORMAT if target == gl::TEXTURE_BUFFER => {
                self.texture(r).map_or(gl::R8, |t| t.buffer_format_or_r8()) as i32
            }
            // Layers of a 2D array level, 1 for a 2D level, 0 with no image; never
            // compressed or multisampled.
            gl::TEXTURE_DEPTH if cube_face_of(target).is_some() => img.map_or(0, |_| 1),
            gl::TEXTURE_DEPTH => img.map_or(0, |i| i.depth() as i32),
            gl::TEXTURE_COMPRESSED_IMAGE_SIZE => {
                self.compressed_image_size(r, l, cube_face_of(target).is_some())?
            }
            // Multisample textures (`api::multisample`); other levels have 0 samples and
            // fixed locations.
            gl::TEXTURE_SAMPLES => self.texture(r).map_or(0, |t| t.samples as i32),
            gl::TEXTURE_FIXED_SAMPLE_LOCATIONS => self
                .texture(r)
                .map_or(1, |t| t.fixed_sample_locations as i32),
            pname => format_level_parameter(f, pname)?,
        })
    }

    // ---- sampler objects (GL 4.5 core §8.2) ----

    pub(crate) fn try_gen_samplers(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.try_create_samplers(n)
    }

    pub(crate) fn try_create_samplers(&mut self, n: i32) -> GlResult<Vec<u32>> {
        self.make_names(n, |this, n| {
            this.objs.samplers.create_many(n, SamplerObject::default)
        })
    }

    /// glIsSampler.
    pub fn is_sampler(&self, sampler: u32) -> bool {
        self.read_group(|o| o.samplers.get(SamplerName(sampler)).is_some())
    }

    pub(crate) fn try_bind_sampler(&mut self, unit: u32, sampler: u32) -> GlResult<()> {
        if unit >= limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS {
            return Err(GlError::InvalidValue("texture unit"));
        }
        let s = if sampler == 0 {
            None
        } else if self.objs.samplers.get(SamplerName(sampler)).is_some() {
            Some(SamplerName(sampler))
        } else {
            return Err(GlError::InvalidOperation("not a sampler name"));
        };
        self.sampler_units[unit as usize] = s;
        Ok(())
    }

    pub(crate) fn try_delete_samplers(&mut self, samplers: &[u32]) -> GlResult<()> {
        for &s in samplers {
            let name = SamplerName(s);
            if self.objs.samplers.get(name).is_none() {
                continue;
            }
            for u in &mut self.sampler_units {
                if *u == Some(name) {
                    *u = None;
                }
            }
            self.free_sampler_handles(name);
            // Internal descriptors made with self sampler are dead too.
            let mut stale = Vec::new();
            let all = self
                .objs
                .textures
                .iter_mut()
                .map(|(_, t)| t)
                .chain([&mut self.default_texture]);
            for t in all {
                t.internal.retain(|i| {
                    let keep = i.0 != Some(name);
                    if !keep {
                        stale.push(i.3);
                    }
                    keep
                });
            }
            self.retired_descriptors.extend(stale);
            self.objs.samplers.remove(name);
        }
        Ok(())
    }

    fn sampler_parameter(
        &mut self,
        sampler: u32,
        pname: u32,
        p: Param,
        vector: bool,
    ) -> GlResult<()> {
        let s = self
            .objs
            .samplers
            .get_mut(SamplerName(sampler))
            .ok_or(GlError::InvalidOperation("not a sampler"))?;
        if s.has_handle {
            return Err(GlError::InvalidOperation(
                "sampler is used by a bindless handle",
            ));
        }
        let mut state = s.state;
        if !apply_sampler_param(&mut state, pname, &p, vector)? {
            return Err(GlError::BadEnum("sampler parameter", pname));
        }
        s.state = state;
        s.version += 1;
        Ok(())
    }

    pub(crate) fn try_sampler_parameter_i(
        &mut self,
        sampler: u32,
        pname: u32,
        param: i32,
    ) -> GlResult<()> {
        self.sampler_parameter(sampler, pname, Param::Int(&[param]), false)
    }
    pub(crate) fn try_sampler_parameter_f(
        &mut self,
        sampler: u32,
        pname: u32,
        param: f32,
    ) -> GlResult<()> {
        self.sampler_parameter(sampler, pname, Param::Float(&[param]), false)
    }
    pub(crate) fn try_sampler_parameter_iv(
        &mut self,
        sampler: u32,
        pname: u32,
        params: &[i32],
    ) -> GlResult<()> {
        self.sampler_parameter(sampler, pname, Param::Int(params), true)
    }
    pub(crate) fn try_sampler_parameter_fv(
        &mut self,
        sampler: u32,
        pname: u32,
        params: &[f32],
    ) -> GlResult<()> {
        self.sampler_parameter(sampler, pname, Param::Float(params), true)
    }

    /// The image of a texture level, for framebuffer attachments.
    pub(crate) fn texture_level_image(
        &self,
        name: TextureName,
        level: usize,
    ) -> Option<Arc<Image>> {
        self.objs.textures.get(name)?.levels.get(level)?.clone()
    }
}

/// Whether a storage format can be a colour attachment (GL 4.5 core table 8.12): every
/// colour format, integer ones included (`raster::ops::pack_int`), but the signed
/// normalized ones (table 8.12 does not mark them colour-renderable).
pub(crate) fn color_renderable(f: Format) -> bool {
    !f.is_depth() && !matches!(f, Format::Snorm(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Context;

    /// A copy of texture `t` as the share group holds it.
    fn shared_texture(c: &mut Context, t: u32) -> Texture {
        c.with_group(|c| c.objs.textures.get(TextureName(t)).cloned())
            .expect("a live texture")
    }

    pub(crate) fn upload_rgba(c: &mut Context, w: i32, h: i32) {
        let data = vec![200u8; (w * h * 4) as usize];
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            w,
            h,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&data),
        );
    }

    #[test]
    fn tex_image_validation_and_completeness() {
        let mut c = Context::with_threads(4, 4, 1);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::RGBA, t);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.bind_texture(gl::TEXTURE_2D, t);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            4,
            4,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        );
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "border");
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            0x1234,
            4,
            4,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        );
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "internal format");
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            4,
            4,
            0,
            gl::RGBA,
            0x1234,
            None,
        );
        assert_eq!(c.get_error(), gl::INVALID_ENUM, "type");
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8 as i32,
            4,
            4,
            0,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&[0; 3]),
        );
        assert_eq!(c.get_error(), gl::INVALID_VALUE, "short data");
        upload_rgba(&mut c, 4, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let tex = shared_texture(&mut c, t);
        // The default min filter needs mipmaps: incomplete until they exist.
        assert!(!tex.is_complete(&tex.state));
        let linear = SamplerState {
            min_filter: MinFilter::Linear,
            ..tex.state
        };
        assert!(tex.is_complete(&linear));
        c.generate_mipmap(gl::TEXTURE_2D);
        let tex = shared_texture(&mut c, t);
        assert!(tex.is_complete(&tex.state));
        assert_eq!(tex.levels[2].as_ref().unwrap().width(), 1);
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::LINEAR as i32);
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_BASE_LEVEL, -1);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_WRAP_S, gl::LINEAR as i32);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.tex_parameter_f(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, 1.0);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        assert_eq!(
            c.get_tex_parameteriv(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER),
            gl::LINEAR as i32
        );
        c.tex_sub_image_2d(
            gl::TEXTURE_2D,
            0,
            3,
            3,
            2,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            &[0; 8],
        );
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.tex_sub_image_2d(
            gl::TEXTURE_2D,
            0,
            2,
            3,
            2,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            &[9; 8],
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let img = shared_texture(&mut c, t).levels[0].clone().unwrap();
        assert_eq!(img.to_bytes()[(3 * 4 + 2) * 4], 9);
    }

    #[test]
    fn level_parameters_report_sizes_and_types() {
        let mut c = Context::with_threads(4, 4, 1);
        let t = c.gen_textures(1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        let q = |c: &mut Context, level, p| c.get_tex_level_parameteriv(gl::TEXTURE_2D, level, p);
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGB565 as i32,
            2,
            2,
            0,
            gl::RGB,
            gl::UNSIGNED_BYTE,
            None,
        );
        c.tex_image_2d(
            gl::TEXTURE_2D,
            1,
            gl::RG16F as i32,
            1,
            1,
            0,
            gl::RG,
            gl::FLOAT,
            None,
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        assert_eq!(
            [
                gl::TEXTURE_RED_SIZE,
                gl::TEXTURE_GREEN_SIZE,
                gl::TEXTURE_BLUE_SIZE,
                gl::TEXTURE_ALPHA_SIZE
            ]
            .map(|p| q(&mut c, 0, p)),
            [5, 6, 5, 0]
        );
        assert_eq!(
            q(&mut c, 0, gl::TEXTURE_RED_TYPE),
            gl::UNSIGNED_NORMALIZED as i32
        );
        assert_eq!(
            q(&mut c, 0, gl::TEXTURE_ALPHA_TYPE),
            gl::NONE as i32,
            "no alpha"
        );
        assert_eq!(q(&mut c, 1, gl::TEXTURE_GREEN_SIZE), 16);
        assert_eq!(q(&mut c, 1, gl::TEXTURE_GREEN_TYPE), gl::FLOAT as i32);
        assert_eq!(q(&mut c, 1, gl::TEXTURE_BLUE_SIZE), 0);
        assert_eq!(
            [gl::TEXTURE_DEPTH, gl::TEXTURE_COMPRESSED].map(|p| q(&mut c, 1, p)),
            [1, 0]
        );
        // A level with no image: zeros.
        assert_eq!(
            [gl::TEXTURE_RED_SIZE, gl::TEXTURE_DEPTH].map(|p| q(&mut c, 2, p)),
            [0, 0]
        );
        c.tex_image_2d(
            gl::TEXTURE_2D,
            3,
            gl::DEPTH24_STENCIL8 as i32,
            1,
            1,
            0,
            gl::DEPTH_STENCIL,
            gl::UNSIGNED_INT_24_8,
            None,
        );
        assert_eq!(
            [
                gl::TEXTURE_DEPTH_SIZE,
                gl::TEXTURE_STENCIL_SIZE,
                gl::TEXTURE_DEPTH_TYPE
            ]
            .map(|p| q(&mut c, 3, p)),
            [24, 8, gl::UNSIGNED_NORMALIZED as i32]
        );
        assert_eq!(c.get_error(), gl::NO_ERROR);
        q(&mut c, 0, gl::TEXTURE_MIN_FILTER);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
    }

    #[test]
    fn tex_storage_is_immutable() {
        let mut c = Context::with_threads(4, 4, 1);
        let t = c.create_textures(gl::TEXTURE_2D, 1)[0];
        c.bind_texture(gl::TEXTURE_2D, t);
        c.tex_storage_2d(gl::TEXTURE_2D, 4, gl::RGBA8, 4, 4);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION, "4x4 has 3 levels");
        c.tex_storage_2d(gl::TEXTURE_2D, 3, gl::RGBA, 4, 4);
        assert_eq!(c.get_error(), gl::INVALID_ENUM, "unsized");
        c.tex_storage_2d(gl::TEXTURE_2D, 3, gl::RGBA8, 4, 4);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        upload_rgba(&mut c, 4, 4);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        let tex = shared_texture(&mut c, t);
        assert!(tex.is_complete(&tex.state));
        // One level of storage is mipmap-complete: the level range clamps to it (§8.17).
        let t1 = c.create_textures(gl::TEXTURE_2D, 1)[0];
        c.bind_texture(gl::TEXTURE_2D, t1);
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4);
        let tex = shared_texture(&mut c, t1);
        assert!(tex.is_complete(&tex.state));
        assert_eq!(tex.view().max_level, 0);
    }

    #[test]
    fn samplers_and_units() {
        let mut c = Context::with_threads(4, 4, 1);
        let s = c.gen_samplers(1)[0];
        assert!(c.is_sampler(s));
        let units = c.get_integerv(gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS)[0] as u32;
        c.bind_sampler(units, s);
        assert_eq!(c.get_error(), gl::INVALID_VALUE);
        c.bind_sampler(0, s + 100);
        assert_eq!(c.get_error(), gl::INVALID_OPERATION);
        c.sampler_parameter_i(s, gl::TEXTURE_BASE_LEVEL, 0);
        assert_eq!(c.get_error(), gl::INVALID_ENUM, "not sampler state");
        c.sampler_parameter_fv(s, gl::TEXTURE_BORDER_COLOR, &[1.0, 0.0, 0.0, 1.0]);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        let units = c.get_integerv(gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS)[0] as u32;
        c.active_texture(gl::TEXTURE0 + units - 1);
        assert_eq!(c.get_error(), gl::NO_ERROR);
        c.active_texture(gl::TEXTURE0 + units);
        assert_eq!(c.get_error(), gl::INVALID_ENUM);
        c.delete_samplers(&[s]);
        assert!(!c.is_sampler(s));
    }
}
