//! Differential tests of fragment variants: random keys (stencil state × depth state ×
//! colour state) × random shader outputs, coverage, facing, depths, stencil values and
//! destination texels through a variant and through the Rust reference
//! (`raster::ops`, in the order `raster::tile` applies it), equal bit for bit (NaN payloads
//! aside).

// Lane loops index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;

use smallvec::SmallVec;

use super::abi::{
    BlockEdge, FragBlock, FragEnv, FragQuad, Invocation, ShaderEnv, SplatPlane,
    MAX_COLOR_ATTACHMENTS,
};
use super::fragment::{
    self, BlendKey, ColorKey, DepthFormat, DepthKey, FragmentKey, FragmentVariant, VaryingKey,
};
use super::ShaderCode;
use crate::gl::{BlendEquation, BlendFactor, CompareFunc, StencilOp};
use crate::ir::*;
use crate::raster::draw::{BlendState, StencilFace, StencilState};
use crate::raster::fixed::{self, Edge, ONE};
use crate::raster::ops::{self, PreparedBlend};
use crate::raster::setup::Plane;
use crate::raster::tile::{self, FragCoordMap, QuadSite};
use crate::sampler::{Format, IntFormat};

/// Rows the test shader copies from its inputs to its outputs; input row `ROWS` holds the
/// discard flags.
const ROWS: u32 = 9;

/// A fragment shader that writes input row r to output row r for r < ROWS and discards
/// the lanes whose input row ROWS is not zero.
fn copy_shader() -> Arc<dyn ShaderCode> {
    let mut f = Function::default();
    let mut body = Vec::new();
    let mut outputs = Vec::new();
    let var = |f: &mut Function, k: ScalarKind| {
        f.vars.push(k);
        Var(f.vars.len() as u32 - 1)
    };
    for r in 0..ROWS {
        let v = var(&mut f, ScalarKind::U32);
        body.push(Stmt::Assign {
            dst: v,
            op: Op::Input(r),
        });
        outputs.push(v);
    }
    let flag = var(&mut f, ScalarKind::U32);
    body.push(Stmt::Assign {
        dst: flag,
        op: Op::Input(ROWS),
    });
    let zero = var(&mut f, ScalarKind::U32);
    body.push(Stmt::Assign {
        dst: zero,
        op: Op::Const(Scalar::U32(0)),
    });
    let cond = var(&mut f, ScalarKind::Bool);
    body.push(Stmt::Assign {
        dst: cond,
        op: Op::Binary(BinaryOp::INe, flag, zero),
    });
    body.push(Stmt::If {
        cond,
        then_body: vec![Stmt::Discard],
        else_body: vec![],
    });
    f.body = body;
    f.outputs = outputs;
    let m = Module {
        stage: Stage::Fragment,
        version: 450,
        func: f,
        inputs: vec![],
        outputs: vec![],
        uniforms: vec![],
        uniform_words: 0,
        blocks: vec![],
        storage_blocks: vec![],
        uses_discard: true,
        writes_depth: false,
        early_fragment_tests: false,
        frag_coord_origin_upper_left: false,
        frag_coord_pixel_center_integer: false,
        global_bindless_sampler: false,
        global_bound_sampler: false,
        local_size: [0; 3],
        shared_bytes: 0,
        geometry: Default::default(),
        xfb: Default::default(),
        tess: Default::default(),
        subroutines: Default::default(),
    };
    super::compile_uncached(&m).expect("test shader compiles")
}

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bool(&mut self) -> bool {
        self.next() & 1 == 1
    }
    /// Floats that hit the edges: exact 0/1, signed zeros, NaN, infinities, values just
    /// inside and outside [0, 1], unorm rounding midpoints, random bits.
    fn float(&mut self) -> f32 {
        const SPECIAL: [f32; 14] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            2.0,
            1e-30,
            0.999_999_9,
            1.000_000_1,
            0.5 / 255.0,
            1e-45,
        ];
        // Integers at the edges of the integer formats' ranges, as bits (what ivec4/uvec4
        // outputs hold), for integer attachments.
        const INTS: [i32; 16] = [
            0,
            1,
            -1,
            127,
            128,
            -128,
            -129,
            255,
            256,
            32767,
            32768,
            -32768,
            -32769,
            65535,
            65536,
            i32::MIN,
        ];
        match self.below(9) {
            8 => f32::from_bits(INTS[self.below(INTS.len() as u64) as usize] as u32),
            0 | 1 => SPECIAL[self.below(SPECIAL.len() as u64) as usize],
            2 => f32::from_bits(self.next() as u32),
            // Unorm midpoints: k / 255 ± 1/510.
            3 => (self.below(256) as f32 + 0.5) / 255.0,
            _ => (self.below(1 << 20) as f32 / (1 << 20) as f32) * 1.6 - 0.3,
        }
    }
}

const COLOR_FORMATS: [Format; 7] = [
    Format::Rgba8,
    Format::Srgb8Alpha8,
    Format::R8,
    Format::Rg8,
    Format::Rgba16F,
    Format::Rgba32F,
    Format::R32F,
];

const FACTORS: &[BlendFactor] = BlendFactor::ALL;

const EQUATIONS: &[BlendEquation] = BlendEquation::ALL;

const DEPTH_FUNCS: &[CompareFunc] = CompareFunc::ALL;

const INTERPOLATIONS: [Interpolation; 3] = [
    Interpolation::Smooth,
    Interpolation::Flat,
    Interpolation::NoPerspective,
];

/// The builtins the block entry fills.
const FRAG_BUILTINS: [Builtin; 5] = [
    Builtin::FragCoordX,
    Builtin::FragCoordY,
    Builtin::FragCoordZ,
    Builtin::FragCoordW,
    Builtin::FrontFacing,
];

/// One attachment of a random case: its key and the reference's prepared blend.
struct Attachment {
    key: ColorKey,
    blend: Option<PreparedBlend>,
}

/// A random stencil face: every function and operation, references and masks at their
/// edges (0, 255, nibbles) and random.
fn random_face(rng: &mut Rng) -> StencilFace {
    let byte = |rng: &mut Rng| match rng.below(4) {
        0 => 0xFF,
        1 => 0x00,
        2 => 0x0F,
        _ => rng.next() as u8,
    };
    StencilFace {
        func: DEPTH_FUNCS[rng.below(8) as usize],
        sfail: StencilOp::ALL[rng.below(8) as usize],
        dpfail: StencilOp::ALL[rng.below(8) as usize],
        dppass: StencilOp::ALL[rng.below(8) as usize],
        reference: byte(rng),
        value_mask: if rng.bool() { 0xFF } else { byte(rng) },
        write_mask: if rng.bool() { 0xFF } else { byte(rng) },
    }
}

/// A random stencil state: one face in four cases, front and back equal in a third of them
/// (one code path for both faces) and different in the rest.
fn random_stencil(rng: &mut Rng) -> Option<StencilState> {
    (rng.below(4) == 0).then(|| {
        let front = random_face(rng);
        let back = if rng.below(3) == 0 {
            front
        } else {
            random_face(rng)
        };
        StencilState { front, back }
    })
}

/// `FragEnv::stencil` for `stencil` (zeros without one).
fn zs_env(stencil: Option<&StencilState>) -> [[u32; 4]; 2] {
    stencil.map_or([[0; 4]; 2], |s| {
        [tile::stencil_env(&s.front), tile::stencil_env(&s.back)]
    })
}

fn random_key(
    rng: &mut Rng,
    shader: usize,
) -> (FragmentKey, Vec<Attachment>, Option<StencilState>) {
    let stencil = random_stencil(rng);
    let depth = (rng.below(4) != 0).then(|| DepthKey {
        // Stencil lives in D24S8 texels only.
        format: if rng.bool() || stencil.is_some() {
            DepthFormat::D24S8
        } else {
            DepthFormat::D32F
        },
        func: DEPTH_FUNCS[rng.below(8) as usize],
        write: rng.below(4) != 0,
    });
    let n = 1 + rng.below(3) as usize;
    let mut atts = Vec::new();
    for index in 0..n {
        // One in four attachments is an integer one (they never blend: `tile::DrawShared`).
        let format = if rng.below(4) == 0 {
            Format::Int(IntFormat::ALL[rng.below(24) as usize])
        } else {
            COLOR_FORMATS[rng.below(COLOR_FORMATS.len() as u64) as usize]
        };
        let mask = if rng.below(3) == 0 {
            [rng.bool(), rng.bool(), rng.bool(), rng.bool()]
        } else {
            [true; 4]
        };
        // GL_FRAMEBUFFER_SRGB on half the sRGB attachments; a logic op (which replaces
        // blending) on one in five unorm or integer ones.
        let srgb = format == Format::Srgb8Alpha8 && rng.bool();
        let logic_op = (rng.below(5) == 0 && (format.is_integer() || ops::is_unorm(format)))
            .then(|| rng.below(16) as u8);
        let blend = (rng.below(4) != 0 && !format.is_integer() && logic_op.is_none()).then(|| {
            let state = BlendState {
                enabled: true,
                src_rgb: FACTORS[rng.below(FACTORS.len() as u64) as usize],
                dst_rgb: FACTORS[rng.below(FACTORS.len() as u64) as usize],
                src_alpha: FACTORS[rng.below(FACTORS.len() as u64) as usize],
                dst_alpha: FACTORS[rng.below(FACTORS.len() as u64) as usize],
                eq_rgb: EQUATIONS[rng.below(5) as usize],
                eq_alpha: EQUATIONS[rng.below(5) as usize],
                color: [rng.float(), rng.float(), rng.float(), rng.float()],
            };
            PreparedBlend::new(&state, ops::is_unorm(format))
        });
        let key = ColorKey {
            format,
            // Up to 3 rows past the shader's: those read as 0.0.
            slot: rng.below(ROWS as u64) as u32,
            mask,
            blend: blend.map(|b| {
                let (src, dst, eq) = b.indices();
                BlendKey { src, dst, eq }
            }),
            index: index as u8,
            srgb,
            logic_op,
            // Dual-source blending: the index-1 colour from any row (past the shader's
            // read as 0.0), or none at all (zeros) in one case in four.
            src1_slot: blend
                .filter(|b| b.uses_src1() && rng.below(4) != 0)
                .map(|_| rng.below(ROWS as u64) as u32),
        };
        atts.push(Attachment { key, blend });
    }
    let key = FragmentKey {
        shader,
        early_depth: rng.bool(),
        depth,
        stencil: stencil.as_ref().map(tile::stencil_key),
        frag_depth_row: rng.bool().then(|| rng.below(ROWS as u64) as u32),
        colors: atts.iter().map(|a| a.key).collect::<SmallVec<_>>(),
        // Plane k feeds input row (k + rot) mod (ROWS + 1), so plane and row differ; the
        // discard row's plane gives small integers (`check_block`).
        varyings: {
            let rot = rng.below(ROWS as u64 + 1) as u32;
            (0..=ROWS)
                .map(|k| {
                    let row = (k + rot) % (ROWS + 1);
                    let interp = if row == ROWS {
                        Interpolation::NoPerspective
                    } else {
                        INTERPOLATIONS[rng.below(3) as usize]
                    };
                    VaryingKey {
                        plane: k,
                        row,
                        interp,
                    }
                })
                .collect()
        },
        builtins: if rng.below(4) == 0 {
            0
        } else {
            FRAG_BUILTINS
                .iter()
                .filter(|_| rng.bool())
                .fold(0, |m, b| m | 1 << b.index())
        },
    };
    (key, atts, stencil)
}

