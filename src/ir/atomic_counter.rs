//! Atomic counter buffers in the IR (GLSL 4.60 §4.4.6.2, GL 4.5 core §7.7): how a stage's
//! `atomic_uint` counters ride on its storage blocks, the limits, and the link rules that
//! bind counters of several stages to one buffer.
//!
//! A stage's counters of one binding point form one hidden storage block named
//! `buffer_block_name(binding)` (a name no GLSL block can have, it has spaces); each
//! counter is a member of type `atomic_uint` at its byte offset, with array stride 4.
//! Counter operations are `Stmt::Storage` atomics and `Op::StorageLoad`s on that block, so
//! the interpreter, the JIT and the draw-time buffer plumbing of shader storage serve
//! counters unchanged: only the binding space (GL_ATOMIC_COUNTER_BUFFER) and reflection
//! differ, and `link` sorts the hidden blocks into `Linked::atomic_counter_buffers`.

use super::link::LinkError;
use super::{BlockDecl, BlockMember, Module};

/// `GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS`: `layout(binding)` of a counter is below it
/// (more points than buffers a program may use, so programs can spread their buffers).
pub const MAX_ATOMIC_COUNTER_BUFFER_BINDINGS: u32 = 32;
/// `GL_MAX_{VERTEX,…,COMPUTE}_ATOMIC_COUNTER_BUFFERS`: buffers one stage may use.
pub const MAX_STAGE_ATOMIC_COUNTER_BUFFERS: u32 = 8;
/// `GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS`: distinct buffers a program may use.
pub const MAX_COMBINED_ATOMIC_COUNTER_BUFFERS: u32 = 8;
/// `GL_MAX_{VERTEX,…,COMPUTE}_ATOMIC_COUNTERS`: counters (array elements count one each)
/// one stage may declare.
pub const MAX_STAGE_ATOMIC_COUNTERS: u32 = 1024;
/// `GL_MAX_COMBINED_ATOMIC_COUNTERS`: counters of all stages together.
pub const MAX_COMBINED_ATOMIC_COUNTERS: u32 = 4096;
/// `GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE` in bytes: the end of the last counter of a buffer.
pub const MAX_ATOMIC_COUNTER_BUFFER_SIZE: u32 = 16_384;

const PREFIX: &str = "atomic counter buffer ";

/// The name of the hidden storage block that holds the counters of `binding`.
pub fn buffer_block_name(binding: u32) -> String {
    format!("{PREFIX}{binding}")
}

/// The binding point of a hidden counter block's name; `None` for a real storage block.
/// A program pipeline's composition prefixes each program's block names with the program
/// and U+001F (`api::pipeline`); the counters keep their binding point.
pub fn buffer_binding(name: &str) -> Option<u32> {
    let name = name.rsplit('\u{1f}').next().unwrap_or(name);
    name.strip_prefix(PREFIX)?.parse().ok()
}

/// Whether `b` is a hidden counter block (not a `buffer` block of the shader).
pub fn is_counter_buffer(b: &BlockDecl) -> bool {
    buffer_binding(&b.name).is_some()
}

/// The shader storage blocks of `m`, without its counter blocks.
pub fn storage_block_count(m: &Module) -> usize {
    m.storage_blocks
        .iter()
        .filter(|b| !is_counter_buffer(b))
        .count()
}

/// Counters (array elements one each) a member list declares.
pub fn counter_count(members: &[BlockMember]) -> u32 {
    members.iter().map(|m| m.array_len.unwrap_or(1)).sum()
}

/// Bytes from the start of the buffer to the end of its last counter.
pub fn buffer_size(members: &[BlockMember]) -> u32 {
    members
        .iter()
        .map(|m| m.offset + 4 * m.array_len.unwrap_or(1))
        .max()
        .unwrap_or(0)
}

/// Whether counters `a` and `b` share a word.
fn overlap(a: &BlockMember, b: &BlockMember) -> bool {
    let end = |m: &BlockMember| m.offset + 4 * m.array_len.unwrap_or(1);
    a.offset < end(b) && b.offset < end(a)
}

/// The counter of `members` that overlaps `m` under another name, if any.
pub fn overlapping<'a>(members: &'a [BlockMember], m: &BlockMember) -> Option<&'a BlockMember> {
    members.iter().find(|o| o.name != m.name && overlap(o, m))
}

