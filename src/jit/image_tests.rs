//! Differential tests of image load/store: GLSL fragment shaders that load, store, size and
//! update images through generated code and through the interpreter, both answered by the
//! same `sampler::storage_image::access`, which must leave the same texels and write the
//! same outputs, under partial lane masks, with fragment helper lanes (mask bits 4..7)
//! that must not write, and with coordinates and handles that miss.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use super::abi::{Invocation, ShaderEnv};
use crate::ir::{interp, Builtin, Module, Stage};
use crate::sampler::storage_image::{unit_handle, ImageFormat, ImageSet, ImageView};
use crate::sampler::{DescriptorTable, SampleContext};

fn compile_glsl(src: &str) -> Module {
    let out = crate::glsl::compile(Stage::Fragment, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}\n{src}", out.info_log));
    crate::glsl::verify::verify_module(&m)
        .unwrap_or_else(|e| panic!("{e}\n{}", crate::ir::dump(&m)));
    m
}

/// Unit 0: a 4×2 r32ui image; unit 1: a 3×3×2 rgba8 array image (each fresh, from `init`).
fn images(init: &[Vec<u32>; 2]) -> (SampleContext, [Arc<[AtomicU32]>; 2]) {
    let words =
        |v: &Vec<u32>| -> Arc<[AtomicU32]> { v.iter().map(|&x| AtomicU32::new(x)).collect() };
    let w = [words(&init[0]), words(&init[1])];
    let view = |words: &Arc<[AtomicU32]>, format, w, h, d| ImageView {
        words: words.clone(),
        width: w,
        height: h,
        depth: d,
        samples: 1,
        format,
        cube_array: false,
    };
    let set = ImageSet::new(vec![
        (unit_handle(0), view(&w[0], ImageFormat::R32ui, 4, 2, 1)),
        (unit_handle(1), view(&w[1], ImageFormat::Rgba8, 3, 3, 2)),
    ]);
    let mut ctx = SampleContext::new(
        Arc::new(DescriptorTable::new()),
        Arc::default(),
        Default::default(),
    );
    ctx.images = Arc::new(set);
    (ctx, w)
}

fn snapshot(w: &[Arc<[AtomicU32]>; 2]) -> Vec<Vec<u32>> {
    w.iter()
        .map(|w| w.iter().map(|x| x.load(Ordering::Relaxed)).collect())
        .collect()
}

/// Runs `m` on input rows `rows` (slot order) and uniform words `uniforms` with `mask`
/// through the JIT and the interpreter, each on fresh images; asserts they agree and
/// returns (outputs, texels).
fn both(m: &Module, uniforms: &[u32], rows: &[[u32; 4]], mask: u32) -> (Vec<u32>, Vec<Vec<u32>>) {
    let init = [
        (0..8).map(|i| 100 + i).collect::<Vec<u32>>(),
        (0..18)
            .map(|i| 0x0101_0101u32.wrapping_mul(i + 1))
            .collect::<Vec<u32>>(),
    ];
    let mut inputs =
        vec![
            0u32;
            (m.inputs.iter().map(|i| i.slot + i.words).max().unwrap_or(0) as usize).max(1) * 4
        ];
    for (k, row) in rows.iter().enumerate() {
        inputs[k * 4..k * 4 + 4].copy_from_slice(row);
    }
    let builtins = vec![0u32; Builtin::COUNT * 4];

    let code = super::compile(m).unwrap_or_else(|e| panic!("{e}"));
    let (jctx, jw) = images(&init);
    let env = ShaderEnv {
        uniforms: uniforms.as_ptr(),
        uniform_words: uniforms.len() as u64,
        blocks: std::ptr::null(),
        block_count: 0,
        storage: std::ptr::null(),
        storage_count: 0,
        sampler: &jctx as *const SampleContext as *const u8,
        loop_trips: std::ptr::null(),
        loop_budget: interp::loop_budget(),
    };
    let mut jo = vec![super::tests::SENTINEL; code.output_words() as usize * 4];
    let mut ins = inputs.clone();
    ins.resize((code.input_words() as usize * 4).max(ins.len()), 0);
    let mut inv = Invocation {
        inputs: ins.as_ptr(),
        outputs: jo.as_mut_ptr(),
        builtins: builtins.as_ptr(),
        mask,
    };
    // SAFETY: every pointer covers what the code declares (inputs resized above, outputs
    // sized from the code, every builtin row), and `sampler` is a live SampleContext.
    let ja = unsafe { code.call(&env, &mut inv) };

    let (ictx, iw) = images(&init);
    let texture = |r: &crate::sampler::request::TexRequest| crate::sampler::sample(&ictx, r);
    let ienv = interp::InterpEnv {
        uniforms,
        blocks: &[],
        storage: &[],
        texture: &texture,
        quad: true,
    };
    let mut io = vec![super::tests::SENTINEL; m.func.outputs.len() * 4];
    let ia = interp::run(m, &ienv, &inputs, &builtins, &mut io, mask);
    let (jm, im) = (snapshot(&jw), snapshot(&iw));
    assert!(
        ja == ia && jo == io && jm == im,
        "mask {mask:#x}: alive jit {ja:#06b} interp {ia:#06b}\njit    {jo:08x?}\ninterp \
         {io:08x?}\njit mem    {jm:08x?}\ninterp mem {im:08x?}\n{}",
        crate::ir::dump(m)
    );
    (jo, jm)
}