/// `tile::depth_stencil_test` on one texel: `ops::depth_stencil` with the key's depth test
/// and the face `front` picks (the depth-only path keeps its own copy, `ref_depth`).
fn ref_zs(
    key: &FragmentKey,
    stencil: Option<&StencilState>,
    front: bool,
    t: &mut [u8; 4],
    z: f32,
) -> bool {
    let Some(s) = stencil.filter(|_| key.stencil.is_some()) else {
        return match key.depth {
            Some(d) => ref_depth(d, t, z),
            None => true,
        };
    };
    let depth = key.depth.map(|d| ops::DepthTest {
        format: Format::Depth24Stencil8,
        func: d.func,
        write: d.write,
    });
    let face = if front { &s.front } else { &s.back };
    let (word, pass) = ops::depth_stencil(u32::from_le_bytes(*t), depth, Some(face), z);
    *t = word.to_le_bytes();
    pass
}

/// Whether the key tests a depth/stencil texel.
fn has_zs(key: &FragmentKey) -> bool {
    key.depth.is_some() || key.stencil.is_some()
}

/// The format of the key's depth/stencil texels.
fn zs_format(key: &FragmentKey) -> Format {
    match key.depth.map(|d| d.format) {
        Some(DepthFormat::D32F) => Format::Depth32F,
        _ => Format::Depth24Stencil8,
    }
}

/// A depth/stencil texel for a lane with window z `z`: `random_depth`, with the stencil byte
/// set near a face's reference in half the cases when the key has a stencil test (so that
/// EQUAL and the ties of LEQUAL/GEQUAL get hit).
fn random_zs(rng: &mut Rng, key: &FragmentKey, stencil: Option<&StencilState>, z: f32) -> [u8; 4] {
    let format = key.depth.map_or(DepthFormat::D24S8, |d| d.format);
    let t = random_depth(rng, format, z);
    match stencil.filter(|_| key.stencil.is_some() && rng.bool()) {
        Some(s) => {
            let r = if rng.bool() { s.front } else { s.back }.reference;
            let v = r.wrapping_add(rng.below(3) as u8).wrapping_sub(1);
            let mut t = t;
            t[3] = v;
            t
        }
        None => t,
    }
}

/// `tile::depth_test` on one texel.
fn ref_depth(d: DepthKey, t: &mut [u8; 4], z: f32) -> bool {
    let z = ops::saturate(z);
    let word = u32::from_le_bytes(*t);
    match d.format {
        DepthFormat::D24S8 => {
            let frag = ops::depth_to_d24(z);
            let pass = ops::depth_pass(d.func, frag, word & ops::DEPTH24_MAX);
            if pass && d.write {
                *t = ((word & !ops::DEPTH24_MAX) | frag).to_le_bytes();
            }
            pass
        }
        DepthFormat::D32F => {
            let pass = ops::depth_pass(d.func, z, f32::from_bits(word));
            if pass && d.write {
                *t = z.to_le_bytes();
            }
            pass
        }
    }
}

/// The per-fragment steps of `tile::shade_quad_reference` after the shader ran with
/// `outputs` and `alive`.
#[allow(clippy::too_many_arguments)]
fn reference(
    key: &FragmentKey,
    atts: &[Attachment],
    stencil: Option<&StencilState>,
    front: bool,
    outputs: &[u32],
    alive: u32,
    cover: u32,
    z: [f32; 4],
    depth: &mut [[u8; 4]; 4],
    colors: &mut [[[u8; 16]; 4]],
) -> u32 {
    let mut cover = cover;
    if key.early_depth && has_zs(key) {
        for l in 0..4 {
            if cover & (1 << l) != 0 && !ref_zs(key, stencil, front, &mut depth[l], z[l]) {
                cover &= !(1 << l);
            }
        }
        if cover == 0 {
            return 0;
        }
    }
    let mut live = cover & alive;
    if !key.early_depth && has_zs(key) {
        for l in 0..4 {
            if live & (1 << l) == 0 {
                continue;
            }
            let fz = match (key.depth, key.frag_depth_row) {
                (Some(_), Some(r)) => f32::from_bits(outputs[r as usize * 4 + l]),
                _ => z[l],
            };
            if !ref_zs(key, stencil, front, &mut depth[l], fz) {
                live &= !(1 << l);
            }
        }
    }
    if live == 0 {
        return 0;
    }
    for (a, texels) in atts.iter().zip(colors.iter_mut()) {
        let format = a.key.format;
        let bpp = format.bytes_per_texel();
        for l in 0..4 {
            if live & (1 << l) == 0 {
                continue;
            }
            let t = &mut texels[l][..bpp];
            let src: [f32; 4] = std::array::from_fn(|c| {
                outputs
                    .get((a.key.slot as usize + c) * 4 + l)
                    .map_or(0.0, |&b| f32::from_bits(b))
            });
            let color_ops = ops::ColorOps {
                framebuffer_srgb: a.key.srgb,
                logic_op: a.key.logic_op,
            };
            let src1: [f32; 4] = std::array::from_fn(|c| {
                a.key
                    .src1_slot
                    .and_then(|r| outputs.get((r as usize + c) * 4 + l))
                    .map_or(0.0, |&b| f32::from_bits(b))
            });
            let (blend, mask) = (a.blend.as_ref(), a.key.mask);
            ops::color_and_pack_dual(format, blend, color_ops, src, src1, mask, t);
        }
    }
    live
}

/// Texels equal bit for bit, or both NaN where the format stores floats.
fn same_texel(format: Format, a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    match format {
        Format::Rgba32F | Format::R32F | Format::Depth32F => {
            a.chunks(4).zip(b.chunks(4)).all(|(x, y)| {
                let fx = f32::from_le_bytes([x[0], x[1], x[2], x[3]]);
                let fy = f32::from_le_bytes([y[0], y[1], y[2], y[3]]);
                x == y || (fx.is_nan() && fy.is_nan())
            })
        }
        Format::Rgba16F => a.chunks(2).zip(b.chunks(2)).all(|(x, y)| {
            let fx = half::f16::from_le_bytes([x[0], x[1]]);
            let fy = half::f16::from_le_bytes([y[0], y[1]]);
            x == y || (fx.is_nan() && fy.is_nan())
        }),
        _ => false,
    }
}

fn random_texel(rng: &mut Rng, format: Format) -> [u8; 16] {
    let mut t = [0u8; 16];
    if rng.bool() {
        for b in &mut t {
            *b = rng.next() as u8;
        }
    } else {
        let c = [rng.float(), rng.float(), rng.float(), rng.float()];
        ops::pack_color(format, c, [true; 4], &mut t[..format.bytes_per_texel()]);
    }
    t
}

fn random_depth(rng: &mut Rng, format: DepthFormat, z: f32) -> [u8; 4] {
    match (rng.below(3), format) {
        // The fragment's own value, so EQUAL and the ties of LEQUAL/GEQUAL get hit.
        (0, DepthFormat::D24S8) => {
            let st = (rng.next() as u32) << 24;
            (st | ops::depth_to_d24(ops::saturate(z))).to_le_bytes()
        }
        (0, DepthFormat::D32F) => ops::saturate(z).to_le_bytes(),
        (1, DepthFormat::D32F) => rng.float().to_le_bytes(),
        _ => (rng.next() as u32).to_le_bytes(),
    }
}

