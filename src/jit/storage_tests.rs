//! Differential tests of shader storage blocks: GLSL shaders that load, store, take
//! `length()` and run every atomic on storage words, through generated code and through the
//! interpreter, which must leave the same words in memory and write the same outputs, under
//! partial lane masks and with fragment helper lanes (mask bits 4..7) that must not write.

use std::sync::atomic::{AtomicU32, Ordering};

use super::runtime::test_hook;
use super::tests::{run_code, same, Env};
use crate::ir::{interp, Builtin, Module, Stage};

fn storage(words: &[Vec<u32>]) -> Vec<Vec<AtomicU32>> {
    words
        .iter()
        .map(|w| w.iter().map(|&x| AtomicU32::new(x)).collect())
        .collect()
}

fn snapshot(s: &[Vec<AtomicU32>]) -> Vec<Vec<u32>> {
    s.iter()
        .map(|w| w.iter().map(|x| x.load(Ordering::Relaxed)).collect())
        .collect()
}

fn compile_glsl(stage: Stage, src: &str) -> Module {
    let out = crate::glsl::compile(stage, src);
    let m = out
        .module
        .unwrap_or_else(|| panic!("expected to compile:\n{}\n{src}", out.info_log));
    crate::glsl::verify::verify_module(&m)
        .unwrap_or_else(|e| panic!("{e}\n{}", crate::ir::dump(&m)));
    m
}

/// Runs `m` on `rows` (input words in slot order, one row of 4 lanes each) with `mask` and
/// the storage words `init`, through the JIT and the interpreter; asserts both agree on
/// outputs, alive lanes and the final storage, and returns (outputs, storage).
fn both(m: &Module, rows: &[[u32; 4]], init: &[Vec<u32>], mask: u32) -> (Vec<u32>, Vec<Vec<u32>>) {
    let code = super::compile(m).unwrap_or_else(|e| panic!("{e}"));
    let words = m.inputs.iter().map(|i| i.slot + i.words).max().unwrap_or(0) as usize;
    let mut at = Vec::new();
    for i in &m.inputs {
        at.extend((0..i.words).map(|w| (i.slot + w) as usize));
    }
    let mut soa = vec![0u32; words.max(1) * 4];
    for (row, &slot) in rows.iter().zip(&at) {
        soa[slot * 4..slot * 4 + 4].copy_from_slice(row);
    }
    let env = Env {
        inputs: soa.clone(),
        storage: storage(init),
        mask,
        ..Env::default()
    };
    let (jo, ja) = run_code(&*code, &env);
    let jit_mem = snapshot(&env.storage);

    let mem = storage(init);
    let views: Vec<&[AtomicU32]> = mem.iter().map(|s| &s[..]).collect();
    let texture = |r: &crate::sampler::request::TexRequest| test_hook::answer(r);
    let ienv = interp::InterpEnv {
        uniforms: &[],
        blocks: &[],
        storage: &views,
        texture: &texture,
        quad: m.stage == Stage::Fragment,
    };
    let mut builtins = vec![0u32; Builtin::COUNT * 4];
    builtins.truncate(Builtin::COUNT * 4);
    let mut io = vec![super::tests::SENTINEL; m.func.outputs.len() * 4];
    let ia = interp::run(m, &ienv, &soa, &builtins, &mut io, mask);
    let interp_mem = snapshot(&mem);
    assert!(
        ja == ia && jo.iter().zip(&io).all(|(a, b)| same(*a, *b)) && jit_mem == interp_mem,
        "mask {mask:#x}: alive jit {ja:#06b} interp {ia:#06b}\njit    {jo:08x?}\ninterp \
         {io:08x?}\njit mem    {jit_mem:08x?}\ninterp mem {interp_mem:08x?}\n{}",
        crate::ir::dump(m)
    );
    (jo, jit_mem)
}

fn lane(o: &[u32], slot: usize, lane: usize) -> u32 {
    o[slot * 4 + lane]
}

