//! Vertex fetch (GL 4.5 core §10.2–§10.4): indices, base vertex and instance, divisors, and
//! the conversion of every attribute type to the vertex shader's input words. Robust: a read
//! past the end of a buffer gives 0, never a panic.

use super::draw::{AttribMode, AttribSource, IndexSource, VertexAttrib, VertexInput};
use crate::gl::AttribType as T;

/// The vertex index of element `i` of the draw (`gl_VertexID`), before any range check.
/// Indexed draws read the element array (a read past its end gives index 0) and add the
/// base vertex (GL 4.5 core §10.5, DrawElementsBaseVertex).
pub fn vertex_id(input: &VertexInput, i: u32) -> i64 {
    let elem = input.first as u64 + i as u64;
    match &input.indices {
        None => elem as i64,
        Some(src) => raw_index(src, elem) as i64 + input.base_vertex as i64,
    }
}

/// The index element `elem` of the element array holds, as stored (a read past its end
/// gives 0).
pub fn raw_index(src: &IndexSource, elem: u64) -> u32 {
    let n = src.index_bytes.max(1) as u64;
    let Some(start) = (src.offset as u64).checked_add(elem.saturating_mul(n)) else {
        return 0;
    };
    let bytes = read_bytes::<4>(&src.data, start, n as usize);
    match src.index_bytes {
        1 => bytes[0] as u32,
        2 => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        _ => u32::from_le_bytes(bytes),
    }
}

/// Up to `N` bytes at `start`; all zero when any of the `len` bytes lies past the end.
fn read_bytes<const N: usize>(data: &[u8], start: u64, len: usize) -> [u8; N] {
    let mut out = [0u8; N];
    let len = len.min(N);
    if let Ok(s) = usize::try_from(start) {
        if let Some(src) = s.checked_add(len).and_then(|e| data.get(s..e)) {
            out[..len].copy_from_slice(src);
        }
    }
    out
}

/// One component as f32 (GL 4.5 core §10.3.6 conversions; normalized per §2.3.5.1).
pub(crate) fn component_f32(ty: T, normalized: bool, b: [u8; 8]) -> f32 {
    match ty {
        T::Byte => {
            let v = b[0] as i8;
            if normalized {
                (v as f32 / 127.0).max(-1.0)
            } else {
                v as f32
            }
        }
        T::UnsignedByte => {
            let v = b[0];
            if normalized {
                v as f32 / 255.0
            } else {
                v as f32
            }
        }
        T::Short => {
            let v = i16::from_le_bytes([b[0], b[1]]);
            if normalized {
                (v as f32 / 32767.0).max(-1.0)
            } else {
                v as f32
            }
        }
        T::UnsignedShort => {
            let v = u16::from_le_bytes([b[0], b[1]]);
            if normalized {
                v as f32 / 65535.0
            } else {
                v as f32
            }
        }
        T::Int => {
            let v = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if normalized {
                // Divide in f64 so the 31-bit quotient rounds once.
                (v as f64 / 2147483647.0).max(-1.0) as f32
            } else {
                v as f32
            }
        }
        T::UnsignedInt => {
            let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if normalized {
                (v as f64 / 4294967295.0) as f32
            } else {
                v as f32
            }
        }
        T::Fixed => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32 / 65536.0,
        T::HalfFloat => half::f16::from_le_bytes([b[0], b[1]]).to_f32(),
        T::Float => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        T::Double => f64::from_le_bytes(b) as f32,
        T::UnsignedInt64 => u64::from_le_bytes(b) as f32,
        _ => 0.0,
    }
}