/// Runs one random quad through `v` and the reference; panics with the case on mismatch.
/// Returns how many texels (depth and colour) the reference changed, so callers can check
/// that their cases do write.
fn check_quad(
    rng: &mut Rng,
    shader: &Arc<dyn ShaderCode>,
    v: &FragmentVariant,
    atts: &[Attachment],
    stencil: Option<&StencilState>,
) -> usize {
    let key = v.key();
    let rows = v.output_rows() as usize;
    let in_words = shader.input_words() as usize;
    assert_eq!(in_words, ROWS as usize + 1);
    let mut inputs = vec![0u32; in_words * 4];
    for w in inputs.iter_mut().take(ROWS as usize * 4) {
        *w = rng.float().to_bits();
    }
    for l in 0..4 {
        inputs[ROWS as usize * 4 + l] = (rng.below(5) == 0) as u32;
    }
    let builtins = [0u32; Builtin::COUNT * 4];
    let cover = 1 + rng.below(15) as u32;
    let z: [f32; 4] = std::array::from_fn(|_| rng.float());
    let front = rng.bool();
    let mut depth: [[u8; 4]; 4] = std::array::from_fn(|l| {
        if has_zs(key) {
            random_zs(rng, key, stencil, z[l])
        } else {
            [0; 4]
        }
    });
    let mut colors: Vec<[[u8; 16]; 4]> = atts
        .iter()
        .map(|a| std::array::from_fn(|_| random_texel(rng, a.key.format)))
        .collect();
    let shader_env = ShaderEnv {
        uniforms: std::ptr::null(),
        uniform_words: 0,
        blocks: std::ptr::null(),
        block_count: 0,
        storage: std::ptr::null(),
        storage_count: 0,
        sampler: std::ptr::null(),
        loop_trips: std::ptr::null(),
        loop_budget: crate::ir::interp::loop_budget(),
    };

    // Reference: the same shader code through `ShaderCode::call`, then `ops`.
    let mut ref_out = vec![0u32; rows * 4];
    let mut inv = Invocation {
        inputs: inputs.as_ptr(),
        outputs: ref_out.as_mut_ptr(),
        builtins: builtins.as_ptr(),
        mask: 0xF,
    };
    // SAFETY: buffers sized for the shader (inputs checked above, outputs ≥ its rows); no
    // uniforms, blocks or textures are read by this shader.
    let alive = unsafe { shader.call(&shader_env, &mut inv) };
    let mut ref_depth = depth;
    let mut ref_colors = colors.clone();
    let ref_written = reference(
        key,
        atts,
        stencil,
        front,
        &ref_out,
        alive,
        cover,
        z,
        &mut ref_depth,
        &mut ref_colors,
    );

    let changed = (0..4).filter(|&l| ref_depth[l] != depth[l]).count()
        + (0..atts.len())
            .map(|i| (0..4).filter(|&l| ref_colors[i][l] != colors[i][l]).count())
            .sum::<usize>();

    // Variant.
    let mut out = vec![0u32; rows * 4];
    let mut fenv = FragEnv {
        shader_env: &shader_env,
        blend_color: [[0.0; 4]; MAX_COLOR_ATTACHMENTS],
        blend_color_unorm8: [[0; 4]; MAX_COLOR_ATTACHMENTS],
        frag_coord: [0.5, 1.0, 0.5, 0.0],
        stencil: [[0; 4]; 2],
    };
    fenv.stencil = zs_env(stencil);
    for (i, a) in atts.iter().enumerate() {
        if let Some(b) = a.blend {
            fenv.blend_color[i] = b.constant();
            fenv.blend_color_unorm8[i] = b.constant_unorm8();
        }
    }
    let mut quad = FragQuad {
        inv: Invocation {
            inputs: inputs.as_ptr(),
            outputs: out.as_mut_ptr(),
            builtins: builtins.as_ptr(),
            mask: 0xF,
        },
        cover,
        front: 0,
        _pad: [0; 2],
        z,
        depth: [std::ptr::null_mut(); 4],
        color: [[std::ptr::null_mut(); 4]; MAX_COLOR_ATTACHMENTS],
    };
    quad.front = if front { u32::MAX } else { 0 };
    let mut scratch = [0u8; 16];
    for l in 0..4 {
        quad.depth[l] = if has_zs(key) {
            depth[l].as_mut_ptr()
        } else {
            scratch.as_mut_ptr()
        };
        for (i, c) in colors.iter_mut().enumerate() {
            quad.color[i][l] = c[l].as_mut_ptr();
        }
    }
    // SAFETY: every pointer targets a live local of the right size; outputs hold
    // `output_rows` zeroed rows.
    let written = unsafe { v.run(&fenv, &mut quad) };

    let case = || {
        format!(
            "key {key:?}\nstencil {stencil:?} front {front}\ncover {cover:#x} alive {alive:#x} \
             z {z:?}\nref depth {ref_depth:?}\n"
        )
    };
    assert_eq!(written, ref_written, "lanes written\n{}", case());
    if has_zs(key) {
        let f = zs_format(key);
        for l in 0..4 {
            assert!(
                same_texel(f, &depth[l], &ref_depth[l]),
                "depth lane {l}: variant {:?} reference {:?}\n{}",
                depth[l],
                ref_depth[l],
                case()
            );
        }
    }
    for (i, a) in atts.iter().enumerate() {
        let bpp = a.key.format.bytes_per_texel();
        for l in 0..4 {
            assert!(
                same_texel(a.key.format, &colors[i][l][..bpp], &ref_colors[i][l][..bpp]),
                "attachment {i} lane {l}: variant {:?} reference {:?}\nsrc rows {:?}\n{}",
                &colors[i][l][..bpp],
                &ref_colors[i][l][..bpp],
                (0..4)
                    .map(|c| ref_out
                        .get((a.key.slot as usize + c) * 4 + l)
                        .map(|&b| f32::from_bits(b)))
                    .collect::<Vec<_>>(),
                case()
            );
        }
    }
    changed
}

#[test]
fn variants_match_the_reference_ops() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut changed, mut quads) = (0, 0);
    for _ in 0..300 {
        let (key, atts, stencil) = random_key(&mut rng, id);
        let v =
            fragment::compile_uncached(&shader, &key).unwrap_or_else(|e| panic!("{key:?}: {e}"));
        assert!(v.inlined(), "the copy shader is inlined into its variants");
        for _ in 0..24 {
            changed += check_quad(&mut rng, &shader, &v, &atts, stencil.as_ref());
            quads += 1;
        }
    }
    // Not a test of agreement on untouched texels: most quads must write something.
    assert!(changed > quads, "{changed} texels written in {quads} quads");
}

/// Every factor on each side and every equation, for every format, with blending on: the
/// random test reaches them all only by luck.
#[test]
fn every_blend_factor_and_equation() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let mut rng = Rng(7);
    let (mut changed, mut quads, mut paired) = (0, 0, 0);
    // SRGB8_ALPHA8 once more with GL_FRAMEBUFFER_SRGB: blending in f32 on decoded values.
    let cases = COLOR_FORMATS
        .map(|f| (f, false))
        .into_iter()
        .chain([(Format::Srgb8Alpha8, true)]);
    // Each case twice: the alpha equation differs from the RGB one, then equals it (RGBA8
    // then takes the 16-bit pair path, `fragment::pairs_apply`), with random colour masks.
    let cases = cases.flat_map(|c| [(c, false), (c, true)]);
    for ((format, srgb), same_eq) in cases {
        for (fi, &f) in FACTORS.iter().enumerate() {
            for (ei, &eq) in EQUATIONS.iter().enumerate() {
                let (src, dst) = if (fi + ei) % 2 == 0 {
                    (f, FACTORS[(fi * 7 + ei) % FACTORS.len()])
                } else {
                    (FACTORS[(fi * 3 + ei) % FACTORS.len()], f)
                };
                let state = BlendState {
                    enabled: true,
                    src_rgb: src,
                    dst_rgb: dst,
                    src_alpha: dst,
                    dst_alpha: src,
                    eq_rgb: eq,
                    eq_alpha: if same_eq { eq } else { EQUATIONS[(ei + 1) % 5] },
                    color: [0.25, -0.5, 1.5, 0.75],
                };
                let blend = PreparedBlend::new(&state, ops::is_unorm(format));
                let (s, d, e) = blend.indices();
                let mask = match [rng.bool(), rng.bool(), rng.bool(), rng.bool()] {
                    m if same_eq && rng.below(3) == 0 && m.contains(&true) => m,
                    _ => [true; 4],
                };
                let ck = ColorKey {
                    format,
                    slot: 0,
                    mask,
                    blend: Some(BlendKey {
                        src: s,
                        dst: d,
                        eq: e,
                    }),
                    index: 0,
                    srgb,
                    logic_op: None,
                    // SRC1_* factors read rows 4..8, apart from the source's 0..4.
                    src1_slot: blend.uses_src1().then_some(4),
                };
                let key = FragmentKey {
                    shader: id,
                    early_depth: false,
                    depth: None,
                    stencil: None,
                    frag_depth_row: None,
                    colors: [ck].into_iter().collect(),
                    varyings: SmallVec::new(),
                    builtins: 0,
                };
                let v = fragment::compile_uncached(&shader, &key).expect("compiles");
                paired += fragment::pairs_apply(&ck) as u32;
                let atts = [Attachment {
                    key: ck,
                    blend: Some(blend),
                }];
                for _ in 0..8 {
                    changed += check_quad(&mut rng, &shader, &v, &atts, None);
                    quads += 1;
                }
            }
        }
    }
    // Some cases reproduce the old value (ZERO/ONE pairs, MIN/MAX), most do not.
    assert!(changed > quads, "{changed} texels changed in {quads} quads");
    // Every factor and equation went through the pair path too.
    assert_eq!(paired as usize, FACTORS.len() * EQUATIONS.len(), "{paired}");
}

/// Every logic op on every unorm8 and integer format (and sRGB-encoded sources), with
/// colour masks: generated code against `ops::color_and_pack`.
#[test]
fn every_logic_op_on_every_format() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let mut rng = Rng(11);
    let (mut changed, mut quads) = (0, 0);
    let formats = [
        (Format::Rgba8, false),
        (Format::Srgb8Alpha8, false),
        (Format::Srgb8Alpha8, true),
        (Format::R8, false),
        (Format::Rg8, false),
        // Float formats ignore the op (and it turns their blending off).
        (Format::Rgba32F, false),
    ]
    .into_iter()
    .chain(IntFormat::ALL.map(|f| (Format::Int(f), false)));
    for (format, srgb) in formats {
        for op in 0..16u8 {
            let ck = ColorKey {
                format,
                slot: rng.below(ROWS as u64 - 3) as u32,
                mask: if op % 3 == 0 {
                    [true, false, true, false]
                } else {
                    [true; 4]
                },
                blend: None,
                index: 0,
                srgb,
                logic_op: Some(op),
                src1_slot: None,
            };
            let key = FragmentKey {
                shader: id,
                early_depth: false,
                depth: None,
                stencil: None,
                frag_depth_row: None,
                colors: [ck].into_iter().collect(),
                varyings: SmallVec::new(),
                builtins: 0,
            };
            let v = fragment::compile_uncached(&shader, &key).expect("compiles");
            let atts = [Attachment {
                key: ck,
                blend: None,
            }];
            for _ in 0..6 {
                changed += check_quad(&mut rng, &shader, &v, &atts, None);
                quads += 1;
            }
        }
    }
    assert!(changed > quads, "{changed} texels changed in {quads} quads");
}

