//! The syntax tree the parser builds: expressions, statements and declarations with spans.
//! Owns only the shapes; types are resolved and checked during lowering (`lower.rs`).

use super::diag::Span;

/// An expression with the span of its first token (operators: the operator's span).
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// Binary operators, including the logical ones (short-circuit is applied in lowering).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
    LogXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Prefix operators other than `++`/`--`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    BitNot,
    LogNot,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Ident(String),
    Int(i32),
    Uint(u32),
    Uint64(u64),
    Float(f32),
    /// A double literal (`1.5lf`, GLSL 4.00).
    Double(f64),
    Bool(bool),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b` (op None) or `a op= b`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// `++x`, `x--`, ...
    IncDec {
        pre: bool,
        inc: bool,
        e: Box<Expr>,
    },
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    /// A function call or a constructor (`vec4(...)`, `S(...)`, `float[3](...)`).
    Call(Callee, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// Struct member or swizzle.
    Field(Box<Expr>, String),
    /// `x.length()`
    Length(Box<Expr>),
    /// `{ a, b }` initializer list (GLSL 4.20).
    InitList(Vec<Expr>),
}

/// What a call names.
#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// A function or a struct constructor (resolved during lowering).
    Name(String),
    /// A type constructor, possibly an array type (`float[3]`, `vec2[]`).
    Type(TypeSpec),
    /// An element of an array of subroutine uniforms: `u[i](...)` (GLSL 4.60 §6.1.2).
    Indexed(String, Box<Expr>),
}

/// A type as written: a built-in type keyword or struct name, or an inline struct, plus
/// array dimensions (`None` = unsized `[]`).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeSpec {
    pub name: String,
    pub struct_def: Option<Box<StructDecl>>,
    pub dims: Vec<Option<Expr>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    pub name: Option<String>,
    pub members: Vec<MemberDecl>,
    pub span: Span,
}

/// A member line of a struct or block: `layout(..) type a, b[2];`
#[derive(Clone, Debug, PartialEq)]
pub struct MemberDecl {
    pub quals: Qualifiers,
    pub ty: TypeSpec,
    pub names: Vec<(String, Vec<Option<Expr>>, Span)>,
}

/// Storage qualifier.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    Const,
    In,
    Out,
    InOut,
    Uniform,
    Buffer,
    Attribute,
    Varying,
    Shared,
}

/// One `layout(...)` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutQual {
    pub name: String,
    pub value: Option<Expr>,
    pub span: Span,
}

/// Interpolation qualifier as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InterpQual {
    Smooth,
    Flat,
    NoPerspective,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Qualifiers {
    pub storage: Option<Storage>,
    pub layout: Vec<LayoutQual>,
    pub interp: Option<InterpQual>,
    pub invariant: bool,
    pub centroid: bool,
    pub precise: bool,
    /// Memory qualifiers (GLSL 4.60 §4.10). `coherent`, `volatile` and `restrict` change
    /// no code (every access goes straight to memory) but are kept: an image argument may
    /// not lose them through a parameter, and only images and buffer variables take them.
    pub readonly: bool,
    pub writeonly: bool,
    pub coherent: bool,
    pub volatile: bool,
    pub restrict: bool,
    /// `patch` (GLSL 4.00 §4.3: a per-patch tessellation input or output).
    pub patch: bool,
    /// `subroutine` or `subroutine(T, U)` (GLSL 4.60 §6.1.2), with where it was written.
    pub subroutine: Option<(SubroutineQual, Span)>,
    pub span: Span,
}

/// The two forms of the `subroutine` qualifier (GLSL 4.60 §6.1.2).
#[derive(Clone, Debug, PartialEq)]
pub enum SubroutineQual {
    /// `subroutine`: a subroutine type declaration or a subroutine uniform.
    Bare,
    /// `subroutine(T, U)`: a function associated with these subroutine types.
    Types(Vec<(String, Span)>),
}

/// One declarator of a declaration: `name[dims] = init`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: String,
    pub dims: Vec<Option<Expr>>,
    pub init: Option<Expr>,
    pub span: Span,
}

/// `quals type a = 1, b[2];` (also a struct declaration with no declarators).
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub quals: Qualifiers,
    pub ty: TypeSpec,
    pub decls: Vec<Declarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub quals: Qualifiers,
    pub ty: TypeSpec,
    pub name: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    /// The qualifiers written before the return type (`subroutine(T)`, `layout(index)`).
    pub quals: Qualifiers,
    pub ret: TypeSpec,
    pub name: String,
    pub params: Vec<Param>,
    /// None for a prototype.
    pub body: Option<Vec<Stmt>>,
    pub span: Span,
}

/// `layout(std140) uniform Name { members } inst[N];`
#[derive(Clone, Debug, PartialEq)]
pub struct BlockDecl {
    pub quals: Qualifiers,
    pub name: String,
    pub members: Vec<MemberDecl>,
    pub instance: Option<(String, Vec<Option<Expr>>)>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum External {
    Var(VarDecl),
    Function(FunctionDecl),
    Block(BlockDecl),
    /// `layout(...) uniform;`, `layout(...) in;`, `invariant gl_Position;` and the like.
    Qualifiers(Qualifiers, Vec<String>),
    /// `precision mediump float;`
    Precision,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Decl(VarDecl),
    Expr(Expr),
    Block(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        inc: Option<Expr>,
        body: Box<Stmt>,
    },
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    Switch(Expr, Vec<Stmt>),
    Case(Expr),
    Default,
    Break,
    Continue,
    Return(Option<Expr>),
    Discard,
    Empty,
    Precision,
}
