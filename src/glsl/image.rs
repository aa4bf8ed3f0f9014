//! Images in GLSL (GLSL 4.60 §4.1.7.2, §4.4.6.2, §4.10, §8.12; GL_ARB_shader_image_load_store,
//! GL_ARB_shader_image_size): the format and memory qualifiers of image variables (kept in
//! the image type, `ir::ImageType`, so that function parameters carry their own), and the
//! image built-ins, lowered to `Stmt::Image`. What an image handle reaches and every bounds
//! check is the sampler's (`sampler::storage_image`).
//!
//! Compile errors, as the spec lists them: an image uniform that is not `writeonly` needs
//! a format qualifier, whose class (float, int, uint) matches the type's; imageLoad on a
//! `writeonly` image, imageStore on a `readonly` one, atomics on either; atomics need the
//! r32i (iimage) or r32ui (uimage) format, or r32f for imageAtomicExchange; an argument
//! may not lose a memory qualifier when passed to a parameter.

use crate::ir::{BaseType, ImageType, SampledType, ScalarKind, Stmt, ValueType, Var};
use crate::sampler::storage_image::{ImageClass, ImageFormat, ImageOp};

use super::ast::{Expr, Qualifiers};
use super::diag::Span;
use super::lower::{bail, Lowerer, Value, R};
use super::types::Type;

/// Whether an argument of image type `from` may be passed to a parameter of type `to`
/// (GLSL 4.60 §4.10: same image type; the parameter keeps every memory qualifier of the
/// argument and names no other format).
pub(super) fn image_arg_fits(from: ImageType, to: ImageType) -> bool {
    from.dim == to.dim
        && from.sampled == to.sampled
        && (to.format.is_none() || to.format == from.format)
        && (!from.readonly || to.readonly)
        && (!from.writeonly || to.writeonly)
        && (!from.coherent || to.coherent)
        && (!from.volatile || to.volatile)
        && (!from.restrict || to.restrict)
}

/// `ty` with the image qualifiers of `q` applied to its image base (through arrays).
fn qualified(ty: &Type, f: &dyn Fn(ImageType) -> ImageType) -> Type {
    match ty {
        Type::Basic(v) => match v.base {
            BaseType::Image(i) => Type::Basic(ValueType {
                base: BaseType::Image(f(i)),
                ..*v
            }),
            _ => ty.clone(),
        },
        Type::Array(e, n) => Type::Array(Box::new(qualified(e, f)), *n),
        _ => ty.clone(),
    }
}

/// The image type inside `ty` (itself or its array elements).
pub(super) fn image_of(ty: &Type) -> Option<ImageType> {
    match ty {
        Type::Basic(v) => match v.base {
            BaseType::Image(i) => Some(i),
            _ => None,
        },
        Type::Array(e, _) => image_of(e),
        _ => None,
    }
}

impl Lowerer {
    /// Applies a declaration's format layout qualifier and `readonly`/`writeonly` to the
    /// image type in `ty` (GLSL 4.60 §4.4.6.2, §4.10). `uniform`: the declaration is an
    /// image uniform, which needs a format unless `writeonly`.
    pub(super) fn qualify_image_type(
        &mut self,
        ty: &Type,
        q: &Qualifiers,
        uniform: bool,
        span: Span,
    ) -> R<Type> {
        let mut formats = q
            .layout
            .iter()
            .filter_map(|l| ImageFormat::from_glsl(&l.name).map(|f| (f, l)));
        let format = formats.next();
        if let Some((_, l)) = formats.next() {
            bail!(self, l.span, "more than one format layout qualifier");
        }
        let Some(image) = image_of(ty) else {
            if let Some((f, l)) = format {
                bail!(
                    self,
                    l.span,
                    "format layout qualifier `{}' applies only to image variables",
                    f.glsl_name()
                );
            }
            // GLSL 4.60 §4.10: memory qualifiers belong to images and buffer variables.
            if (q.readonly || q.writeonly || q.coherent || q.volatile || q.restrict)
                && q.storage != Some(super::ast::Storage::Buffer)
                && ty.contains_sampler()
            {
                bail!(
                    self,
                    span,
                    "memory qualifiers apply only to images and buffer variables, not to {ty}"
                );
            }
            return Ok(ty.clone());
        };
        if let Some((f, l)) = format {
            let class = match image.sampled {
                SampledType::Float => ImageClass::Float,
                SampledType::Int => ImageClass::Int,
                SampledType::Uint => ImageClass::Uint,
            };
            if f.class() != class {
                bail!(
                    self,
                    l.span,
                    "format layout qualifier `{}' does not match the image type {}",
                    f.glsl_name(),
                    image.name()
                );
            }
        }
        if uniform && format.is_none() && !q.writeonly {
            bail!(
                self,
                span,
                "image uniform of type {} needs a format layout qualifier unless it is writeonly",
                image.name()
            );
        }
        let format = format.map(|f| f.0);
        Ok(qualified(ty, &|i| ImageType {
            format: format.or(i.format),
            readonly: i.readonly || q.readonly,
            writeonly: i.writeonly || q.writeonly,
            coherent: i.coherent || q.coherent,
            volatile: i.volatile || q.volatile,
            restrict: i.restrict || q.restrict,
            ..i
        }))
    }