/// std430 runtime-sized array: each lane stores its input at its own index, reads a
/// neighbour's word back and `length()`; out-of-range and negative indices drop the store
/// and read 0.
#[test]
fn stores_loads_and_length_agree() {
    let src = "#version 430
        flat in int idx;
        flat in uint val;
        layout(std430, binding = 1) buffer Data { uint head; uint items[]; } d;
        out uvec4 o;
        void main() {
            d.items[idx] = val;
            if (val > 20u) d.head = val;
            o = uvec4(d.items[idx], d.items[idx + 1], uint(d.items.length()), d.head);
        }";
    let m = compile_glsl(Stage::Fragment, src);
    assert_eq!(m.storage_blocks.len(), 1);
    assert_eq!(m.storage_blocks[0].binding, Some(1));
    let idx = [0i32, 2, -1, 100].map(|x| x as u32);
    let val = [10u32, 30, 40, 50];
    let init = vec![(0..8).map(|x| 0x100 + x).collect::<Vec<u32>>()];
    for mask in [0xF, 0b0110, 0b1001, 0xF | (0b0011 << 4)] {
        let (o, mem) = both(&m, &[idx, val], &init, mask);
        if mask == 0xF {
            // items[] has 7 words; lane 0 wrote items[0], lane 1 items[2]; lanes 2 and 3
            // are out of range (dropped, read 0).
            assert_eq!(mem[0][1], 10);
            assert_eq!(mem[0][3], 30);
            assert_eq!(lane(&o, 0, 2), 0);
            assert_eq!(lane(&o, 1, 1), 0x104);
            assert_eq!(lane(&o, 2, 0), 7);
            // The last lane storing head wins (lane order).
            assert_eq!(mem[0][0], 50);
        }
        if mask == 0xF | (0b0011 << 4) {
            // Helper lanes 2 and 3 run but do not write.
            assert_eq!(mem[0][0], 30);
        }
    }
}

/// Every atomic on one shared word and on per-lane words, signed and unsigned: the returned
/// values depend on lane order, which both paths keep (lane 0 first).
#[test]
fn atomics_agree() {
    let src = "#version 430
        flat in int a;
        flat in uint b;
        layout(std430) buffer Counters { int si[8]; uint ui[8]; };
        out ivec4 o0;
        out uvec4 o1;
        void main() {
            int r0 = atomicAdd(si[0], a);
            int r1 = atomicMin(si[1], a);
            int r2 = atomicMax(si[2], a);
            int r3 = atomicExchange(si[3], a);
            uint q0 = atomicMin(ui[0], b);
            uint q1 = atomicMax(ui[1], b);
            uint q2 = atomicAnd(ui[2], b) ^ atomicOr(ui[3], b);
            uint q3 = atomicXor(ui[4], b) + atomicCompSwap(ui[5], 7u, b);
            atomicAdd(ui[6 + (b & 1u)], 1u);
            o0 = ivec4(r0, r1, r2, r3);
            o1 = uvec4(q0, q1, q2, q3);
        }";
    let m = compile_glsl(Stage::Fragment, src);
    let a = [5i32, -3, i32::MAX, -9].map(|x| x as u32);
    let b = [7u32, 0xFFFF_0000, 3, 0x8000_0001];
    let init = vec![[
        [1i32, 0, -100, 4, 0, 0, 0, 0].map(|x| x as u32),
        [u32::MAX, 1, 0xFFFF_FFFF, 0x10, 0xF0F0, 7, 0, 0],
    ]
    .concat()];
    for mask in [0xF, 0b1010, 0b0111, 0xF | (0b1001 << 4)] {
        let (o, mem) = both(&m, &[a, b], &init, mask);
        if mask == 0xF {
            assert_eq!(
                mem[0][0] as i32,
                [5, -3, i32::MAX, -9]
                    .iter()
                    .fold(1i32, |a, b| a.wrapping_add(*b)),
                "atomicAdd total"
            );
            assert_eq!(mem[0][1] as i32, -9);
            assert_eq!(mem[0][2] as i32, i32::MAX);
            assert_eq!(mem[0][3] as i32, -9, "the last exchange");
            assert_eq!(mem[0][8], 3, "unsigned min");
            assert_eq!(mem[0][9], 0xFFFF_0000, "unsigned max");
            assert_eq!(mem[0][14] + mem[0][15], 4, "every lane counted once");
            // Lane 0's compare-and-swap saw 7 and stored 7; lane 1 then saw 7 too.
            assert_eq!(lane(&o, 0, 0), 1, "lane 0 gets the initial value");
        }
    }
}