#[test]
fn cache_shares_variants_and_refuses_foreign_keys() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let key = FragmentKey {
        shader: id,
        early_depth: true,
        depth: Some(DepthKey {
            format: DepthFormat::D24S8,
            func: CompareFunc::Less,
            write: true,
        }),
        stencil: None,
        frag_depth_row: None,
        colors: SmallVec::new(),
        varyings: SmallVec::new(),
        builtins: 0,
    };
    let a = fragment::variant(&shader, &key).expect("compiles");
    let b = fragment::variant(&shader, &key).expect("compiles");
    assert!(Arc::ptr_eq(&a, &b), "equal keys share one variant");
    let wrong = FragmentKey {
        shader: id ^ 1,
        ..key
    };
    assert!(fragment::variant(&shader, &wrong).is_err());
    let interp: Arc<dyn ShaderCode> = Arc::new(super::Interpreted::new(Arc::new(Module {
        stage: Stage::Fragment,
        version: 450,
        func: Function::default(),
        inputs: vec![],
        outputs: vec![],
        uniforms: vec![],
        uniform_words: 0,
        blocks: vec![],
        storage_blocks: vec![],
        uses_discard: false,
        writes_depth: false,
        early_fragment_tests: false,
        frag_coord_origin_upper_left: false,
        frag_coord_pixel_center_integer: false,
        global_bindless_sampler: false,
        global_bound_sampler: false,
        local_size: [0; 3],
        shared_bytes: 0,
        geometry: Default::default(),
        xfb: Default::default(),
        tess: Default::default(),
        subroutines: Default::default(),
    })));
    assert_eq!(fragment::shader_id(&*interp), None);
}

/// The integer conversion of `unorm8_bits` on every rounding edge: for each k, the floats
/// within 16 ulps of (k + 0.5) / 255, the edges of its own steps, a dense stride over
/// [0, 1] and the values outside, through an RGBA8 variant without blending, against the
/// f64 `ops::float_to_unorm`.
#[test]
fn unorm8_conversion_is_exact_at_every_midpoint() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let key = FragmentKey {
        shader: id,
        early_depth: false,
        depth: None,
        stencil: None,
        frag_depth_row: None,
        colors: [ColorKey {
            format: Format::Rgba8,
            slot: 0,
            mask: [true; 4],
            blend: None,
            index: 0,
            srgb: false,
            logic_op: None,
            src1_slot: None,
        }]
        .into_iter()
        .collect(),
        varyings: SmallVec::new(),
        builtins: 0,
    };
    let v = fragment::compile_uncached(&shader, &key).expect("compiles");
    let mut values = Vec::new();
    let near = |values: &mut Vec<f32>, x: f32| {
        for d in -16i32..=16 {
            values.push(f32::from_bits(x.to_bits().wrapping_add_signed(d)));
        }
    };
    for k in 0..255u32 {
        near(&mut values, (k as f32 + 0.5) / 255.0);
    }
    // Where `float_to_unorm8`'s steps change regime: the one value plain truncation of
    // c·2^31 would get wrong (c·2^31 = 4210752.5), 2^−9 and 2^−8 (Y below 2^22 and 2^23),
    // 1 (Y = 2^31, the overflowing conversion), the smallest normal and denormals.
    let lone = (4_210_752.5f64 / 2_147_483_648.0) as f32;
    for x in [lone, 1.0 / 512.0, 1.0 / 256.0, 1.0, f32::MIN_POSITIVE] {
        near(&mut values, x);
    }
    // A dense stride over every f32 in [0, 1] (a prime step, so every mantissa pattern
    // class is hit), and what `saturate` sends there.
    values.extend((0..=1.0f32.to_bits()).step_by(65_521).map(f32::from_bits));
    values.extend([
        -0.0,
        -1.0,
        2.0,
        3e9,
        f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(1),
    ]);
    let shader_env = ShaderEnv {
        uniforms: std::ptr::null(),
        uniform_words: 0,
        blocks: std::ptr::null(),
        block_count: 0,
        storage: std::ptr::null(),
        storage_count: 0,
        sampler: std::ptr::null(),
        loop_trips: std::ptr::null(),
        loop_budget: crate::ir::interp::loop_budget(),
    };
    let fenv = FragEnv {
        shader_env: &shader_env,
        blend_color: [[0.0; 4]; MAX_COLOR_ATTACHMENTS],
        blend_color_unorm8: [[0; 4]; MAX_COLOR_ATTACHMENTS],
        frag_coord: [0.5, 1.0, 0.5, 0.0],
        stencil: [[0; 4]; 2],
    };
    let builtins = [0u32; Builtin::COUNT * 4];
    let mut out = vec![0u32; v.output_rows() as usize * 4];
    // 16 values per quad: 4 components × 4 lanes.
    for chunk in values.chunks(16) {
        let mut inputs = vec![0u32; (ROWS as usize + 1) * 4];
        for (i, x) in chunk.iter().enumerate() {
            inputs[i] = x.to_bits();
        }
        let mut texels = [[0u8; 16]; 4];
        let mut quad = FragQuad {
            inv: Invocation {
                inputs: inputs.as_ptr(),
                outputs: out.as_mut_ptr(),
                builtins: builtins.as_ptr(),
                mask: 0xF,
            },
            cover: 0xF,
            front: 0,
            _pad: [0; 2],
            z: [0.0; 4],
            depth: [std::ptr::null_mut(); 4],
            color: [[std::ptr::null_mut(); 4]; MAX_COLOR_ATTACHMENTS],
        };
        for (l, t) in texels.iter_mut().enumerate() {
            quad.color[0][l] = t.as_mut_ptr();
        }
        // SAFETY: every colour pointer targets a live 16-byte local; the key has no depth;
        // outputs hold `output_rows` zeroed rows; the shader reads no env.
        unsafe { v.run(&fenv, &mut quad) };
        for (i, x) in chunk.iter().enumerate() {
            let (c, l) = (i / 4, i % 4);
            assert_eq!(
                texels[l][c] as u32,
                ops::float_to_unorm(*x, 255),
                "{x:e} ({:#x})",
                x.to_bits()
            );
        }
    }
}

/// The variant's D24 conversion (`depth_to_d24` in f32) against the f64
/// `ops::float_to_unorm(z, 2^24 − 1)`, through the depth write of an ALWAYS test: the
/// floats next to the midpoints `(k + ½)/(2^24 − 1)` of a spread of `k` and of every `k`
/// near ½ and 1 (where `q` crosses 2^23 and 2^24), plus values outside [0, 1] and NaN.
#[test]
fn d24_conversion_is_exact_near_midpoints() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let key = FragmentKey {
        shader: id,
        early_depth: true,
        depth: Some(DepthKey {
            format: DepthFormat::D24S8,
            func: CompareFunc::Always,
            write: true,
        }),
        stencil: None,
        frag_depth_row: None,
        colors: SmallVec::new(),
        varyings: SmallVec::new(),
        builtins: 0,
    };
    let v = fragment::compile_uncached(&shader, &key).expect("compiles");
    const MAX: u32 = ops::DEPTH24_MAX;
    let ks = (0..MAX)
        .step_by(97)
        .chain((1 << 23) - 4096..(1 << 23) + 4096)
        .chain(MAX - 4096..MAX);
    let mut values = vec![-0.0, -1.0, 1.0, 1.5, f32::INFINITY, f32::NAN, 1e-40, 0.0];
    for k in ks {
        let mid = ((k as f64 + 0.5) / MAX as f64) as f32;
        for d in -3i32..=3 {
            values.push(f32::from_bits(mid.to_bits().wrapping_add_signed(d)));
        }
    }
    let shader_env = ShaderEnv {
        uniforms: std::ptr::null(),
        uniform_words: 0,
        blocks: std::ptr::null(),
        block_count: 0,
        storage: std::ptr::null(),
        storage_count: 0,
        sampler: std::ptr::null(),
        loop_trips: std::ptr::null(),
        loop_budget: crate::ir::interp::loop_budget(),
    };
    let fenv = FragEnv {
        shader_env: &shader_env,
        blend_color: [[0.0; 4]; MAX_COLOR_ATTACHMENTS],
        blend_color_unorm8: [[0; 4]; MAX_COLOR_ATTACHMENTS],
        frag_coord: [0.5, 1.0, 0.5, 0.0],
        stencil: [[0; 4]; 2],
    };
    let builtins = [0u32; Builtin::COUNT * 4];
    let inputs = vec![0u32; (ROWS as usize + 1) * 4];
    let mut out = vec![0u32; v.output_rows() as usize * 4];
    for chunk in values.chunks(4) {
        let mut depth = [[0xA5u8; 4]; 4];
        let mut quad = FragQuad {
            inv: Invocation {
                inputs: inputs.as_ptr(),
                outputs: out.as_mut_ptr(),
                builtins: builtins.as_ptr(),
                mask: 0xF,
            },
            cover: (1 << chunk.len()) - 1,
            front: 0,
            _pad: [0; 2],
            z: std::array::from_fn(|l| chunk.get(l).copied().unwrap_or(0.0)),
            depth: [std::ptr::null_mut(); 4],
            color: [[std::ptr::null_mut(); 4]; MAX_COLOR_ATTACHMENTS],
        };
        for (l, t) in depth.iter_mut().enumerate() {
            quad.depth[l] = t.as_mut_ptr();
        }
        // SAFETY: every depth pointer targets a live 4-byte local; the key has no colour
        // attachments; outputs hold `output_rows` zeroed rows; the shader reads no env.
        unsafe { v.run(&fenv, &mut quad) };
        for (l, z) in chunk.iter().enumerate() {
            let word = u32::from_le_bytes(depth[l]);
            assert_eq!(word >> 24, 0xA5, "stencil kept");
            assert_eq!(
                word & MAX,
                ops::float_to_unorm(*z, MAX),
                "{z:e} ({:#x})",
                z.to_bits()
            );
        }
    }
}