/// An unsigned float of `mant` mantissa bits and 5 exponent bits (GL 4.5 core §2.3.4.3,
/// §2.3.4.4) as f32; exact, since f32 holds every such value.
fn small_float(bits: u32, mant: u32) -> f32 {
    let e = (bits >> mant) & 0x1F;
    let m = bits & ((1 << mant) - 1);
    match e {
        0 => m as f32 / (1u32 << mant) as f32 / 16384.0, // denormal: m / 2^mant * 2^-14
        31 => {
            if m == 0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        }
        // Rebias 15 -> 127 and widen the mantissa to 23 bits.
        _ => f32::from_bits(((e + 112) << 23) | (m << (23 - mant))),
    }
}

/// The four components of a packed attribute word (GL 4.5 core §10.3.2 packed formats,
/// conversions of §2.3.5.1 for the normalized signed case).
pub(crate) fn unpack_packed(ty: T, normalized: bool, w: u32) -> [f32; 4] {
    match ty {
        T::UnsignedInt10f11f11fRev => [
            small_float(w & 0x7FF, 6),
            small_float((w >> 11) & 0x7FF, 6),
            small_float(w >> 22, 5),
            1.0,
        ],
        T::Int2101010Rev => {
            let field = |shift: u32, bits: u32| ((w << (32 - shift - bits)) as i32) >> (32 - bits);
            let conv = |v: i32, bits: u32| {
                if normalized {
                    (v as f32 / ((1 << (bits - 1)) - 1) as f32).max(-1.0)
                } else {
                    v as f32
                }
            };
            [
                conv(field(0, 10), 10),
                conv(field(10, 10), 10),
                conv(field(20, 10), 10),
                conv(field(30, 2), 2),
            ]
        }
        _ => {
            let field = |shift: u32, bits: u32| (w >> shift) & ((1 << bits) - 1);
            let conv = |v: u32, bits: u32| {
                if normalized {
                    v as f32 / ((1u32 << bits) - 1) as f32
                } else {
                    v as f32
                }
            };
            [
                conv(field(0, 10), 10),
                conv(field(10, 10), 10),
                conv(field(20, 10), 10),
                conv(field(30, 2), 2),
            ]
        }
    }
}

/// One component as integer bits (glVertexAttribIPointer): sign- or zero-extended.
fn component_int(ty: T, b: [u8; 8]) -> u32 {
    match ty {
        T::Byte => b[0] as i8 as i32 as u32,
        T::UnsignedByte => b[0] as u32,
        T::Short => i16::from_le_bytes([b[0], b[1]]) as i32 as u32,
        T::UnsignedShort | T::HalfFloat => u16::from_le_bytes([b[0], b[1]]) as u32,
        _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    }
}