/// std140 and std430 layouts of arrays, vec3s, matrices and structs: the words written land
/// at the offsets GL 4.5 §7.6.2.2 gives.
#[test]
fn std140_and_std430_offsets() {
    let src = "#version 430
        struct S { vec3 p; float w; vec2 t; };
        layout(std430, binding = 0) buffer A { float f[2]; vec3 v; mat2 m; S s[2]; } a;
        layout(std140, binding = 1) buffer B { float f[2]; vec3 v; mat2 m; S s[2]; } b;
        out vec4 o;
        void main() {
            a.f[1] = 1.0; b.f[1] = 1.0;
            a.v = vec3(2.0, 3.0, 4.0); b.v = vec3(2.0, 3.0, 4.0);
            a.m[1] = vec2(5.0, 6.0); b.m[1] = vec2(5.0, 6.0);
            a.s[1].t = vec2(7.0, 8.0); b.s[1].t = vec2(7.0, 8.0);
            o = vec4(a.m[1][1], b.m[1][1], a.s[1].t.y, b.s[1].t.y);
        }";
    let m = compile_glsl(Stage::Fragment, src);
    let init = vec![vec![0u32; 64], vec![0u32; 64]];
    let (o, mem) = both(&m, &[], &init, 0x1);
    let f = |x: f32| x.to_bits();
    // std430: f stride 4 (f[1]@4), v@16, m columns 8 apart (m[1]@40), S is 32 bytes
    // aligned 16 (s@48, s[1]@80, t@+16 → 96).
    assert_eq!(mem[0][1], f(1.0));
    assert_eq!(&mem[0][4..7], &[f(2.0), f(3.0), f(4.0)]);
    assert_eq!(&mem[0][10..12], &[f(5.0), f(6.0)]);
    assert_eq!(&mem[0][24..26], &[f(7.0), f(8.0)]);
    // std140: f stride 16 (f[1]@16), v@32, m columns 16 apart (m@48, m[1]@64), s@80,
    // s[1]@112, t@128.
    assert_eq!(mem[1][4], f(1.0));
    assert_eq!(&mem[1][8..11], &[f(2.0), f(3.0), f(4.0)]);
    assert_eq!(&mem[1][16..18], &[f(5.0), f(6.0)]);
    assert_eq!(&mem[1][32..34], &[f(7.0), f(8.0)]);
    assert_eq!(
        [0, 1, 2, 3].map(|k| lane(&o, k, 0)),
        [f(6.0), f(6.0), f(8.0), f(8.0)]
    );
}

/// A vertex shader storing under divergent control flow and loops; an unbound block (no
/// words at all) reads 0 and ignores stores and atomics.
#[test]
fn divergent_stores_and_unbound_blocks_agree() {
    let src = "#version 430
        layout(location = 0) in int n;
        layout(std430, binding = 0) buffer Out { int sums[4]; };
        layout(std430, binding = 1) buffer Missing { int nothing[]; };
        void main() {
            int s = 0;
            for (int i = 0; i < n; i++) {
                if ((i & 1) == 0) continue;
                s += i;
                sums[gl_VertexID & 3] = s;
            }
            nothing[n] = s;
            int r = atomicAdd(nothing[0], 1) + nothing[1] + nothing.length();
            gl_Position = vec4(float(s + r));
        }";
    let m = compile_glsl(Stage::Vertex, src);
    let n = [0i32, 3, 6, 9].map(|x| x as u32);
    let init = vec![vec![0xAAu32; 4]];
    for mask in [0xF, 0b0101, 0b1110] {
        let (_, mem) = both(&m, &[n], &init, mask);
        if mask == 0xF {
            // gl_VertexID is 0 here: every lane writes sums[0], the last lane's last.
            assert_eq!(mem[0][0], 1 + 3 + 5 + 7);
            assert_eq!(&mem[0][1..], &[0xAA; 3]);
        }
    }
}