/// Texels per row of the test images of `check_block`: more than the block's 4, so the
/// strides are not the block's width.
const BLOCK_IMAGE_W: usize = 5;

/// A random plane: usually gentle slopes around a value in about [-0.3, 1.3], sometimes
/// `Rng::float`'s edge values in every term.
/// The block entry's planes (`FragBlock::planes`): z, 1/w, then the varyings'.
fn splat_planes(z: &Plane, w: &Plane, planes: &[Plane]) -> Vec<SplatPlane> {
    [z, w]
        .into_iter()
        .chain(planes)
        .map(|p| SplatPlane::new([p.a, p.b, p.c]))
        .collect()
}

fn random_plane(rng: &mut Rng) -> Plane {
    if rng.below(4) == 0 {
        return Plane {
            a: rng.float(),
            b: rng.float(),
            c: rng.float(),
        };
    }
    let slope = |rng: &mut Rng| (rng.below(1 << 16) as f32 / (1 << 16) as f32 - 0.5) * 0.2;
    Plane {
        a: slope(rng),
        b: slope(rng),
        c: rng.float(),
    }
}

/// Words equal bit for bit, or both NaN.
fn same_word(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

/// A random edge function for the block at (bx, by) (`fixed::Edge::new` from fixed-point
/// vertices): through a pixel centre of the block or next to it (ties decided by the fill
/// rule) in a small or an axis-aligned direction, towards a vertex anywhere in the snapping
/// range (extreme values and slopes), between two such vertices, or one that every pixel
/// is inside (a=b=0, c >= 0, so a block may keep most of its pixels).
fn random_edge(rng: &mut Rng, bx: i32, by: i32) -> Edge {
    let max = fixed::MAX_WINDOW_COORD as i64 * ONE;
    let far =
        |rng: &mut Rng| -> [i64; 2] { [0, 1].map(|_| rng.below(2 * max as u64 + 1) as i64 - max) };
    let centre = |rng: &mut Rng| -> [i64; 2] {
        let px = (bx + rng.below(6) as i32 - 1) as i64;
        let py = (by + rng.below(6) as i32 - 1) as i64;
        let nudge = |rng: &mut Rng| {
            if rng.below(3) == 0 {
                rng.below(3) as i64 - 1
            } else {
                0
            }
        };
        [
            px * ONE + ONE / 2 + nudge(rng),
            py * ONE + ONE / 2 + nudge(rng),
        ]
    };
    match rng.below(6) {
        0 => Edge::new(far(rng), far(rng)),
        1 => {
            let p0 = centre(rng);
            Edge::new(p0, far(rng))
        }
        2 => Edge {
            a: 0,
            b: 0,
            c: rng.below(3) as i64,
        },
        3 => {
            // Axis-aligned or diagonal, whole pixels: pixel centres fall on the edge.
            let p0 = centre(rng);
            let d = [rng.below(3) as i64 - 1, rng.below(3) as i64 - 1];
            let k = 1 + rng.below(4) as i64;
            Edge::new(p0, [p0[0] + d[0] * k * ONE, p0[1] + d[1] * k * ONE])
        }
        _ => {
            let p0 = centre(rng);
            let d = [0, 1].map(|_| rng.below(1201) as i64 - 600);
            Edge::new(p0, [p0[0] + d[0], p0[1] + d[1]])
        }
    }
}

/// What the block entry leaves in rows it does not write.
const UNWRITTEN: u32 = 0xA5A5_A5A5;

/// Runs one random 4×4 block through `v`'s block entry and, quad by quad, through the
/// reference (`tile::interpolate_quad`, the shader, the per-fragment steps); panics on the
/// first texel, interpolated input or builtin word that differs. With `with_edges` the
/// block is partly covered: the block entry tests three random edges itself
/// (`FragBlock::edges`), the reference keeps the pixels `tile::edge_mask` keeps. Returns
/// how many texels the reference changed, how many quads' interpolation was compared, and
/// the pixels inside the edges (all 16 without them).
fn check_block(
    rng: &mut Rng,
    shader: &Arc<dyn ShaderCode>,
    v: &FragmentVariant,
    atts: &[Attachment],
    stencil: Option<&StencilState>,
    with_edges: bool,
) -> (usize, usize, u16) {
    let key = v.key();
    let rows = v.output_rows() as usize;
    let in_len = shader.input_words() as usize * 4;
    let cover = rng.next() as u16 | (rng.bool() as u16 * 0xFFFF);
    let (dx, dy) = (rng.below(17) as i32 - 8, rng.below(17) as i32 - 8);
    // The triangle: planes in plane order. The discard row's is zero (no lane discards) in
    // three blocks of four; in the others it is a small-integer plane that is zero on a
    // line through a random pixel of the block, so the lanes off the line discard.
    let planes: Vec<Plane> = key
        .varyings
        .iter()
        .map(|vk| {
            if vk.row != ROWS {
                random_plane(rng)
            } else if rng.below(4) != 0 {
                Plane::default()
            } else {
                let (a, b) = (rng.below(3) as i32 - 1, rng.below(3) as i32 - 1);
                let (i, j) = (rng.below(4) as i32, rng.below(4) as i32);
                Plane {
                    a: a as f32,
                    b: b as f32,
                    c: -(a * (dx + i) + b * (dy + j)) as f32,
                }
            }
        })
        .collect();
    let z_plane = random_plane(rng);
    let w_plane = if rng.below(4) == 0 {
        random_plane(rng)
    } else {
        Plane {
            c: 0.25 + rng.float().abs(),
            ..random_plane(rng)
        }
    };
    let (bx, by) = (rng.below(100) as i32, rng.below(100) as i32);
    let origin = [bx - dx, by - dy];
    let edges: Option<[Edge; 3]> =
        with_edges.then(|| std::array::from_fn(|_| random_edge(rng, bx, by)));
    // The pixels the reference shades.
    let inside = edges.map_or(0xFFFF, |e| tile::edge_mask(&e, bx, by));
    let covered = cover & inside;
    let front = rng.bool();
    let frag_coord = FragCoordMap::new(rng.bool(), rng.bool(), 1 + rng.below(200) as u32);
    let quad_at = |q: usize| (bx + (q as i32 & 1) * 2, by + (q as i32 >> 1) * 2);
    let z: [[f32; 4]; 4] = std::array::from_fn(|q| {
        let (x, y) = quad_at(q);
        tile::plane_quad(&z_plane, origin, x, y)
    });
    // The reference's inputs and builtins per quad.
    let mut inputs = vec![0u32; in_len * 4];
    let mut builtins = vec![0u32; Builtin::COUNT * 4 * 4];
    for q in 0..4 {
        let (x, y) = quad_at(q);
        let site = QuadSite {
            x,
            y,
            origin,
            inv_w: w_plane,
            front,
            frag_coord,
        };
        tile::interpolate_quad(
            key.varyings.iter().map(|vk| (vk.row, vk.interp)),
            &planes,
            site,
            &z[q],
            &mut inputs[q * in_len..(q + 1) * in_len],
            &mut builtins[q * Builtin::COUNT * 4..(q + 1) * Builtin::COUNT * 4],
        );
    }
    // Images of 4 rows; pixel (i, j) of the block at texel j * BLOCK_IMAGE_W + i + 1.
    let texel = |i: usize, j: usize| j * BLOCK_IMAGE_W + i + 1;
    let quad_pixel = |q: usize, l: usize| ((q & 1) * 2 + (l & 1), (q >> 1) * 2 + (l >> 1));
    let mut depth = vec![[0u8; 4]; BLOCK_IMAGE_W * 4];
    if has_zs(key) {
        for q in 0..4 {
            for l in 0..4 {
                let (i, j) = quad_pixel(q, l);
                depth[texel(i, j)] = random_zs(rng, key, stencil, z[q][l]);
            }
        }
    }
    let mut colors: Vec<Vec<u8>> = atts
        .iter()
        .map(|a| {
            let bpp = a.key.format.bytes_per_texel();
            (0..BLOCK_IMAGE_W * 4)
                .flat_map(|_| random_texel(rng, a.key.format)[..bpp].to_vec())
                .collect()
        })
        .collect();
    let shader_env = ShaderEnv {
        uniforms: std::ptr::null(),
        uniform_words: 0,
        blocks: std::ptr::null(),
        block_count: 0,
        storage: std::ptr::null(),
        storage_count: 0,
        sampler: std::ptr::null(),
        loop_trips: std::ptr::null(),
        loop_budget: crate::ir::interp::loop_budget(),
    };

    // Reference: quad by quad, as the quad path of the tile loop. `shaded[q]`: the quad
    // must reach the shader (a covered lane, and one left after early depth).
    let mut ref_depth = depth.clone();
    let mut ref_colors = colors.clone();
    let mut ref_out = vec![0u32; rows * 4];
    let mut shaded = [false; 4];
    let mut ref_written = 0;
    let mut nan_src = vec![vec![[false; 4]; BLOCK_IMAGE_W * 4]; atts.len()];
    for q in 0..4 {
        let lanes = (0..4)
            .filter(|&l| {
                let (i, j) = quad_pixel(q, l);
                covered >> (j * 4 + i) & 1 != 0
            })
            .fold(0u32, |m, l| m | 1 << l);
        if lanes == 0 {
            continue;
        }
        shaded[q] = !(key.early_depth && has_zs(key))
            || (0..4).any(|l| {
                let (i, j) = quad_pixel(q, l);
                let mut t = ref_depth[texel(i, j)];
                lanes & (1 << l) != 0 && ref_zs(key, stencil, front, &mut t, z[q][l])
            });
        let mut inv = Invocation {
            inputs: inputs[q * in_len..].as_ptr(),
            outputs: ref_out.as_mut_ptr(),
            builtins: builtins[q * Builtin::COUNT * 4..].as_ptr(),
            mask: 0xF,
        };
        // SAFETY: buffers sized for the shader; it reads no uniforms, blocks or textures.
        let alive = unsafe { shader.call(&shader_env, &mut inv) };
        let mut qd: [[u8; 4]; 4] = std::array::from_fn(|l| {
            let (i, j) = quad_pixel(q, l);
            ref_depth[texel(i, j)]
        });
        let mut qc: Vec<[[u8; 16]; 4]> = atts
            .iter()
            .zip(&ref_colors)
            .map(|(a, img)| {
                let bpp = a.key.format.bytes_per_texel();
                std::array::from_fn(|l| {
                    let (i, j) = quad_pixel(q, l);
                    let mut t = [0u8; 16];
                    t[..bpp].copy_from_slice(&img[texel(i, j) * bpp..][..bpp]);
                    t
                })
            })
            .collect();
        // Integer attachments store the output words' bits, and an interpolated NaN's
        // bits may differ between the block entry and `interpolate_quad` (inputs compare
        // with `same_word`): note where a NaN feeds one.
        for (a, nan) in atts.iter().zip(nan_src.iter_mut()) {
            for l in 0..4 {
                let (i, j) = quad_pixel(q, l);
                for c in 0..4 {
                    let w = ref_out.get((a.key.slot as usize + c) * 4 + l);
                    nan[texel(i, j)][c] = w.is_some_and(|&w| f32::from_bits(w).is_nan());
                }
            }
        }
        ref_written += reference(
            key, atts, stencil, front, &ref_out, alive, lanes, z[q], &mut qd, &mut qc,
        )
        .count_ones();
        for l in 0..4 {
            let (i, j) = quad_pixel(q, l);
            ref_depth[texel(i, j)] = qd[l];
            for ((a, img), t) in atts.iter().zip(ref_colors.iter_mut()).zip(&qc) {
                let bpp = a.key.format.bytes_per_texel();
                img[texel(i, j) * bpp..][..bpp].copy_from_slice(&t[l][..bpp]);
            }
        }
    }
    let changed = (0..depth.len())
        .filter(|&t| depth[t] != ref_depth[t])
        .count()
        + atts
            .iter()
            .enumerate()
            .map(|(c, a)| {
                let bpp = a.key.format.bytes_per_texel();
                (0..BLOCK_IMAGE_W * 4)
                    .filter(|&t| colors[c][t * bpp..][..bpp] != ref_colors[c][t * bpp..][..bpp])
                    .count()
            })
            .sum::<usize>();

    // The block entry, with its own input and builtin rows to fill.
    let mut out = vec![0u32; rows * 4];
    let mut block_inputs = vec![UNWRITTEN; in_len * 4];
    let mut block_builtins = vec![UNWRITTEN; Builtin::COUNT * 4 * 4];
    let mut fenv = FragEnv {
        shader_env: &shader_env,
        blend_color: [[0.0; 4]; MAX_COLOR_ATTACHMENTS],
        blend_color_unorm8: [[0; 4]; MAX_COLOR_ATTACHMENTS],
        frag_coord: frag_coord.to_env(),
        stencil: zs_env(stencil),
    };
    for (i, a) in atts.iter().enumerate() {
        if let Some(b) = a.blend {
            fenv.blend_color[i] = b.constant();
            fenv.blend_color_unorm8[i] = b.constant_unorm8();
        }
    }
    let splat = splat_planes(&z_plane, &w_plane, &planes);
    let mut block = FragBlock {
        inv: Invocation {
            inputs: std::ptr::null(),
            outputs: out.as_mut_ptr(),
            builtins: std::ptr::null(),
            mask: 0xF,
        },
        cover: u64::from(cover),
        front: if front { u32::MAX } else { 0 },
        dx,
        dy,
        x: bx,
        y: by,
        planes: splat.as_ptr(),
        inputs: block_inputs.as_mut_ptr(),
        input_stride: (in_len * 4) as u64,
        builtins: block_builtins.as_mut_ptr(),
        builtin_stride: (Builtin::COUNT * 4 * 4) as u64,
        depth: depth[texel(0, 0)].as_mut_ptr(),
        depth_stride: (BLOCK_IMAGE_W * 4) as i64,
        color: [std::ptr::null_mut(); MAX_COLOR_ATTACHMENTS],
        color_stride: [0; MAX_COLOR_ATTACHMENTS],
        edge_test: edges.is_some() as u32,
        _pad: 0,
        // Garbage when the test is off: the variant must not read them then.
        edges: [BlockEdge {
            c: -1,
            a: -1,
            b: -1,
        }; 3],
    };
    if let Some(e) = &edges {
        block.edges = e.map(|e| BlockEdge {
            c: e.eval(bx, by),
            a: e.a,
            b: e.b,
        });
    }
    for (c, (a, img)) in atts.iter().zip(colors.iter_mut()).enumerate() {
        let bpp = a.key.format.bytes_per_texel();
        block.color[c] = img[texel(0, 0) * bpp..].as_mut_ptr();
        block.color_stride[c] = (BLOCK_IMAGE_W * bpp) as i64;
    }
    // SAFETY: every texel the block addresses lies in the local images above (4 rows of
    // BLOCK_IMAGE_W texels, the block starting at texel 1); inputs and builtins hold 4
    // quads at the strides given, every key row inside them; `planes` holds a plane per
    // key varying; outputs hold `output_rows` zeroed rows.
    let written = unsafe { v.run_block(&fenv, &mut block) };

    let case = || {
        format!(
            "key {key:?}\ncover {cover:#06x} edges {edges:?} covered {covered:#06x} planes {planes:?} z {z_plane:?} w {w_plane:?} \
             d ({dx}, {dy}) at ({bx}, {by}) front {front} {frag_coord:?}\nstencil {stencil:?}\n"
        )
    };
    assert_eq!(
        written,
        ref_written,
        "lanes written (samples passed)\n{}",
        case()
    );
    // Interpolation: a quad that reached the shader has every key row and builtin the
    // reference's; one that did not has none written.
    let mut compared = 0;
    for q in 0..4 {
        let mut words = Vec::new();
        for vk in &key.varyings {
            for l in 0..4 {
                let w = q * in_len + vk.row as usize * 4 + l;
                words.push((format!("input row {}", vk.row), block_inputs[w], inputs[w]));
            }
        }
        for b in FRAG_BUILTINS {
            if key.builtins & (1 << b.index()) == 0 {
                continue;
            }
            for l in 0..4 {
                let w = q * Builtin::COUNT * 4 + b.index() * 4 + l;
                words.push((format!("{b:?}"), block_builtins[w], builtins[w]));
            }
        }
        if shaded[q] {
            compared += 1;
            for (what, got, want) in &words {
                assert!(
                    same_word(*got, *want),
                    "quad {q} {what}: block {got:#x} reference {want:#x}\n{}",
                    case()
                );
            }
        } else {
            for (what, got, _) in &words {
                assert_eq!(*got, UNWRITTEN, "quad {q} {what} written\n{}", case());
            }
        }
    }
    if has_zs(key) {
        let f = zs_format(key);
        for t in 0..depth.len() {
            assert!(
                same_texel(f, &depth[t], &ref_depth[t]),
                "depth texel {t}: block {:?} reference {:?}\n{}",
                depth[t],
                ref_depth[t],
                case()
            );
        }
    }
    for (c, a) in atts.iter().enumerate() {
        let bpp = a.key.format.bytes_per_texel();
        for t in 0..BLOCK_IMAGE_W * 4 {
            let (x, y) = (
                &colors[c][t * bpp..][..bpp],
                &ref_colors[c][t * bpp..][..bpp],
            );
            let nan_ok = match a.key.format {
                Format::Int(f) => {
                    let n = f.bytes as usize;
                    (0..f.channels as usize)
                        .all(|k| nan_src[c][t][k] || x[k * n..][..n] == y[k * n..][..n])
                }
                _ => false,
            };
            assert!(
                nan_ok || same_texel(a.key.format, x, y),
                "attachment {c} texel {t}: block {x:?} reference {y:?}\n{}",
                case()
            );
        }
    }
    (changed, compared, inside)
}

#[test]
fn block_entries_match_the_reference_quad_by_quad() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
    let (mut changed, mut compared, mut blocks) = (0, 0, 0);
    for _ in 0..150 {
        let (key, atts, stencil) = random_key(&mut rng, id);
        let v =
            fragment::compile_uncached(&shader, &key).unwrap_or_else(|e| panic!("{key:?}: {e}"));
        assert!(v.inlined(), "the copy shader is inlined into its variants");
        for _ in 0..8 {
            let with_edges = rng.below(4) == 0;
            let (c, q, _) = check_block(&mut rng, &shader, &v, &atts, stencil.as_ref(), with_edges);
            changed += c;
            compared += q;
            blocks += 1;
        }
    }
    // Most blocks write several texels, and most quads are interpolated.
    assert!(
        changed > blocks * 4,
        "{changed} texels written in {blocks} blocks"
    );
    assert!(
        compared > blocks * 2,
        "{compared} quads interpolated in {blocks} blocks"
    );
}

