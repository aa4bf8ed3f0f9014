//! Deterministic float built-ins (GLSL 4.60 §8.1–8.3) shared by the interpreter and the JIT:
//! our own implementations, never the host libm, so results are identical on every CPU.
//!
//! INTERIM: the bodies below still call std (host libm) and are being replaced by our own
//! polynomial implementations; the signatures are the contract.

pub fn sin(x: f32) -> f32 {
    x.sin()
}
pub fn cos(x: f32) -> f32 {
    x.cos()
}
pub fn tan(x: f32) -> f32 {
    x.tan()
}
pub fn asin(x: f32) -> f32 {
    x.asin()
}
pub fn acos(x: f32) -> f32 {
    x.acos()
}
pub fn atan(x: f32) -> f32 {
    x.atan()
}
/// atan(y, x)
pub fn atan2(y: f32, x: f32) -> f32 {
    y.atan2(x)
}
pub fn sinh(x: f32) -> f32 {
    x.sinh()
}
pub fn cosh(x: f32) -> f32 {
    x.cosh()
}
pub fn tanh(x: f32) -> f32 {
    x.tanh()
}
pub fn asinh(x: f32) -> f32 {
    x.asinh()
}
pub fn acosh(x: f32) -> f32 {
    x.acosh()
}
pub fn atanh(x: f32) -> f32 {
    x.atanh()
}
pub fn exp(x: f32) -> f32 {
    x.exp()
}
pub fn exp2(x: f32) -> f32 {
    x.exp2()
}
pub fn log(x: f32) -> f32 {
    x.ln()
}
pub fn log2(x: f32) -> f32 {
    x.log2()
}
pub fn pow(x: f32, y: f32) -> f32 {
    x.powf(y)
}