/// Writes the input words of attribute `attr` for vertex `vertex_id` of instance `instance`
/// into `words` (one vertex, `input_words` long).
pub fn fetch_attrib(
    attr: &VertexAttrib,
    input: &VertexInput,
    vertex_id: i64,
    instance: u32,
    words: &mut [u32],
) {
    let slot = attr.slot as usize;
    let mut put = |k: usize, v: u32| {
        if let Some(w) = slot.checked_add(k).and_then(|i| words.get_mut(i)) {
            *w = v;
        }
    };
    match &attr.source {
        AttribSource::Constant(v) => {
            for (k, &w) in v.iter().enumerate() {
                put(k, w);
            }
        }
        AttribSource::Array {
            data,
            offset,
            stride,
            size,
            ty,
            normalized,
            mode,
            divisor,
        } => {
            // GL 4.5 core §10.4: instanced attributes advance every `divisor` instances,
            // starting at the base instance.
            let elem: i64 = if *divisor == 0 {
                vertex_id
            } else {
                (instance / divisor) as i64 + input.base_instance as i64
            };
            let size = (*size).clamp(1, 4) as usize;
            let cb = ty.size_bytes() as usize;
            let base = if elem < 0 {
                None
            } else {
                (elem as u64)
                    .checked_mul(*stride as u64)
                    .and_then(|o| o.checked_add(*offset as u64))
            };
            let read = |c: usize| -> [u8; 8] {
                match base {
                    Some(b) => read_bytes::<8>(data, b.saturating_add((c * cb) as u64), cb),
                    None => [0; 8],
                }
            };
            match mode {
                AttribMode::Float if ty.is_packed() => {
                    // One 32-bit word holds the whole attribute.
                    let b = read(0);
                    let v = unpack_packed(
                        *ty,
                        *normalized,
                        u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                    );
                    for (k, f) in v.iter().enumerate() {
                        // Components past `size` take their (0, 0, 0, 1) defaults.
                        let default = [0.0f32, 0.0, 0.0, 1.0][k];
                        put(k, if k < size { *f } else { default }.to_bits());
                    }
                }
                AttribMode::Float => {
                    let mut v = [0.0f32, 0.0, 0.0, 1.0];
                    // GL_FLOAT components wholly inside the buffer (the usual case): one
                    // bounds check and plain loads. Else per component, zeros outside.
                    let whole = base
                        .filter(|_| *ty == T::Float)
                        .and_then(|b| usize::try_from(b).ok())
                        .and_then(|b| data.get(b..b.checked_add(size * 4)?));
                    if let Some(src) = whole {
                        for (out, b) in v.iter_mut().zip(src.chunks_exact(4)) {
                            *out = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                        }
                    } else {
                        for (c, out) in v.iter_mut().enumerate().take(size) {
                            *out = component_f32(*ty, *normalized, read(c));
                        }
                    }
                    for (k, f) in v.iter().enumerate() {
                        put(k, f.to_bits());
                    }
                }
                AttribMode::Integer => {
                    let mut v = [0u32, 0, 0, 1];
                    for (c, out) in v.iter_mut().enumerate().take(size) {
                        *out = component_int(*ty, read(c));
                    }
                    for (k, &w) in v.iter().enumerate() {
                        put(k, w);
                    }
                }
                AttribMode::Long => {
                    // Components the array lacks default to (0, 0, 0, 1) in the attribute's
                    // own 64-bit type.
                    let one = if *ty == T::Double {
                        1.0f64.to_bits()
                    } else {
                        1
                    };
                    for c in 0..4 {
                        let bits = if c < size {
                            u64::from_le_bytes(read(c))
                        } else if c == 3 {
                            one
                        } else {
                            0
                        };
                        put(2 * c, bits as u32);
                        put(2 * c + 1, (bits >> 32) as u32);
                    }
                }
            }
        }
    }
}