/// Runs a span of `n` 4×4 blocks (`FragBlock::cover` bits 16k.., `edge_test` bit k) through
/// `v`'s block entry in one call, and the same blocks one call each, on copies of the same
/// random images; panics unless both leave every texel the same and count the same lanes.
/// Returns the texels the span changed.
fn check_span(
    rng: &mut Rng,
    shader: &Arc<dyn ShaderCode>,
    v: &FragmentVariant,
    atts: &[Attachment],
    stencil: Option<&StencilState>,
    n: usize,
) -> usize {
    let key = v.key();
    let rows = v.output_rows() as usize;
    let in_len = shader.input_words() as usize * 4;
    let w = 4 * n + 2;
    // Pixel (i, j) of the span (i in 0..4n) at texel j * w + i + 1.
    let texel = |i: usize, j: usize| j * w + i + 1;
    let (dx, dy) = (rng.below(17) as i32 - 8, rng.below(17) as i32 - 8);
    // The copy shader discards where its discard row is not zero: a zero plane there in
    // most spans, so they draw.
    let planes: Vec<Plane> = key
        .varyings
        .iter()
        .map(|vk| {
            if vk.row != ROWS || rng.below(4) == 0 {
                random_plane(rng)
            } else {
                Plane::default()
            }
        })
        .collect();
    let z_plane = random_plane(rng);
    let w_plane = Plane {
        c: 0.25 + rng.float().abs(),
        ..random_plane(rng)
    };
    let (bx, by) = (rng.below(100) as i32, rng.below(100) as i32);
    let edges: Option<[Edge; 3]> = (rng.below(3) != 0)
        .then(|| std::array::from_fn(|_| random_edge(rng, bx + 2 * n as i32, by)));
    let mut cover = 0u64;
    let mut partial = 0u32;
    for k in 0..n {
        let m = match rng.below(4) {
            0 => 0,
            1 => 0xFFFF,
            _ => rng.next() as u16,
        };
        cover |= u64::from(m) << (16 * k);
        if edges.is_some() && rng.bool() {
            partial |= 1 << k;
        }
    }
    let front = rng.bool();
    let frag_coord = FragCoordMap::new(rng.bool(), rng.bool(), 1 + rng.below(200) as u32);
    let mut depth = vec![[0u8; 4]; w * 4];
    if has_zs(key) {
        for j in 0..4 {
            for i in 0..4 * n {
                let z = z_plane.eval((dx + i as i32) as f32, (dy + j as i32) as f32);
                depth[texel(i, j)] = random_zs(rng, key, stencil, z);
            }
        }
    }
    let colors: Vec<Vec<u8>> = atts
        .iter()
        .map(|a| {
            let bpp = a.key.format.bytes_per_texel();
            (0..w * 4)
                .flat_map(|_| random_texel(rng, a.key.format)[..bpp].to_vec())
                .collect()
        })
        .collect();
    let shader_env = ShaderEnv {
        uniforms: std::ptr::null(),
        uniform_words: 0,
        blocks: std::ptr::null(),
        block_count: 0,
        storage: std::ptr::null(),
        storage_count: 0,
        sampler: std::ptr::null(),
        loop_trips: std::ptr::null(),
        loop_budget: crate::ir::interp::loop_budget(),
    };
    let mut fenv = FragEnv {
        shader_env: &shader_env,
        blend_color: [[0.0; 4]; MAX_COLOR_ATTACHMENTS],
        blend_color_unorm8: [[0; 4]; MAX_COLOR_ATTACHMENTS],
        frag_coord: frag_coord.to_env(),
        stencil: zs_env(stencil),
    };
    for (i, a) in atts.iter().enumerate() {
        if let Some(b) = a.blend {
            fenv.blend_color[i] = b.constant();
            fenv.blend_color_unorm8[i] = b.constant_unorm8();
        }
    }
    let splat = splat_planes(&z_plane, &w_plane, &planes);
    // One call from block `first` over the blocks in `cover`/`partial` (already shifted
    // so that bit 0 is block `first`), on the images given.
    let run = |first: usize,
               cover: u64,
               partial: u32,
               depth: &mut Vec<[u8; 4]>,
               colors: &mut Vec<Vec<u8>>|
     -> u32 {
        let mut out = vec![0u32; rows * 4];
        let mut inputs = vec![UNWRITTEN; in_len * 4];
        let mut builtins = vec![UNWRITTEN; Builtin::COUNT * 4 * 4];
        let x = bx + 4 * first as i32;
        let mut block = FragBlock {
            inv: Invocation {
                inputs: std::ptr::null(),
                outputs: out.as_mut_ptr(),
                builtins: std::ptr::null(),
                mask: 0xF,
            },
            cover,
            front: if front { u32::MAX } else { 0 },
            dx: dx + 4 * first as i32,
            dy,
            x,
            y: by,
            planes: splat.as_ptr(),
            inputs: inputs.as_mut_ptr(),
            input_stride: (in_len * 4) as u64,
            builtins: builtins.as_mut_ptr(),
            builtin_stride: (Builtin::COUNT * 4 * 4) as u64,
            depth: depth[texel(4 * first, 0)].as_mut_ptr(),
            depth_stride: (w * 4) as i64,
            color: [std::ptr::null_mut(); MAX_COLOR_ATTACHMENTS],
            color_stride: [0; MAX_COLOR_ATTACHMENTS],
            edge_test: partial,
            _pad: 0,
            edges: [BlockEdge {
                c: -1,
                a: -1,
                b: -1,
            }; 3],
        };
        if let Some(e) = &edges {
            block.edges = e.map(|e| BlockEdge {
                c: e.eval(x, by),
                a: e.a,
                b: e.b,
            });
        }
        for (c, (a, img)) in atts.iter().zip(colors.iter_mut()).enumerate() {
            let bpp = a.key.format.bytes_per_texel();
            block.color[c] = img[texel(4 * first, 0) * bpp..].as_mut_ptr();
            block.color_stride[c] = (w * bpp) as i64;
        }
        // SAFETY: every texel the span addresses lies in the images above (4 rows of `w`
        // texels, the span from texel 1 + 4·first, at most 4n texels wide); inputs and
        // builtins hold 4 quads at the strides given; `planes` holds a plane per key
        // varying; outputs hold `output_rows` zeroed rows.
        unsafe { v.run_block(&fenv, &mut block) }
    };
    let (mut one_depth, mut one_colors) = (depth.clone(), colors.clone());
    let mut one_written = 0;
    for k in 0..n {
        let m = (cover >> (16 * k)) & 0xFFFF;
        if m != 0 {
            one_written += run(k, m, (partial >> k) & 1, &mut one_depth, &mut one_colors);
        }
    }
    let (mut span_depth, mut span_colors) = (depth.clone(), colors.clone());
    // The span starts at its first block with a pixel, as `raster::tile` builds it.
    let first = if cover == 0 {
        0
    } else {
        (cover.trailing_zeros() / 16) as usize
    };
    let span_written = run(
        first,
        cover >> (16 * first),
        partial >> first,
        &mut span_depth,
        &mut span_colors,
    );
    let case = || {
        format!(
            "key {key:?}\nn {n} cover {cover:#x} partial {partial:#b} edges {edges:?} planes {planes:?} \
             z {z_plane:?} w {w_plane:?} d ({dx}, {dy}) at ({bx}, {by}) front {front}\nstencil {stencil:?}"
        )
    };
    assert_eq!(span_written, one_written, "lanes written\n{}", case());
    assert!(span_depth == one_depth, "depth/stencil texels\n{}", case());
    assert!(span_colors == one_colors, "colour texels\n{}", case());
    (0..depth.len())
        .filter(|&t| depth[t] != span_depth[t])
        .count()
        + colors
            .iter()
            .zip(&span_colors)
            .map(|(a, b)| a.iter().zip(b).filter(|(x, y)| x != y).count())
            .sum::<usize>()
}