/// Adds another stage's counters of binding point `binding` to `into` (GLSL 4.60
/// §4.4.6.2: counters of one binding and offset in several stages are one counter, and
/// must have one name; distinct counters may not share a word).
pub fn merge_counters(
    into: &mut Vec<BlockMember>,
    from: &[BlockMember],
    binding: u32,
    errors: &mut Vec<LinkError>,
) {
    for m in from {
        if let Some(o) = overlapping(into, m) {
            errors.push(LinkError::AtomicCounterOverlap {
                a: o.name.clone(),
                b: m.name.clone(),
                binding,
            });
            continue;
        }
        match into.iter().find(|o| o.name == m.name) {
            Some(o) if o != m => errors.push(LinkError::AtomicCounterMismatch {
                name: m.name.clone(),
            }),
            Some(_) => {}
            None => into.push(m.clone()),
        }
    }
}

/// A counter name used in buffers of two binding points (two stages declaring one counter
/// with different bindings) is a link error (GLSL 4.60 §4.4.6.2: one counter, one binding
/// and offset). Buffers of one binding point are one buffer within a program; two of them
/// come from two programs of a pipeline, whose counters are their own.
pub fn check_names(buffers: &[super::link::Block], errors: &mut Vec<LinkError>) {
    for (i, b) in buffers.iter().enumerate() {
        for m in &b.members {
            if buffers[i + 1..]
                .iter()
                .any(|o| o.binding != b.binding && o.members.iter().any(|x| x.name == m.name))
            {
                errors.push(LinkError::AtomicCounterMismatch {
                    name: m.name.clone(),
                });
            }
        }
    }
}

/// The per-stage limits of `m`'s counters (GL 4.5 core table 23.57 ff.).
pub fn check_stage(m: &Module, stage: &'static str, errors: &mut Vec<LinkError>) {
    let buffers: Vec<&BlockDecl> = m
        .storage_blocks
        .iter()
        .filter(|b| is_counter_buffer(b))
        .collect();
    if buffers.len() as u32 > MAX_STAGE_ATOMIC_COUNTER_BUFFERS {
        errors.push(LinkError::AtomicCounterBuffers {
            stage,
            used: buffers.len() as u32,
        });
    }
    let counters: u32 = buffers.iter().map(|b| counter_count(&b.members)).sum();
    if counters > MAX_STAGE_ATOMIC_COUNTERS {
        errors.push(LinkError::AtomicCounters {
            stage,
            used: counters,
        });
    }
}

/// The program-wide limits over the stages' modules.
pub fn check_combined<'m>(
    modules: impl IntoIterator<Item = &'m Module>,
    errors: &mut Vec<LinkError>,
) {
    let mut bindings: Vec<u32> = Vec::new();
    let mut counters = 0u32;
    for m in modules {
        for b in &m.storage_blocks {
            if let Some(binding) = buffer_binding(&b.name) {
                if !bindings.contains(&binding) {
                    bindings.push(binding);
                }
                counters = counters.saturating_add(counter_count(&b.members));
            }
        }
    }
    if bindings.len() as u32 > MAX_COMBINED_ATOMIC_COUNTER_BUFFERS {
        errors.push(LinkError::AtomicCounterBuffers {
            stage: "combined",
            used: bindings.len() as u32,
        });
    }
    if counters > MAX_COMBINED_ATOMIC_COUNTERS {
        errors.push(LinkError::AtomicCounters {
            stage: "combined",
            used: counters,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BaseType, ValueType};

    fn counter(name: &str, offset: u32, len: Option<u32>) -> BlockMember {
        BlockMember {
            name: name.into(),
            ty: ValueType::new(BaseType::AtomicUint, 1, 1),
            array_len: len,
            offset,
            array_stride: if len.is_some() { 4 } else { 0 },
            matrix_stride: 0,
            row_major: false,
        }
    }

    #[test]
    fn names_round_trip_and_never_collide_with_glsl_names() {
        assert_eq!(buffer_binding(&buffer_block_name(7)), Some(7));
        assert_eq!(buffer_binding("Counters"), None);
        assert_eq!(buffer_binding("atomic counter buffer x"), None);
    }

    #[test]
    fn merging_keeps_one_counter_per_name_and_refuses_overlaps() {
        let mut into = vec![counter("a", 0, None), counter("b", 4, Some(2))];
        let mut errors = Vec::new();
        merge_counters(&mut into, &[counter("a", 0, None)], 0, &mut errors);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(into.len(), 2);
        merge_counters(&mut into, &[counter("c", 8, None)], 0, &mut errors);
        assert!(matches!(
            &errors[..],
            [LinkError::AtomicCounterOverlap { a, b, binding: 0 }] if a == "b" && b == "c"
        ));
        errors.clear();
        merge_counters(&mut into, &[counter("c", 12, None)], 0, &mut errors);
        assert!(errors.is_empty());
        assert_eq!(buffer_size(&into), 16);
        assert_eq!(counter_count(&into), 4);
    }
}
