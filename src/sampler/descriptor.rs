//! The descriptor: the fixed-size, `#[repr(C)]` record a bindless handle names (DESIGN.md
//! §4). It holds raw level pointers and sizes, the sampler state in the form the filter
//! routines want, and the routines themselves, chosen once from the format and the filter
//! state when the handle is created (ARB_bindless_texture makes that state immutable, so
//! the choice never goes stale). Building one from a `TextureView` lives here too; the
//! table that stores descriptors is `table.rs`, the routines are `filter.rs`.
//!
//! ```text
//!  Descriptor (repr C, Copy; 16 levels × 16 B + state + 3 fn pointers)
//!  ┌ levels[0..16]: { ptr, width, height } (absolute level index; null beyond the chain)
//!  ├ base_level, mip_last (q for filtering), fetch_last (last level texelFetch may read)
//!  ├ wrap_s, wrap_t, border[4] (fitted to the format), min_lod, max_lod, lod_bias,
//!  │ compare_func (read by the depth-comparison routine when compare mode is on)
//!  ├ layers (1 but for 2D arrays), texel_bytes
//!  └ sample, fetch, size, layer_sample: fn pointers
//! ```
//!
//! A 2D array texture's level is `layers` images one after another. Its `sample` is
//! `filter::sample_array`, which picks each lane's layer and runs `layer_sample` (the 2D
//! routine of the format and filters) on a copy of the descriptor whose level pointers
//! point at that layer (`at_layer`): every 2D path (the quad path, `filter8`, the depth
//! comparison) serves arrays unchanged.

use std::sync::Arc;

use super::filter;
use super::format::{fit_to_format, int_border};
use super::image::{Format, Image};
use super::mipmap::{is_complete, max_mip_level, mip_size};
use super::{SamplerState, TexKind, TextureView, SWIZZLE_ONE};

/// The swizzle that changes nothing.
const IDENTITY: [u8; 4] = [0, 1, 2, 3];
pub(crate) use crate::gl::Wrap;
use crate::sampler::request::{TexRequest, TexResult};

/// Levels a descriptor can address: 0..16 covers 32768² textures (MAX_TEXTURE_SIZE is at
/// most 16384, 15 levels).
pub const MAX_LEVELS: usize = 16;

/// Largest |texture bias + shader bias| (GL 4.5 core eq. 8.6, MAX_TEXTURE_LOD_BIAS; the
/// API reports this value).
pub const MAX_TEXTURE_LOD_BIAS: f32 = 16.0;

/// One level's storage: `depth` layers (array layers, cube faces or 3D slices) of
/// `width` × `height` texels of the descriptor's format, rows packed.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub(crate) struct LevelLayout {
    pub ptr: *const u8,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
}

impl LevelLayout {
    pub(crate) const EMPTY: LevelLayout = LevelLayout {
        ptr: std::ptr::null(),
        width: 0,
        height: 0,
        depth: 0,
    };
}

/// Filtered sample (implicit or explicit LOD, per `req.op`) for the lanes in the mask
/// (bits 0..3), written to `out[component][lane]` as f32 bits.
pub(crate) type SampleFn = fn(&Descriptor, &TexRequest, u32, &mut TexResult);
/// texelFetch at integer (x, y) of level base + lod; zeros when out of range.
pub(crate) type FetchFn = fn(&Descriptor, i32, i32, i32) -> [f32; 4];
/// textureSize of level base + lod; zeros when out of range.
pub(crate) type SizeFn = fn(&Descriptor, i32) -> [i32; 2];