/// Spans of 1 to 4 blocks (`raster::tile` hands the block entry a row of covered blocks
/// per call) draw what their blocks draw one call each; `block_entries_match_the_reference
/// _quad_by_quad` holds single blocks to the reference.
#[test]
fn spans_match_their_blocks_one_by_one() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let mut rng = Rng(0x5A17_0FB1_0C5E_ED17);
    let (mut changed, mut spans) = (0, 0);
    for _ in 0..120 {
        let (key, atts, stencil) = random_key(&mut rng, id);
        let v =
            fragment::compile_uncached(&shader, &key).unwrap_or_else(|e| panic!("{key:?}: {e}"));
        for _ in 0..6 {
            let n = 1 + rng.below(4) as usize;
            changed += check_span(&mut rng, &shader, &v, &atts, stencil.as_ref(), n);
            spans += 1;
        }
    }
    assert!(
        changed > spans * 16,
        "{changed} texels written in {spans} spans"
    );
}

/// The same random blocks and quads through variants that call the shader per quad (the
/// path of shaders too big to inline, `code::INLINE_MAX_INSTS`) instead of inlining it.
#[test]
fn variants_that_call_the_shader_match_the_reference() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let mut rng = Rng(0x5EED_CA11_0F5A_DE12);
    let (mut changed, mut blocks) = (0, 0);
    for _ in 0..60 {
        let (key, atts, stencil) = random_key(&mut rng, id);
        let v = fragment::compile_uncached_with(&shader, &key, false)
            .unwrap_or_else(|e| panic!("{key:?}: {e}"));
        assert!(!v.inlined());
        for _ in 0..4 {
            let with_edges = rng.below(4) == 0;
            changed += check_block(&mut rng, &shader, &v, &atts, stencil.as_ref(), with_edges).0;
            blocks += 1;
            changed += check_quad(&mut rng, &shader, &v, &atts, stencil.as_ref());
        }
    }
    assert!(changed > blocks * 4, "{changed} texels written");
}