/// Fills one vertex's input words (`words.len() == input_words`).
pub fn fetch_vertex(input: &VertexInput, vertex_id: i64, instance: u32, words: &mut [u32]) {
    words.fill(0);
    for attr in &input.attribs {
        fetch_attrib(attr, input, vertex_id, instance, words);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::enums as gl;
    use std::sync::Arc;

    fn array(
        data: Vec<u8>,
        stride: usize,
        size: u8,
        ty: u32,
        normalized: bool,
        mode: AttribMode,
        divisor: u32,
    ) -> VertexAttrib {
        VertexAttrib {
            slot: 0,
            source: AttribSource::Array {
                data: Arc::new(data),
                offset: 0,
                stride,
                size,
                ty: T::from_gl(ty).unwrap(),
                normalized,
                mode,
                divisor,
            },
        }
    }

    fn input(attribs: Vec<VertexAttrib>) -> VertexInput {
        VertexInput {
            attribs,
            input_words: 8,
            indices: None,
            first: 0,
            count: 3,
            instance_count: 1,
            base_vertex: 0,
            base_instance: 0,
        }
    }

    fn floats(w: &[u32]) -> Vec<f32> {
        w.iter().map(|&b| f32::from_bits(b)).collect()
    }

    #[test]
    fn normalized_and_plain_conversions() {
        let cases: [(u32, Vec<u8>, bool, f32); 9] = [
            (gl::BYTE, vec![0x81], true, -1.0),
            (gl::BYTE, vec![0x80], true, -1.0),
            (gl::BYTE, vec![0x7F], true, 1.0),
            (gl::UNSIGNED_BYTE, vec![255], true, 1.0),
            (gl::UNSIGNED_BYTE, vec![51], true, 0.2),
            (gl::SHORT, (-5i16).to_le_bytes().to_vec(), false, -5.0),
            (
                gl::UNSIGNED_SHORT,
                65535u16.to_le_bytes().to_vec(),
                true,
                1.0,
            ),
            (
                gl::HALF_FLOAT,
                half::f16::from_f32(0.5).to_le_bytes().to_vec(),
                false,
                0.5,
            ),
            (gl::DOUBLE, 2.5f64.to_le_bytes().to_vec(), false, 2.5),
        ];
        for (ty, data, norm, want) in cases {
            let stride = data.len();
            let inp = input(vec![array(data, stride, 1, ty, norm, AttribMode::Float, 0)]);
            let mut w = [0u32; 8];
            fetch_vertex(&inp, 0, 0, &mut w);
            assert_eq!(floats(&w[..4]), vec![want, 0.0, 0.0, 1.0], "type {ty:#x}");
        }
    }

    #[test]
    fn integer_and_long_modes_keep_bits() {
        let inp = input(vec![array(
            vec![0xFE, 0x02],
            2,
            2,
            gl::BYTE,
            false,
            AttribMode::Integer,
            0,
        )]);
        let mut w = [0u32; 8];
        fetch_vertex(&inp, 0, 0, &mut w);
        assert_eq!(&w[..4], &[(-2i32) as u32, 2, 0, 1]);

        let v: u64 = 0x1122_3344_5566_7788;
        let inp = input(vec![array(
            v.to_le_bytes().to_vec(),
            8,
            1,
            gl::UNSIGNED_INT64_ARB,
            false,
            AttribMode::Long,
            0,
        )]);
        fetch_vertex(&inp, 0, 0, &mut w);
        assert_eq!(&w[..8], &[0x5566_7788, 0x1122_3344, 0, 0, 0, 0, 1, 0]);
    }

    #[test]
    fn out_of_range_reads_zero_and_divisors_advance_per_instance() {
        let data: Vec<u8> = [1.0f32, 2.0, 3.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let inp = input(vec![array(
            data.clone(),
            4,
            1,
            gl::FLOAT,
            false,
            AttribMode::Float,
            0,
        )]);
        let mut w = [0u32; 8];
        fetch_vertex(&inp, 2, 0, &mut w);
        assert_eq!(floats(&w[..4]), vec![3.0, 0.0, 0.0, 1.0]);
        fetch_vertex(&inp, 3, 0, &mut w);
        assert_eq!(floats(&w[..4]), vec![0.0, 0.0, 0.0, 1.0]);
        fetch_vertex(&inp, -1, 0, &mut w);
        assert_eq!(floats(&w[..4]), vec![0.0, 0.0, 0.0, 1.0]);

        let mut inp = input(vec![array(
            data,
            4,
            1,
            gl::FLOAT,
            false,
            AttribMode::Float,
            2,
        )]);
        inp.base_instance = 1;
        let got: Vec<f32> = (0..4)
            .map(|inst| {
                fetch_vertex(&inp, 0, inst, &mut w);
                f32::from_bits(w[0])
            })
            .collect();
        assert_eq!(got, vec![2.0, 2.0, 3.0, 3.0]);
    }

    #[test]
    fn float_components_partly_past_the_end_read_zero() {
        // vec3 at stride 8 over 4 floats: vertex 0 lies inside (the whole-attribute load),
        // vertex 1's third component lies past the end (the per-component path).
        let data: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let inp = input(vec![array(
            data,
            8,
            3,
            gl::FLOAT,
            false,
            AttribMode::Float,
            0,
        )]);
        let mut w = [0u32; 8];
        fetch_vertex(&inp, 0, 0, &mut w);
        assert_eq!(floats(&w[..4]), vec![1.0, 2.0, 3.0, 1.0]);
        fetch_vertex(&inp, 1, 0, &mut w);
        assert_eq!(floats(&w[..4]), vec![3.0, 4.0, 0.0, 1.0]);
        fetch_vertex(&inp, 2, 0, &mut w);
        assert_eq!(floats(&w[..4]), vec![0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn absurd_strides_and_offsets_read_zero() {
        for (stride, offset, id) in [
            (usize::MAX / 2, 0usize, 3i64),
            (usize::MAX, usize::MAX, 1),
            (4, usize::MAX - 2, 0),
        ] {
            let mut a = array(
                vec![1; 64],
                stride,
                4,
                gl::FLOAT,
                false,
                AttribMode::Float,
                0,
            );
            if let AttribSource::Array { offset: o, .. } = &mut a.source {
                *o = offset;
            }
            let inp = input(vec![a]);
            let mut w = [7u32; 8];
            fetch_vertex(&inp, id, 0, &mut w);
            assert_eq!(floats(&w[..4]), vec![0.0, 0.0, 0.0, 0.0]);
        }
    }

    #[test]
    fn packed_formats() {
        // x = -1 (0x3FF), y = 511, z = 0, w = 1 (0b01)
        let w: u32 = 0x3FF | (511 << 10) | (1 << 30);
        let inp = input(vec![array(
            w.to_le_bytes().to_vec(),
            4,
            4,
            gl::INT_2_10_10_10_REV,
            true,
            AttribMode::Float,
            0,
        )]);
        let mut out = [0u32; 8];
        fetch_vertex(&inp, 0, 0, &mut out);
        assert_eq!(floats(&out[..4]), vec![-1.0 / 511.0, 1.0, 0.0, 1.0]);
        let inp = input(vec![array(
            w.to_le_bytes().to_vec(),
            4,
            4,
            gl::UNSIGNED_INT_2_10_10_10_REV,
            false,
            AttribMode::Float,
            0,
        )]);
        fetch_vertex(&inp, 0, 0, &mut out);
        assert_eq!(floats(&out[..4]), vec![1023.0, 511.0, 0.0, 1.0]);
        // r = 1.0 (e 15, m 0), g = 0.5 (e 14), b = 2.0 (e 16); 10-bit b has 5 mantissa bits.
        let w: u32 = (15 << 6) | ((14 << 6) << 11) | ((16 << 5) << 22);
        let inp = input(vec![array(
            w.to_le_bytes().to_vec(),
            4,
            3,
            gl::UNSIGNED_INT_10F_11F_11F_REV,
            false,
            AttribMode::Float,
            0,
        )]);
        fetch_vertex(&inp, 0, 0, &mut out);
        assert_eq!(floats(&out[..4]), vec![1.0, 0.5, 2.0, 1.0]);
        assert_eq!(small_float(1, 6), 1.0 / 64.0 / 16384.0);
        assert!(small_float(31 << 6, 6).is_infinite());
    }

    #[test]
    fn indices_and_base_vertex() {
        let mut inp = input(vec![]);
        inp.indices = Some(IndexSource {
            data: Arc::new([7u16, 9, 11].iter().flat_map(|i| i.to_le_bytes()).collect()),
            offset: 2,
            index_bytes: 2,
            restart: None,
        });
        inp.base_vertex = -3;
        assert_eq!(vertex_id(&inp, 0), 6);
        assert_eq!(vertex_id(&inp, 1), 8);
        assert_eq!(vertex_id(&inp, 2), -3); // past the end: index 0
        inp.indices = Some(IndexSource {
            data: Arc::new(vec![5, 6]),
            offset: 0,
            index_bytes: 1,
            restart: None,
        });
        inp.first = 1;
        assert_eq!(vertex_id(&inp, 0), 3);
        inp.indices = None;
        assert_eq!(vertex_id(&inp, 4), 5);
    }
}