/// Stores to a `readonly` member and atomics on non-storage variables fail to compile;
/// `length()` of a runtime-sized array needs no bound size.
#[test]
fn storage_diagnostics() {
    for (src, want) in [
        (
            "#version 430\nreadonly buffer B { int x; };\nvoid main() { x = 1; }",
            "read-only",
        ),
        (
            "#version 430\nint g;\nvoid main() { atomicAdd(g, 1); }",
            "shader storage block",
        ),
        (
            "#version 430\nbuffer B { int x[]; int y; };\nvoid main() { }",
            "last member",
        ),
        (
            "#version 420\nbuffer B { int x; };\nvoid main() { }",
            "error",
        ),
        (
            "#version 430\nbuffer B { float x; };\nvoid main() { atomicAdd(x, 1.0); }",
            "int or uint",
        ),
        (
            "#version 430\nlayout(binding = 32) buffer B { float x; };\nvoid main() { }",
            "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
        ),
    ] {
        let out = crate::glsl::compile(Stage::Fragment, src);
        assert!(out.module.is_none(), "{src}");
        assert!(out.info_log.contains(want), "{src}\n{}", out.info_log);
    }
}

/// Atomic counters (hidden storage blocks, `ir::atomic_counter`): every counter built-in on
/// one counter every lane updates and on an array indexed per lane, some indices past its
/// end (which must touch nothing). Both paths return the same lane-ordered values and
/// leave the same words.
#[test]
fn atomic_counters_agree() {
    let src = "#version 460
        flat in uint idx;
        flat in uint b;
        layout(binding = 3, offset = 4) uniform atomic_uint c;
        layout(binding = 3) uniform atomic_uint arr[3];
        out uvec4 o0;
        out uvec4 o1;
        void main() {
            uint r0 = atomicCounterIncrement(c);
            uint r1 = atomicCounterDecrement(arr[idx]);
            uint r2 = atomicCounterAdd(c, b) + atomicCounterSubtract(arr[0], b);
            uint r3 = atomicCounterMin(arr[1], b) ^ atomicCounterMax(arr[2], b);
            uint q0 = atomicCounterAnd(c, b) + atomicCounterOr(c, 3u);
            uint q1 = atomicCounterXor(arr[idx], b);
            uint q2 = atomicCounterExchange(arr[0], idx);
            uint q3 = atomicCounterCompSwap(c, 9u, b) + atomicCounter(arr[idx]);
            o0 = uvec4(r0, r1, r2, r3);
            o1 = uvec4(q0, q1, q2, q3);
        }";
    let m = compile_glsl(Stage::Fragment, src);
    assert_eq!(m.storage_blocks.len(), 1, "one hidden block for binding 3");
    assert_eq!(m.storage_blocks[0].binding, Some(3));
    let idx = [0u32, 2, 3, 0xFFFF_FFFF];
    let b = [7u32, 0xFFFF_0000, 3, 9];
    // Word 0 unused, 1 is c, 2..4 arr (the default offset follows c), 5 past arr's end.
    let init = vec![vec![100, 5, 50, 60, 70, 0x5E]];
    for mask in [0xF, 0b1010, 0b0111, 0xF | (0b1001 << 4)] {
        let (_, mem) = both(&m, &[idx, b], &init, mask);
        assert_eq!(mem[0][0], 100, "word 0 is no counter");
        assert_eq!(mem[0][5], 0x5E, "indices past arr[2] touch nothing");
    }
}