/// A descriptor (see the module docs). Plain data: the table keeps the images it points to
/// alive for as long as any reader can reach it.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct Descriptor {
    pub(crate) levels: [LevelLayout; MAX_LEVELS],
    pub(crate) base_level: u32,
    /// Last level filtering uses ("q", GL 4.5 core §8.14.3); the base for non-mipmap filters.
    pub(crate) mip_last: u32,
    /// Last level of the consistent chain: what texelFetch may read.
    pub(crate) fetch_last: u32,
    pub(crate) wrap_s: Wrap,
    pub(crate) wrap_t: Wrap,
    /// The r wrap of 3D textures (unused by the other kinds).
    pub(crate) wrap_r: Wrap,
    /// What the levels are: 2D, 2D array, cube map or 3D (`TexKind`).
    pub(crate) kind: TexKind,
    /// Internal handles (bound texture units) need no residency.
    pub(crate) internal: u16,
    /// The min filter's mipmap mode (0 none, 1 NEAREST, 2 LINEAR: `filter::min_filter_mode`),
    /// for textureQueryLod; the routines have it in their type.
    pub(crate) mip_mode: u16,
    pub(crate) border: [f32; 4],
    pub(crate) min_lod: f32,
    pub(crate) max_lod: f32,
    pub(crate) lod_bias: f32,
    /// GL_TEXTURE_COMPARE_FUNC as its GL enum, read by the depth-comparison routine (which
    /// `sample` is when compare mode is on, GL 4.5 core §8.23).
    pub(crate) compare_func: u32,
    /// Layers of every level: 1 unless this is a 2D array texture.
    pub(crate) layers: u32,
    /// Bytes per texel of the format (for the layer offsets).
    pub(crate) texel_bytes: u32,
    /// GL_TEXTURE_SWIZZLE_* (`SamplerState::swizzle`), applied to every sample and fetch.
    pub(crate) swizzle: [u8; 4],
    /// The bits GL_ONE swizzles in: 1.0, or integer 1 for integer formats.
    pub(crate) one: u32,
    pub(crate) sample: SampleFn,
    pub(crate) fetch: FetchFn,
    pub(crate) size: SizeFn,
    /// The 2D routine `sample_array` runs on one layer (= `sample` for non-arrays).
    pub(crate) layer_sample: SampleFn,
}

// Fixed size (DESIGN.md §4): 16 levels × 24 B, 112 B of state, 4 pointers.
const _: () = assert!(std::mem::size_of::<Descriptor>() == 496);

impl Descriptor {
    /// A descriptor that samples (0, 0, 0, 1), fetches zeros and has size 0: the state of
    /// unused slots, and what an incomplete texture samples as (GL 4.5 core §11.1.3.5).
    /// Integer formats sample (0, 0, 0, 1) as integers.
    pub(crate) fn incomplete(size: [u32; 2], internal: bool, integer: bool) -> Descriptor {
        let mut levels = [LevelLayout::EMPTY; MAX_LEVELS];
        levels[0].width = size[0];
        levels[0].height = size[1];
        Descriptor {
            levels,
            base_level: 0,
            mip_last: 0,
            fetch_last: 0,
            wrap_s: Wrap::Repeat,
            wrap_t: Wrap::Repeat,
            wrap_r: Wrap::Repeat,
            kind: TexKind::D2,
            internal: internal as u16,
            mip_mode: 0,
            border: [0.0; 4],
            min_lod: 0.0,
            max_lod: 0.0,
            lod_bias: 0.0,
            compare_func: 0,
            layers: 1,
            texel_bytes: 0,
            swizzle: IDENTITY,
            one: 0,
            sample: if integer {
                filter::sample_incomplete_int
            } else {
                filter::sample_incomplete
            },
            fetch: if integer {
                filter::fetch_incomplete_int
            } else {
                filter::fetch_incomplete
            },
            size: filter::size_of_level,
            layer_sample: filter::sample_incomplete,
        }
    }

    /// This descriptor with every level pointer moved to layer `layer` (< `layers`) of its
    /// level: a 2D descriptor of that layer.
    #[inline]
    pub(crate) fn at_layer(&self, layer: u32) -> Descriptor {
        debug_assert!(layer < self.layers);
        let mut d = *self;
        for lv in d.levels.iter_mut().filter(|lv| !lv.ptr.is_null()) {
            let off = layer as usize * lv.width as usize * lv.height as usize;
            // SAFETY: each level's image holds `layers` layers of width × height texels
            // (`build` checked every level's depth), so layer `layer` < `layers` starts
            // inside it; nothing is read here.
            lv.ptr = unsafe { lv.ptr.add(off * self.texel_bytes as usize) };
        }
        d
    }

    /// A 3D texture's slice `z` of level base + `lod` as a 2D descriptor whose only level
    /// is that slice (at its own index, so `fetch` finds it), or `None` when the level or
    /// the slice is out of range (texelFetch then reads zeros).
    pub(crate) fn at_slice(&self, z: i32, lod: i32) -> Option<Descriptor> {
        let level = (self.base_level as i64).checked_add(lod as i64)?;
        if lod < 0 || level > self.fetch_last as i64 || level >= MAX_LEVELS as i64 {
            return None;
        }
        let lv = self.levels[level as usize];
        if z < 0 || z as u32 >= lv.depth || lv.ptr.is_null() {
            return None;
        }
        let mut d = *self;
        let off = z as usize * lv.width as usize * lv.height as usize;
        // SAFETY: the level holds `depth` slices of width × height texels (`build` checked
        // its depth) and z < depth, so slice z starts inside it; nothing is read here.
        d.levels[level as usize].ptr = unsafe { lv.ptr.add(off * self.texel_bytes as usize) };
        Some(d)
    }