/// Uniform words of two image uniforms set to units 0 and 1 (handles, low word first).
fn unit_uniforms(m: &Module) -> Vec<u32> {
    let mut u = vec![0u32; m.uniform_words as usize];
    for d in &m.uniforms {
        let unit = if d.name == "counts" { 0 } else { 1 };
        let h = unit_handle(unit);
        u[d.offset as usize] = h as u32;
        u[d.offset as usize + 1] = (h >> 32) as u32;
    }
    u
}

#[test]
fn loads_stores_sizes_and_atomics_agree() {
    let src = "#version 450
        flat in ivec4 p;
        flat in uint v;
        layout(r32ui) uniform uimage2D counts;
        layout(rgba8) uniform image2DArray pic;
        out uvec4 o0;
        out vec4 o1;
        out ivec4 o2;
        void main() {
            uint old = imageAtomicAdd(counts, p.xy, v);
            uint cas = imageAtomicCompSwap(counts, ivec2(p.z, 0), 101u, v);
            uint mx = imageAtomicMax(counts, ivec2(3, 1), v);
            vec4 t = imageLoad(pic, p.xyw);
            imageStore(pic, p.yxw, vec4(0.25, 0.5, 1.0, float(v) / 255.0));
            o0 = uvec4(old, cas, mx, imageLoad(counts, p.xy).r);
            o1 = t;
            o2 = ivec4(imageSize(counts), imageSize(pic).yz);
        }";
    let m = compile_glsl(src);
    let u = unit_uniforms(&m);
    let p = [
        [0u32, 1, 3, 5],              // x: the last lane is outside both images
        [0u32, 1, 2, (-1i32) as u32], // y
        [1u32, 1, 0, 2],              // z: compare-swap column
        [0u32, 1, 1, 0],              // w: layer
    ];
    let v = [[7u32, 9, 11, 13]];
    let rows: Vec<[u32; 4]> = p.iter().chain(&v).copied().collect();
    for mask in [0xF, 0b0101, 0b1110, 0xF | (0b1001 << 4)] {
        let (o, mem) = both(&m, &u, &rows, mask);
        if mask == 0xF {
            // Lane 0 adds 7 to (0,0); lane 1 adds 9 to (1,1); lane 2 to (3,2): outside.
            assert_eq!(mem[0][0], 100 + 7);
            assert_eq!(mem[0][5], 105 + 9);
            assert_eq!(o[0], 100, "lane 0: the previous value");
            assert_eq!(o[3], 0, "lane 3 misses: zero");
            // imageSize: (4, 2) and (3, 2) of the array's (w, h, layers) y and z.
            assert_eq!(&o[8 * 4..8 * 4 + 4], &[4; 4]);
            assert_eq!(&o[11 * 4..11 * 4 + 4], &[2; 4]);
        }
        if mask == 0xF | (0b1001 << 4) {
            // Lanes 0 and 3 may write; helper lanes 1 and 2 load but do not store or update.
            assert_eq!(mem[0][5], 105);
        }
    }
}
