//! The nesting limits of the GLSL front end: every depth of recursion that comes from the
//! source is capped here, and a source past a cap fails to compile with an error naming it
//! (never a stack overflow). The front end, the link and the JIT run on compiler threads
//! whose stack (`jit::COMPILER_STACK_BYTES`) is sized for these caps in a debug build, so
//! a GL call works from any caller's stack, however small (issue #11 item 1).
//!
//! Chosen to be at least as generous as Mesa's llvmpipe, which compiles 1,000 nested
//! parentheses on a 128 KiB stack; past these, no shader a person or a generator writes
//! for real use is refused. Each limit is tested at its value (compiles) and one past it
//! (a clean compile error) in `glsl/tests.rs`.
//!
//! | what nests | limit | counted where |
//! |---|---|---|
//! | parentheses, operators, calls, indices, initializer lists | [`MAX_EXPRESSION_NESTING`] | parser |
//! | statements: blocks, `if`, loops, `switch` | [`MAX_STATEMENT_NESTING`] | parser |
//! | one operator chain (`a + b + c …`) | [`MAX_OPERATOR_CHAIN`] | parser |
//! | function calls inside calls (inlining) | [`MAX_CALL_NESTING`] | lowering |
//! | statements and expressions after inlining | [`MAX_INLINED_NESTING`] | lowering |
//! | arrays and structs in a type | [`MAX_TYPE_NESTING`] | lowering |
//! | `#if` expressions: parentheses and operators | [`MAX_PP_EXPRESSION_NESTING`] | preprocessor |
//! | macro expansion inside macro arguments | [`MAX_MACRO_NESTING`] | preprocessor |
//! | `#if`/`#ifdef` groups | none: kept in a list, not on the stack | preprocessor |

/// Expressions nest at most this deep: one level per parenthesis, unary operator, operand
/// of a binary operator, branch of `?:`, right side of an assignment, function-call
/// argument, array index and initializer-list brace, along any path through the
/// expression. 1,000 nested parentheses compile (llvmpipe's figure on 128 KiB), with room
/// for the operators inside them.
pub const MAX_EXPRESSION_NESTING: u32 = 2_000;

/// Statements nest at most this deep: one level per block, `if` branch, loop body,
/// `switch` and struct member declaration, along any path.
pub const MAX_STATEMENT_NESTING: u32 = 1_000;

/// One chain of left-associative operators (`a + b + c …`, `a.b.c …`, `a[i][j] …`,
/// `a, b, c …`) has at most this many links along one path: the syntax tree of a chain is
/// as deep as the chain is long, and lowering walks it recursively.
pub const MAX_OPERATOR_CHAIN: u32 = 4_000;

/// Function calls nest at most this deep (a call inside the body of a called function
/// counts one more; GLSL has no recursion, and every call is inlined).
pub const MAX_CALL_NESTING: u32 = 64;

/// After inlining, statements and expressions nest at most this deep in the body being
/// lowered, counted through the bodies of inlined calls: the limit on the lowering's own
/// recursion and on the nesting of the IR it emits (which the IR validator, the shader
/// cache and the JIT walk recursively). A shader within the parser's limits and without
/// calls always fits.
pub const MAX_INLINED_NESTING: u32 =
    MAX_EXPRESSION_NESTING + MAX_STATEMENT_NESTING + MAX_OPERATOR_CHAIN;

/// Arrays and structs nest at most this deep in one type (`float a[1][1]…`, a struct
/// holding a struct …): every layout and copy walks types recursively, and deeper types
/// are never useful.
pub const MAX_TYPE_NESTING: u32 = 16;

/// `#if` / `#elif` / `#line` expressions nest at most this deep: one level per
/// parenthesis, unary operator and `?:` branch.
pub const MAX_PP_EXPRESSION_NESTING: u32 = 2_000;

/// Macro expansion nests at most this deep (a macro's argument is expanded, inside which
/// another argument is expanded, …); the total expansion work is capped separately, so a
/// macro bomb ends in an error too.
pub const MAX_MACRO_NESTING: u32 = 64;

/// The constant offsets textureOffset, texelFetchOffset and the other `*Offset` lookups
/// accept (GLSL 4.60 §8.9.2: gl_MinProgramTexelOffset, gl_MaxProgramTexelOffset; GL's
/// MIN/MAX_PROGRAM_TEXEL_OFFSET report the same). An offset outside is a compile error.
pub const TEXEL_OFFSETS: (i32, i32) = (-8, 7);

/// The offsets of textureGatherOffset(s) (GL 4.5 core §8.14.2,
/// MIN/MAX_PROGRAM_TEXTURE_GATHER_OFFSET; Mesa's llvmpipe reports the same). The gather
/// footprint wraps the offset texel coordinates in integers (`sampler::filter::gather`),
/// so any offset is safe; the range only bounds what a shader may write.
pub const GATHER_OFFSETS: (i32, i32) = (-32, 31);