    /// The depth of level base + `lod` of a 3D texture (eq. 8.12), 0 out of range.
    pub(crate) fn depth_at(&self, lod: i32) -> u32 {
        let base = self.levels[(self.base_level as usize).min(MAX_LEVELS - 1)];
        if !(0..32).contains(&lod) {
            return 0;
        }
        (base.depth >> lod).max(1)
    }

    /// Builds the descriptor of `view` sampled with `state`, and the images it points into
    /// (which the caller keeps alive as long as the descriptor is reachable). Incomplete
    /// textures get `Descriptor::incomplete`.
    pub(crate) fn build(
        view: &TextureView,
        state: &SamplerState,
        internal: bool,
    ) -> (Descriptor, Vec<Arc<Image>>) {
        let base_level = view.base_level as usize;
        let base = match view.levels.get(base_level) {
            Some(Some(img)) => img.clone(),
            _ => return (Descriptor::incomplete([0, 0], internal, false), Vec::new()),
        };
        let format = base.format();
        if view.kind.is_multisample() {
            return Self::build_multisample(view, &base, internal);
        }
        if base_level >= MAX_LEVELS || !is_complete(view, state) {
            return (
                Descriptor::incomplete(
                    [base.width(), base.height()],
                    internal,
                    format.is_integer(),
                ),
                Vec::new(),
            );
        }
        let kind = view.kind;
        // 1D kinds have no t (GL 4.5 core §8.14.2 uses only u): t = ½ on a one-row level
        // clamped to its edge reads that row with weight 1 whatever TEXTURE_WRAP_T says.
        // A buffer texture has no sampler state (GL 4.5 core §8.9): one level, NEAREST.
        let mut state = *state;
        if kind == TexKind::Buffer {
            state.min_filter = crate::gl::MinFilter::Nearest;
            state.mag_filter = crate::gl::MagFilter::Nearest;
        }
        let state = &SamplerState {
            wrap_t: if kind.is_1d() {
                Wrap::ClampToEdge
            } else {
                state.wrap_t
            },
            ..state
        };
        let (bw, bh, bd) = (base.width(), base.height(), base.depth().max(1));
        // Array layers and cube faces (the `layers` of `at_layer`); a 3D texture's slices
        // are each level's `depth` instead.
        let layers = if kind == TexKind::D3 { 1 } else { bd };
        // The consistent chain from the base: levels present with the halved size and the
        // base's format, up to max_level, the full chain and MAX_LEVELS. A 3D texture's
        // chain also halves (and ends with) its depth.
        let chain = if kind == TexKind::D3 {
            max_mip_level(bw.max(bd), bh)
        } else {
            max_mip_level(bw, bh)
        };
        let p = (base_level + chain as usize)
            .min(view.max_level as usize)
            .min(MAX_LEVELS - 1);
        let mut levels = [LevelLayout::EMPTY; MAX_LEVELS];
        let mut keep = Vec::new();
        let mut fetch_last = base_level;
        for (level, slot) in levels.iter_mut().enumerate().take(p + 1).skip(base_level) {
            let Some(Some(img)) = view.levels.get(level) else {
                break;
            };
            let (w, h) = mip_size(bw, bh, (level - base_level) as u32);
            if img.width() != w || img.height() != h || img.format() != format {
                break;
            }
            let want_depth = if kind == TexKind::D3 {
                (bd >> (level - base_level)).max(1)
            } else {
                layers
            };
            if img.depth() != want_depth {
                break;
            }
            // SAFETY: (0, 0) is inside the image (w, h ≥ 1), so this is the start of its
            // texel storage; nothing is read or written here.
            let ptr = unsafe { img.texel_ptr(0, 0) } as *const u8;
            *slot = LevelLayout {
                ptr,
                width: w,
                height: h,
                depth: want_depth,
            };
            keep.push(img.clone());
            fetch_last = level;
        }
        // Completeness guarantees base..=q is inside the consistent chain.
        let mip_last = if state.min_filter.uses_mipmaps() {
            fetch_last
        } else {
            base_level
        };
        let sample = match kind {
            TexKind::Cube | TexKind::CubeArray => filter::select_cube(format, state),
            TexKind::D3 => filter::select_volume(format, state),
            TexKind::Buffer => filter::sample_incomplete,
            TexKind::D2
            | TexKind::D2Array
            | TexKind::D1
            | TexKind::D1Array
            | TexKind::Rect
            | TexKind::D2Multisample
            | TexKind::D2MultisampleArray => filter::select_sample(
                format,
                state.mag_filter,
                state.min_filter,
                (state.wrap_s, state.wrap_t),
                [bw, bh],
                state.compare_mode,
            ),
        };
        let desc = Descriptor {
            levels,
            base_level: base_level as u32,
            mip_last: mip_last as u32,
            fetch_last: fetch_last as u32,
            wrap_s: state.wrap_s,
            wrap_t: state.wrap_t,
            wrap_r: state.wrap_r,
            kind,
            internal: internal as u16,
            mip_mode: filter::min_filter_mode(state.min_filter).1 as u16,
            border: match format {
                Format::Int(f) => int_border(f, state.border_int, state.border_color),
                Format::Rgb10A2ui => int_border(
                    super::format::RGBA32UI,
                    state.border_int,
                    state.border_color,
                ),
                _ => fit_to_format(format, state.border_color),
            },
            min_lod: state.min_lod,
            max_lod: state.max_lod,
            lod_bias: state.lod_bias,
            compare_func: state.compare_func.to_gl(),
            layers,
            texel_bytes: format.bytes_per_texel() as u32,
            swizzle: state.swizzle,
            one: if format.is_integer() {
                1
            } else {
                1.0f32.to_bits()
            },
            sample: match kind {
                TexKind::CubeArray => filter::sample_cube_array,
                TexKind::Rect => filter::sample_rect,
                TexKind::Cube => sample,
                _ if layers > 1 => filter::sample_array,
                _ => sample,
            },
            fetch: filter::select_fetch(format),
            size: filter::size_of_level,
            layer_sample: sample,
        };
        (desc, keep)
    }