/// A shader that samples a texture keeps its body for inlining (its one import, the texture
/// helper, is renamed into the variant's module), and its variants inline it; a shader past
/// `INLINE_MAX_INSTS` keeps none and its variants call it. (What inlined texture calls
/// draw is checked image by image by the conformance scenes, against main's hashes.)
#[test]
fn textured_shaders_inline_and_big_ones_do_not() {
    let src = "#version 330\nuniform sampler2D t;\nin vec2 uv;\nout vec4 c;\n\
               void main() { c = texture(t, uv) * 0.5; }\n";
    let out = crate::glsl::compile(Stage::Fragment, src);
    let m = out.module.unwrap_or_else(|| panic!("{}", out.info_log));
    let code = super::compile_uncached(&m).expect("compiles");
    let body = code
        .inline_body()
        .expect("a small fragment shader keeps its body");
    assert!(body.func.params.user_named_funcs().len() == 1);
    let key = FragmentKey {
        shader: fragment::shader_id(&*code).expect("JIT"),
        early_depth: true,
        depth: None,
        stencil: None,
        frag_depth_row: None,
        colors: SmallVec::from_slice(&[ColorKey {
            format: Format::Rgba8,
            slot: 0,
            mask: [true; 4],
            blend: None,
            index: 0,
            srgb: false,
            logic_op: None,
            src1_slot: None,
        }]),
        varyings: SmallVec::new(),
        builtins: 0,
    };
    let v = fragment::compile_uncached(&code, &key).expect("compiles");
    assert!(v.inlined());

    // 1000 dependent vector multiply-adds: far past the limit.
    let mut big =
        String::from("#version 330\nin vec4 a;\nout vec4 c;\nvoid main() {\nvec4 v = a;\n");
    for _ in 0..1000 {
        big.push_str("v = v * v.yzwx + a;\n");
    }
    big.push_str("c = v;\n}\n");
    let out = crate::glsl::compile(Stage::Fragment, &big);
    let m = out.module.unwrap_or_else(|| panic!("{}", out.info_log));
    let code = super::compile_uncached(&m).expect("compiles");
    assert!(code.inline_body().is_none());
    let key = FragmentKey {
        shader: fragment::shader_id(&*code).expect("JIT"),
        ..key
    };
    let v = fragment::compile_uncached(&code, &key).expect("compiles");
    assert!(!v.inlined());
}

/// Coverage of partly covered blocks: the block entry's own edge tests (i64 lanes) against
/// `tile::edge_mask`, on random edges through and beside pixel centres (fill-rule ties) and
/// from vertices anywhere in the snapping range, with one colour attachment whose every
/// covered pixel is written (so a pixel kept or dropped wrongly shows as a texel or a
/// written count that differs). Most blocks must come out partly covered.
#[test]
fn block_coverage_matches_the_edge_tests() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let mut rng = Rng(0x00ED_6E5E_DCE5_0001);
    let (mut partial, mut blocks) = (0, 0);
    for _ in 0..6 {
        let (mut key, _, _) = random_key(&mut rng, id);
        key.early_depth = false;
        key.depth = None;
        key.stencil = None;
        let att = Attachment {
            key: ColorKey {
                format: Format::Rgba32F,
                slot: 0,
                mask: [true; 4],
                blend: None,
                index: 0,
                srgb: false,
                logic_op: None,
                src1_slot: None,
            },
            blend: None,
        };
        key.colors = [att.key].into_iter().collect();
        let atts = [att];
        let v =
            fragment::compile_uncached(&shader, &key).unwrap_or_else(|e| panic!("{key:?}: {e}"));
        for _ in 0..400 {
            let (_, _, inside) = check_block(&mut rng, &shader, &v, &atts, None, true);
            blocks += 1;
            partial += usize::from(inside != 0 && inside != 0xFFFF);
        }
    }
    assert!(
        partial * 3 > blocks,
        "{partial} of {blocks} blocks partly covered"
    );
}

/// Stencil state × depth state × facing only (the mixed tests above reach a stencil key in
/// one case of four): quads and blocks against the reference, and the stencil bytes must
/// change in many of them, so the operations are exercised, not just agreed on.
#[test]
fn stencil_variants_match_the_reference() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    let mut rng = Rng(0x0573_7C11_0000_0001);
    let (mut keys, mut changed, mut cases) = (0, 0, 0);
    while keys < 160 {
        let (key, atts, stencil) = random_key(&mut rng, id);
        if stencil.is_none() {
            continue;
        }
        keys += 1;
        let v =
            fragment::compile_uncached(&shader, &key).unwrap_or_else(|e| panic!("{key:?}: {e}"));
        for _ in 0..12 {
            changed += check_quad(&mut rng, &shader, &v, &atts, stencil.as_ref());
            changed += check_block(&mut rng, &shader, &v, &atts, stencil.as_ref(), false).0;
            cases += 2;
        }
    }
    assert!(changed > cases, "{changed} texels written in {cases} cases");
}

/// Each stencil operation with each write mask edge, on every stored value, through a quad
/// whose only test is the stencil test (ALWAYS, or NEVER for sfail): the variant's byte is
/// `ops::stencil_op`'s under the mask, saturating and wrapping at 0 and 255.
#[test]
fn every_stencil_operation_on_every_value() {
    let shader = copy_shader();
    let id = fragment::shader_id(&*shader).expect("JIT code has an entry");
    for &op in StencilOp::ALL {
        for func in [CompareFunc::Always, CompareFunc::Never] {
            let face = StencilFace {
                func,
                sfail: op,
                dpfail: StencilOp::Keep,
                dppass: op,
                reference: 0xA7,
                value_mask: 0xFF,
                write_mask: 0xFF,
            };
            for write_mask in [0xFF, 0x0F, 0x00] {
                let st = StencilState {
                    front: StencilFace { write_mask, ..face },
                    back: StencilFace {
                        write_mask,
                        sfail: StencilOp::Keep,
                        dppass: StencilOp::Keep,
                        ..face
                    },
                };
                let key = FragmentKey {
                    shader: id,
                    early_depth: true,
                    depth: None,
                    stencil: Some(tile::stencil_key(&st)),
                    frag_depth_row: None,
                    colors: SmallVec::new(),
                    varyings: SmallVec::new(),
                    builtins: 0,
                };
                let v = fragment::compile_uncached(&shader, &key).expect("compiles");
                let fenv = FragEnv {
                    shader_env: std::ptr::null(),
                    blend_color: [[0.0; 4]; MAX_COLOR_ATTACHMENTS],
                    blend_color_unorm8: [[0; 4]; MAX_COLOR_ATTACHMENTS],
                    frag_coord: [0.5, 1.0, 0.5, 0.0],
                    stencil: zs_env(Some(&st)),
                };
                for base in (0..256u32).step_by(4) {
                    for front in [true, false] {
                        let mut texels: [[u8; 4]; 4] = std::array::from_fn(|l| {
                            (0x0012_3456 | (base + l as u32) << 24).to_le_bytes()
                        });
                        let mut quad = quad_for_texels(&mut texels, front);
                        // SAFETY: every depth pointer targets a live 4-byte local; the
                        // key has neither colours nor a shader call that reads anything
                        // (early tests only: NEVER leaves no lane, ALWAYS calls the copy
                        // shader on the quad's zeroed rows).
                        unsafe { run_zs_quad(&v, &fenv, &mut quad) };
                        for l in 0..4 {
                            let s = (base + l as u32) as u8;
                            let f = if front { st.front } else { st.back };
                            let op = if func == CompareFunc::Always {
                                f.dppass
                            } else {
                                f.sfail
                            };
                            let new = ops::stencil_op(op, s, f.reference);
                            let want = (s & !write_mask) | (new & write_mask);
                            let got = u32::from_le_bytes(texels[l]);
                            assert_eq!(
                                got,
                                0x0012_3456 | u32::from(want) << 24,
                                "{op:?} {func:?} mask {write_mask:#x} s {s} front {front}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// A quad covering all 4 lanes whose depth/stencil pointers are `texels`.
fn quad_for_texels(texels: &mut [[u8; 4]; 4], front: bool) -> FragQuad {
    let mut quad = FragQuad {
        inv: Invocation {
            inputs: std::ptr::null(),
            outputs: std::ptr::null_mut(),
            builtins: std::ptr::null(),
            mask: 0xF,
        },
        cover: 0xF,
        front: if front { u32::MAX } else { 0 },
        _pad: [0; 2],
        z: [0.5; 4],
        depth: [std::ptr::null_mut(); 4],
        color: [[std::ptr::null_mut(); 4]; MAX_COLOR_ATTACHMENTS],
    };
    for (l, t) in texels.iter_mut().enumerate() {
        quad.depth[l] = t.as_mut_ptr();
    }
    quad
}

/// Runs `quad` through `v` with zeroed shader rows (the copy shader reads ROWS + 1 input
/// rows and writes ROWS output rows).
///
/// # Safety
/// `quad`'s depth pointers must be live 4-byte texels; `v`'s key has no colours.
unsafe fn run_zs_quad(v: &FragmentVariant, fenv: &FragEnv, quad: &mut FragQuad) -> u32 {
    let inputs = vec![0u32; (ROWS as usize + 1) * 4];
    let mut outputs = vec![0u32; v.output_rows() as usize * 4];
    let builtins = [0u32; Builtin::COUNT * 4];
    let shader_env = ShaderEnv {
        uniforms: std::ptr::null(),
        uniform_words: 0,
        blocks: std::ptr::null(),
        block_count: 0,
        storage: std::ptr::null(),
        storage_count: 0,
        sampler: std::ptr::null(),
        loop_trips: std::ptr::null(),
        loop_budget: crate::ir::interp::loop_budget(),
    };
    let fenv = FragEnv {
        shader_env: &shader_env,
        ..*fenv
    };
    quad.inv = Invocation {
        inputs: inputs.as_ptr(),
        outputs: outputs.as_mut_ptr(),
        builtins: builtins.as_ptr(),
        mask: 0xF,
    };
    // SAFETY: the caller's contract for the texels; the invocation's rows are sized above.
    unsafe { v.run(&fenv, quad) }
}