    /// imageLoad, imageStore, imageSize, imageSamples and imageAtomic* (GLSL 4.60 §8.12):
    /// `None` when `name` is not an image built-in.
    pub(super) fn image_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<R<Value>> {
        let op = match name {
            "imageLoad" => ImageOp::Load,
            "imageStore" => ImageOp::Store,
            "imageSize" | "imageSamples" => ImageOp::Size,
            "imageAtomicAdd" => ImageOp::AtomicAdd,
            "imageAtomicMin" => ImageOp::AtomicMinU,
            "imageAtomicMax" => ImageOp::AtomicMaxU,
            "imageAtomicAnd" => ImageOp::AtomicAnd,
            "imageAtomicOr" => ImageOp::AtomicOr,
            "imageAtomicXor" => ImageOp::AtomicXor,
            "imageAtomicExchange" => ImageOp::AtomicExchange,
            "imageAtomicCompSwap" => ImageOp::AtomicCompSwap,
            _ => return None,
        };
        Some(self.image_builtin(name, op, args, span))
    }

    fn image_builtin(&mut self, name: &str, op: ImageOp, args: &[Expr], span: Span) -> R<Value> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.expr(a)?);
        }
        let image = match vals.first().map(|v| &v.ty) {
            Some(Type::Basic(v)) if v.rows == 1 && v.cols == 1 => match v.base {
                BaseType::Image(i) => i,
                _ => bail!(self, span, "the first argument of {name} must be an image"),
            },
            _ => bail!(self, span, "the first argument of {name} must be an image"),
        };
        let handle = [vals[0].vars[0], vals[0].vars[1]];
        let dim = image.dim;
        let int = |n: u8| {
            if n == 1 {
                Type::scalar(BaseType::Int)
            } else {
                Type::vector(BaseType::Int, n)
            }
        };
        let texel_base = match image.sampled {
            SampledType::Float => BaseType::Float,
            SampledType::Int => BaseType::Int,
            SampledType::Uint => BaseType::Uint,
        };
        let texel_kind = super::types::base_kind(texel_base);
        if matches!(name, "imageSize" | "imageSamples") {
            if args.len() != 1 {
                bail!(self, span, "{name} takes one argument");
            }
            if name == "imageSize" && self.version < 430 && !self.memory.image_size {
                bail!(
                    self,
                    span,
                    "imageSize requires GLSL 4.30 or GL_ARB_shader_image_size"
                );
            }
            if name == "imageSamples" && !dim.is_ms() {
                bail!(
                    self,
                    span,
                    "no matching function for call to `imageSamples({})' (multisample images only)",
                    image.name()
                );
            }
            let n = dim.size_comps();
            let dst: Vec<Var> = (0..4).map(|_| self.new_var(ScalarKind::I32)).collect();
            self.emit(Stmt::Image {
                op,
                dim,
                handle,
                coord: [None; 3],
                sample: None,
                data: [None; 4],
                dst: [Some(dst[0]), Some(dst[1]), Some(dst[2]), Some(dst[3])],
            });
            return Ok(if name == "imageSamples" {
                Value {
                    ty: int(1),
                    vars: vec![dst[3]],
                }
            } else {
                Value {
                    ty: int(n),
                    vars: dst[..n as usize].to_vec(),
                }
            });
        }
        // The coordinate (and a multisample image's sample), then the op's data.
        let n_data = match op {
            ImageOp::Load => 0,
            ImageOp::Store => 1,
            ImageOp::AtomicCompSwap => 2,
            _ => 1,
        };
        let fixed = 2 + dim.is_ms() as usize;
        if args.len() != fixed + n_data {
            bail!(
                self,
                span,
                "{name} on {} takes {} arguments",
                image.name(),
                fixed + n_data
            );
        }
        let coord_ty = int(dim.coord_comps());
        if vals[1].ty != coord_ty {
            bail!(
                self,
                args[1].span,
                "{name}: the coordinate of {} must be {coord_ty}, not {}",
                image.name(),
                vals[1].ty
            );
        }
        let mut coord = [None; 3];
        for (c, v) in coord.iter_mut().zip(&vals[1].vars) {
            *c = Some(*v);
        }
        let sample = if dim.is_ms() {
            if vals[2].ty != int(1) {
                bail!(self, args[2].span, "{name}: the sample must be an int");
            }
            Some(vals[2].vars[0])
        } else {
            None
        };
        let data_vals = &vals[fixed..];
        match op {
            ImageOp::Load => {
                if image.writeonly {
                    bail!(self, args[0].span, "imageLoad on a writeonly image");
                }
                let dst: Vec<Var> = (0..4).map(|_| self.new_var(texel_kind)).collect();
                self.emit(Stmt::Image {
                    op,
                    dim,
                    handle,
                    coord,
                    sample,
                    data: [None; 4],
                    dst: [Some(dst[0]), Some(dst[1]), Some(dst[2]), Some(dst[3])],
                });
                Ok(Value {
                    ty: Type::vector(texel_base, 4),
                    vars: dst,
                })
            }
            ImageOp::Store => {
                if image.readonly {
                    bail!(self, args[0].span, "imageStore on a readonly image");
                }
                let want = Type::vector(texel_base, 4);
                let v = &data_vals[0];
                if v.ty != want {
                    bail!(
                        self,
                        args[fixed].span,
                        "imageStore: the data for {} must be {want}, not {}",
                        image.name(),
                        v.ty
                    );
                }
                let d = &v.vars;
                self.emit(Stmt::Image {
                    op,
                    dim,
                    handle,
                    coord,
                    sample,
                    data: [Some(d[0]), Some(d[1]), Some(d[2]), Some(d[3])],
                    dst: [None; 4],
                });
                Ok(Value {
                    ty: Type::Void,
                    vars: Vec::new(),
                })
            }
            _ => {
                if image.readonly || image.writeonly {
                    let q = if image.readonly {
                        "readonly"
                    } else {
                        "writeonly"
                    };
                    bail!(self, args[0].span, "{name} on a {q} image");
                }
                let ok = match image.format {
                    Some(ImageFormat::R32i) => image.sampled == SampledType::Int,
                    Some(ImageFormat::R32ui) => image.sampled == SampledType::Uint,
                    // The float exchange is GLSL 4.50's; GL_ARB_shader_image_load_store has
                    // only the integer forms (as Mesa reads it).
                    Some(ImageFormat::R32f) => op == ImageOp::AtomicExchange && self.version >= 450,
                    _ => false,
                };
                if !ok {
                    bail!(
                        self,
                        args[0].span,
                        "{name} needs an image declared with the r32i or r32ui format{}",
                        if op == ImageOp::AtomicExchange {
                            " (or r32f from GLSL 4.50)"
                        } else {
                            ""
                        }
                    );
                }
                let signed = image.sampled == SampledType::Int;
                let op = match op {
                    ImageOp::AtomicMinU if signed => ImageOp::AtomicMinI,
                    ImageOp::AtomicMaxU if signed => ImageOp::AtomicMaxI,
                    o => o,
                };
                let want = Type::scalar(texel_base);
                for (i, v) in data_vals.iter().enumerate() {
                    if v.ty != want {
                        bail!(
                            self,
                            args[fixed + i].span,
                            "{name}: the data for {} must be {want}, not {}",
                            image.name(),
                            v.ty
                        );
                    }
                }
                let dst = self.new_var(texel_kind);
                let mut data = [None; 4];
                for (d, v) in data.iter_mut().zip(data_vals) {
                    *d = Some(v.vars[0]);
                }
                self.emit(Stmt::Image {
                    op,
                    dim,
                    handle,
                    coord,
                    sample,
                    data,
                    dst: [Some(dst), None, None, None],
                });
                Ok(Value {
                    ty: want,
                    vars: vec![dst],
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{BaseType, Stage};
    use crate::sampler::storage_image::{ImageDim, ImageFormat};

    fn compile(stage: Stage, src: &str) -> Result<crate::ir::Module, String> {
        let out = crate::glsl::compile(stage, src);
        out.module.ok_or(out.info_log)
    }

    fn fails(src: &str, msg: &str) {
        match compile(Stage::Compute, src) {
            Ok(_) => panic!("expected an error containing `{msg}':\n{src}"),
            Err(log) => assert!(log.contains(msg), "`{msg}' not in:\n{log}"),
        }
    }

    const HEAD: &str = "#version 450\nlayout(local_size_x = 1) in;\n";

    /// Every image type of every dimensionality, with every format of its class, declares
    /// and reflects with its GL type enum; imageSize answers its dimensionality's size.
    #[test]
    fn every_type_and_format_declares() {
        for d in ImageDim::ALL {
            for (p, class) in [("", "f"), ("i", "i"), ("u", "ui")] {
                let name = format!("{p}image{}", d.suffix());
                let fmt = ImageFormat::ALL
                    .into_iter()
                    .find(|f| match class {
                        "f" => f.class() == super::ImageClass::Float,
                        "i" => f.class() == super::ImageClass::Int,
                        _ => f.class() == super::ImageClass::Uint,
                    })
                    .unwrap();
                let n = d.size_comps();
                let size_ty = if n == 1 {
                    "int".to_string()
                } else {
                    format!("ivec{n}")
                };
                let src = format!(
                    "{HEAD}layout({}, binding = 2) uniform {name} img;\n\
                     layout(std430) buffer B {{ int o; }};\n\
                     void main() {{ {size_ty} s = imageSize(img); o = s{}; }}\n",
                    fmt.glsl_name(),
                    if n == 1 { "" } else { ".x" }
                );
                let m = compile(Stage::Compute, &src).unwrap_or_else(|l| panic!("{l}\n{src}"));
                let u = &m.uniforms[0];
                let BaseType::Image(i) = u.ty.base else {
                    panic!("{name} is not an image")
                };
                assert_eq!(i.name(), name);
                assert_eq!(i.format, Some(fmt));
                assert_eq!(u.binding, Some(2));
                assert_eq!(u.ty.gl_enum(), i.gl_enum());
            }
        }
        for f in ImageFormat::ALL {
            let t = match f.class() {
                super::ImageClass::Float => "image2D",
                super::ImageClass::Int => "iimage2D",
                super::ImageClass::Uint => "uimage2D",
            };
            let src = format!(
                "{HEAD}layout({}) uniform {t} img;\nvoid main() {{}}\n",
                f.glsl_name()
            );
            compile(Stage::Compute, &src).unwrap_or_else(|l| panic!("{l}\n{src}"));
        }
    }

    /// The compile errors of GLSL 4.60 §4.4.6.2, §4.10 and §8.12.
    #[test]
    fn qualifier_and_call_errors() {
        let body = |decl: &str, stmt: &str| format!("{HEAD}{decl}\nvoid main() {{ {stmt} }}\n");
        fails(
            &body("uniform image2D i;", ""),
            "needs a format layout qualifier",
        );
        fails(
            &body("layout(r32i) uniform image2D i;", ""),
            "does not match",
        );
        fails(
            &body("layout(rgba8) uniform uimage2D i;", ""),
            "does not match",
        );
        fails(
            &body("layout(rgba8) uniform float x;", ""),
            "applies only to image",
        );
        fails(
            &body(
                "layout(rgba8) writeonly uniform image2D i;",
                "vec4 v = imageLoad(i, ivec2(0));",
            ),
            "imageLoad on a writeonly image",
        );
        fails(
            &body(
                "layout(rgba8) readonly uniform image2D i;",
                "imageStore(i, ivec2(0), vec4(1));",
            ),
            "imageStore on a readonly image",
        );
        fails(
            &body(
                "layout(rgba8ui) uniform uimage2D i;",
                "imageAtomicAdd(i, ivec2(0), 1u);",
            ),
            "r32i or r32ui",
        );
        fails(
            &body(
                "layout(r32f) uniform image2D i;",
                "imageAtomicAdd(i, ivec2(0), 1.0);",
            ),
            "r32i or r32ui",
        );
        fails(
            &body(
                "layout(r32ui) readonly uniform uimage2D i;",
                "imageAtomicOr(i, ivec2(0), 1u);",
            ),
            "on a readonly image",
        );
        fails(
            &body(
                "layout(r32ui) uniform uimage2D i;",
                "imageStore(i, ivec2(0), ivec4(1));",
            ),
            "must be uvec4",
        );
        fails(
            &body(
                "layout(r32ui) uniform uimage2D i;",
                "imageStore(i, 0, uvec4(1));",
            ),
            "must be ivec2",
        );
        fails(
            &body(
                "layout(r32ui) uniform uimage2D i;",
                "int n = imageSamples(i);",
            ),
            "multisample images only",
        );
        fails(
            &body(
                "layout(r32ui) uniform uimage2DMS i;",
                "uvec4 t = imageLoad(i, ivec2(0));",
            ),
            "takes 3 arguments",
        );
        // A readonly argument may not lose its qualifier through a parameter.
        fails(
            &format!(
                "{HEAD}layout(r32f) readonly uniform image2D i;\n\
                 void f(image2D p) {{}}\nvoid main() {{ f(i); }}\n"
            ),
            "no matching function",
        );
        // Below GLSL 4.20 image types are plain identifiers without the extension.
        assert!(compile(
            Stage::Fragment,
            "#version 330\nlayout(r32f) uniform image2D i;\nvoid main() {}\n"
        )
        .is_err());
    }

    /// What does compile: writeonly without a format, r32f exchange, parameters that add
    /// qualifiers, multisample loads with a sample, a fragment shader counting itself.
    #[test]
    fn accepted_forms() {
        let ok = |stage, src: &str| {
            compile(stage, src).unwrap_or_else(|l| panic!("{l}\n{src}"));
        };
        ok(
            Stage::Compute,
            &format!(
                "{HEAD}writeonly uniform image2D w;\n\
                 layout(r32f) uniform image2D f;\n\
                 layout(r32i) coherent volatile restrict uniform iimage2DMSArray ms;\n\
                 float g(readonly image2D p) {{ return imageLoad(p, ivec2(1)).x; }}\n\
                 void main() {{\n\
                   imageStore(w, ivec2(0), vec4(g(f)));\n\
                   float old = imageAtomicExchange(f, ivec2(0), 2.0);\n\
                   int s = imageSamples(ms) + imageAtomicMin(ms, ivec3(0), 1, 0);\n\
                   ivec4 t = imageLoad(ms, ivec3(0, 0, 1), s);\n\
                   imageStore(ms, ivec3(0), 1, t);\n\
                 }}\n"
            ),
        );
        ok(
            Stage::Fragment,
            "#version 420\n\
             layout(early_fragment_tests) in;\n\
             layout(r32ui) uniform uimage2D c;\nout vec4 o;\n\
             void main() { imageAtomicAdd(c, ivec2(gl_FragCoord.xy), 1u); o = vec4(1.0); }\n",
        );
        let m = compile(
            Stage::Compute,
            &format!("{HEAD}layout(std430) buffer B {{ int o[9]; }};\nvoid main() {{ o[0] = gl_MaxImageUnits; o[1] = gl_MaxFragmentImageUniforms; o[2] = gl_MaxCombinedImageUniforms; o[3] = gl_MaxImageSamples; o[4] = gl_MaxComputeImageUniforms; o[5] = gl_MaxCombinedImageUnitsAndFragmentOutputs; o[6] = gl_MaxVertexImageUniforms; }}\n"),
        );
        assert!(m.is_ok(), "{:?}", m.err());
    }
}