    /// The descriptor of a multisample texture (`TexKind::D2Multisample`): `levels[s]` is
    /// sample s (`view.levels[s]`, each `base`'s size, format and layers), `fetch_last` the
    /// last sample. Only texelFetch and textureSize reach it (GLSL has no filtered lookup of
    /// a multisample sampler), and sampler state does not apply (GL 4.5 core §8.10), so
    /// `sample` returns the incomplete texture's (0, 0, 0, 1).
    fn build_multisample(
        view: &TextureView,
        base: &Arc<Image>,
        internal: bool,
    ) -> (Descriptor, Vec<Arc<Image>>) {
        let format = base.format();
        let mut d =
            Descriptor::incomplete([base.width(), base.height()], internal, format.is_integer());
        let mut keep = Vec::new();
        for (s, img) in view.levels.iter().take(MAX_LEVELS).enumerate() {
            let Some(img) = img else { break };
            if img.width() != base.width()
                || img.height() != base.height()
                || img.depth() != base.depth()
                || img.format() != format
                || img.width() == 0
                || img.height() == 0
            {
                break;
            }
            // SAFETY: (0, 0) is inside the image (its sizes are ≥ 1, checked above), so
            // this is the start of its texel storage; nothing is read or written here.
            let ptr = unsafe { img.texel_ptr(0, 0) } as *const u8;
            d.levels[s] = LevelLayout {
                ptr,
                width: img.width(),
                height: img.height(),
                depth: img.depth().max(1),
            };
            d.fetch_last = s as u32;
            keep.push(img.clone());
        }
        if keep.is_empty() {
            return (d, Vec::new());
        }
        d.kind = view.kind;
        d.layers = base.depth().max(1);
        d.texel_bytes = format.bytes_per_texel() as u32;
        d.one = if format.is_integer() {
            1
        } else {
            1.0f32.to_bits()
        };
        d.fetch = filter::select_fetch(format);
        (d, keep)
    }

    /// Applies the swizzle to the lanes in `lanes` of `out` (GL 4.5 core §15.2.1: after
    /// filtering, border and depth comparison included). Identity costs one compare.
    #[inline]
    pub(crate) fn apply_swizzle(&self, lanes: u32, out: &mut TexResult) {
        if self.swizzle == IDENTITY {
            return;
        }
        for lane in (0..4).filter(|l| lanes & (1 << l) != 0) {
            let v = [out[0][lane], out[1][lane], out[2][lane], out[3][lane]];
            for (c, &s) in self.swizzle.iter().enumerate() {
                out[c][lane] = match s {
                    0..=3 => v[s as usize],
                    SWIZZLE_ONE => self.one,
                    _ => 0,
                };
            }
        }
    }

    /// Whether `internal` was set at creation.
    pub(crate) fn is_internal(&self) -> bool {
        self.internal != 0
    }
}
