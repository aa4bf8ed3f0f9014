//! Current generic vertex attribute values (GL 4.5 core §10.2): what a disabled attribute
//! array reads, set by the glVertexAttrib* family (converted to floats, integers or 64-bit
//! values by the C marshalling in `gl/imp/attrib_value.rs`) and read back by the
//! CURRENT_VERTEX_ATTRIB queries in the type it was set with.

use crate::api::context::{limits, Context};
use crate::api::dispatch::gl_commands;
use crate::api::error::{GlError, GlResult};
use crate::gl::enums as gl;
use crate::gl::AttribType;

/// A current attribute value as it was specified (GL 4.5 core §10.2.1: floats, signed or
/// unsigned integers, or 64-bit values from the L commands, which hold the bits of doubles
/// or of ARB_bindless_texture handles).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum CurrentAttrib {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
    Long([u64; 4]),
}

impl CurrentAttrib {
    /// (0, 0, 0, 1) as floats (GL 4.5 core table 23.7).
    pub const INITIAL: CurrentAttrib = CurrentAttrib::Float([0.0, 0.0, 0.0, 1.0]);

    /// The 4 input words a vertex shader reads at the attribute's first location: floats
    /// and integers as their bits, 64-bit values two words each (low first), so the first
    /// two components.
    pub fn words(&self) -> [u32; 4] {
        match *self {
            CurrentAttrib::Float(v) => v.map(f32::to_bits),
            CurrentAttrib::Int(v) => v.map(|x| x as u32),
            CurrentAttrib::Uint(v) => v,
            CurrentAttrib::Long(v) => [
                v[0] as u32,
                (v[0] >> 32) as u32,
                v[1] as u32,
                (v[1] >> 32) as u32,
            ],
        }
    }

    /// The words of components 2 and 3 of a 64-bit value (a 3- or 4-component 64-bit
    /// vector's second location, GL 4.5 core §10.2.1); None for 32-bit values.
    pub fn high_words(&self) -> Option<[u32; 4]> {
        match *self {
            CurrentAttrib::Long(v) => Some([
                v[2] as u32,
                (v[2] >> 32) as u32,
                v[3] as u32,
                (v[3] >> 32) as u32,
            ]),
            _ => None,
        }
    }

    /// As doubles (GetVertexAttribdv / fv; mismatched types are undefined in GL, softgl
    /// converts the value numerically).
    fn as_f64(&self) -> [f64; 4] {
        match *self {
            CurrentAttrib::Float(v) => v.map(f64::from),
            CurrentAttrib::Int(v) => v.map(f64::from),
            CurrentAttrib::Uint(v) => v.map(f64::from),
            CurrentAttrib::Long(v) => v.map(f64::from_bits),
        }
    }
}

gl_commands! {
    /// glVertexAttrib1f.
    "glVertexAttrib1f" fn vertex_attrib_1f(index: u32, x: f32) = try_vertex_attrib_1f;
    /// glVertexAttrib2f.
    "glVertexAttrib2f" fn vertex_attrib_2f(index: u32, x: f32, y: f32) = try_vertex_attrib_2f;
    /// glVertexAttrib3f.
    "glVertexAttrib3f"
    fn vertex_attrib_3f(index: u32, x: f32, y: f32, z: f32) = try_vertex_attrib_3f;
    /// glVertexAttrib4f: every non-integer, non-L glVertexAttrib* command ends here
    /// (doubles, shorts and the normalized forms are converted to floats first, §10.2.1).
    "glVertexAttrib4f"
    fn vertex_attrib_4f(index: u32, x: f32, y: f32, z: f32, w: f32) = try_vertex_attrib_4f;
    /// glVertexAttrib4fv.
    "glVertexAttrib4fv" fn vertex_attrib_4fv(index: u32, v: &[f32]) = try_vertex_attrib_4fv;
    /// glVertexAttribI4i: every signed glVertexAttribI* command ends here.
    "glVertexAttribI4i"
    fn vertex_attrib_i4i(index: u32, x: i32, y: i32, z: i32, w: i32) = try_vertex_attrib_i4i;
    /// glVertexAttribI4ui: every unsigned glVertexAttribI* command ends here.
    "glVertexAttribI4ui"
    fn vertex_attrib_i4ui(index: u32, x: u32, y: u32, z: u32, w: u32) = try_vertex_attrib_i4ui;
    /// glVertexAttribL4d: every glVertexAttribL*d command ends here (missing components
    /// are 0, 0, 1 as for the other forms); the doubles are kept as doubles.
    "glVertexAttribL4d"
    fn vertex_attrib_l4d(index: u32, x: f64, y: f64, z: f64, w: f64) = try_vertex_attrib_l4d;
    /// glVertexAttribP4ui and the P1..P3 forms (`size` components; GL 4.5 core §10.2.1):
    /// INT_2_10_10_10_REV, UNSIGNED_INT_2_10_10_10_REV or UNSIGNED_INT_10F_11F_11F_REV.
    "glVertexAttribP4ui"
    fn vertex_attrib_p(index: u32, size: u32, ty: u32, normalized: bool, value: u32)
        = try_vertex_attrib_p;
    /// glVertexAttribL1ui64ARB (ARB_bindless_texture): words 0..2 hold the handle, low first.
    "glVertexAttribL1ui64ARB"
    fn vertex_attrib_l1ui64_arb(index: u32, x: u64) = try_vertex_attrib_l1ui64_arb;
    /// glVertexAttribL1ui64vARB.
    "glVertexAttribL1ui64vARB"
    fn vertex_attrib_l1ui64v_arb(index: u32, v: &[u64]) = try_vertex_attrib_l1ui64v_arb;
    /// glGetVertexAttribLui64vARB: only GL_CURRENT_VERTEX_ATTRIB.
    "glGetVertexAttribLui64vARB"
    fn get_vertex_attrib_lui64v_arb(index: u32, pname: u32) -> u64
        = try_get_vertex_attrib_lui64v_arb;
    /// glGetVertexAttribfv: CURRENT_VERTEX_ATTRIB (4 values) or the array state.
    "glGetVertexAttribfv"
    fn get_vertex_attribfv(index: u32, pname: u32) -> Vec<f32> = try_get_vertex_attribfv;
    /// glGetVertexAttribdv.
    "glGetVertexAttribdv"
    fn get_vertex_attribdv(index: u32, pname: u32) -> Vec<f64> = try_get_vertex_attribdv;
    /// glGetVertexAttribIiv.
    "glGetVertexAttribIiv"
    fn get_vertex_attrib_iiv(index: u32, pname: u32) -> Vec<i32> = try_get_vertex_attrib_iiv;
    /// glGetVertexAttribIuiv.
    "glGetVertexAttribIuiv"
    fn get_vertex_attrib_iuiv(index: u32, pname: u32) -> Vec<u32> = try_get_vertex_attrib_iuiv;
    /// glGetVertexAttribLdv.
    "glGetVertexAttribLdv"
    fn get_vertex_attrib_ldv(index: u32, pname: u32) -> Vec<f64> = try_get_vertex_attrib_ldv;
    /// glGetVertexAttribPointerv (VERTEX_ATTRIB_ARRAY_POINTER): the attribute's offset into
    /// its buffer (the binding's offset plus the relative offset).
    "glGetVertexAttribPointerv"
    fn get_vertex_attrib_pointerv(index: u32, pname: u32) -> usize = try_get_vertex_attrib_pointerv;
}

fn check_index(index: u32) -> GlResult<usize> {
    if index >= limits::MAX_VERTEX_ATTRIBS {
        return Err(GlError::InvalidValue("index past GL_MAX_VERTEX_ATTRIBS"));
    }
    Ok(index as usize)
}

impl Context {
    fn set_current(&mut self, index: u32, v: CurrentAttrib) -> GlResult<()> {
        let i = check_index(index)?;
        self.current_attribs[i] = v;
        Ok(())
    }

    pub(crate) fn try_vertex_attrib_1f(&mut self, index: u32, x: f32) -> GlResult<()> {
        self.try_vertex_attrib_4f(index, x, 0.0, 0.0, 1.0)
    }
    pub(crate) fn try_vertex_attrib_2f(&mut self, index: u32, x: f32, y: f32) -> GlResult<()> {
        self.try_vertex_attrib_4f(index, x, y, 0.0, 1.0)
    }
    pub(crate) fn try_vertex_attrib_3f(
        &mut self,
        index: u32,
        x: f32,
        y: f32,
        z: f32,
    ) -> GlResult<()> {
        self.try_vertex_attrib_4f(index, x, y, z, 1.0)
    }
    pub(crate) fn try_vertex_attrib_4f(
        &mut self,
        index: u32,
        x: f32,
        y: f32,
        z: f32,
        w: f32,
    ) -> GlResult<()> {
        self.set_current(index, CurrentAttrib::Float([x, y, z, w]))
    }
    pub(crate) fn try_vertex_attrib_4fv(&mut self, index: u32, v: &[f32]) -> GlResult<()> {
        if v.len() < 4 {
            return Err(GlError::InvalidValue("need 4 values"));
        }
        self.try_vertex_attrib_4f(index, v[0], v[1], v[2], v[3])
    }
    pub(crate) fn try_vertex_attrib_i4i(
        &mut self,
        index: u32,
        x: i32,
        y: i32,
        z: i32,
        w: i32,
    ) -> GlResult<()> {
        self.set_current(index, CurrentAttrib::Int([x, y, z, w]))
    }
    pub(crate) fn try_vertex_attrib_i4ui(
        &mut self,
        index: u32,
        x: u32,
        y: u32,
        z: u32,
        w: u32,
    ) -> GlResult<()> {
        self.set_current(index, CurrentAttrib::Uint([x, y, z, w]))
    }
    pub(crate) fn try_vertex_attrib_l4d(
        &mut self,
        index: u32,
        x: f64,
        y: f64,
        z: f64,
        w: f64,
    ) -> GlResult<()> {
        self.set_current(index, CurrentAttrib::Long([x, y, z, w].map(f64::to_bits)))
    }
    pub(crate) fn try_vertex_attrib_p(
        &mut self,
        index: u32,
        size: u32,
        ty: u32,
        normalized: bool,
        value: u32,
    ) -> GlResult<()> {
        let t = AttribType::from_gl(ty)
            .filter(|t| t.is_packed())
            .ok_or(GlError::BadEnum("packed attribute type", ty))?;
        let v = crate::raster::fetch::unpack_packed(t, normalized, value);
        // Components the command does not give take (0, 0, 0, 1) (§10.2.1).
        let mut out = [0.0, 0.0, 0.0, 1.0];
        let n = (size as usize).clamp(1, 4);
        out[..n].copy_from_slice(&v[..n]);
        self.set_current(index, CurrentAttrib::Float(out))
    }
    pub(crate) fn try_vertex_attrib_l1ui64_arb(&mut self, index: u32, x: u64) -> GlResult<()> {
        self.set_current(index, CurrentAttrib::Long([x, 0, 0, 0]))
    }
    pub(crate) fn try_vertex_attrib_l1ui64v_arb(&mut self, index: u32, v: &[u64]) -> GlResult<()> {
        match v.first() {
            Some(&x) => self.try_vertex_attrib_l1ui64_arb(index, x),
            None => Err(GlError::InvalidValue("need 1 value")),
        }
    }

    /// The current value of attribute `index` for pname CURRENT_VERTEX_ATTRIB; the array
    /// state (as one integer) for any other pname glGetVertexAttribiv takes.
    fn attrib_query(&mut self, index: u32, pname: u32) -> GlResult<Result<CurrentAttrib, i32>> {
        let i = check_index(index)?;
        if pname == gl::CURRENT_VERTEX_ATTRIB {
            return Ok(Ok(self.current_attribs[i]));
        }
        Ok(Err(self.try_get_vertex_attribiv(index, pname)?))
    }

    pub(crate) fn try_get_vertex_attrib_lui64v_arb(
        &mut self,
        index: u32,
        pname: u32,
    ) -> GlResult<u64> {
        let i = check_index(index)?;
        if pname != gl::CURRENT_VERTEX_ATTRIB {
            return Err(GlError::BadEnum("pname", pname));
        }
        let w = self.current_attribs[i].words();
        Ok(w[0] as u64 | (w[1] as u64) << 32)
    }

    pub(crate) fn try_get_vertex_attribdv(&mut self, index: u32, pname: u32) -> GlResult<Vec<f64>> {
        Ok(match self.attrib_query(index, pname)? {
            Ok(v) => v.as_f64().to_vec(),
            Err(x) => vec![x as f64],
        })
    }

    pub(crate) fn try_get_vertex_attribfv(&mut self, index: u32, pname: u32) -> GlResult<Vec<f32>> {
        Ok(match self.attrib_query(index, pname)? {
            Ok(CurrentAttrib::Float(v)) => v.to_vec(),
            Ok(v) => v.as_f64().map(|x| x as f32).to_vec(),
            Err(x) => vec![x as f32],
        })
    }

    pub(crate) fn try_get_vertex_attrib_iiv(
        &mut self,
        index: u32,
        pname: u32,
    ) -> GlResult<Vec<i32>> {
        Ok(match self.attrib_query(index, pname)? {
            Ok(CurrentAttrib::Int(v)) => v.to_vec(),
            Ok(CurrentAttrib::Uint(v)) => v.map(|x| x as i32).to_vec(),
            // Floats read as integers: GL leaves this undefined; the value, truncated.
            Ok(v) => v.as_f64().map(|x| x as i32).to_vec(),
            Err(x) => vec![x],
        })
    }

    pub(crate) fn try_get_vertex_attrib_iuiv(
        &mut self,
        index: u32,
        pname: u32,
    ) -> GlResult<Vec<u32>> {
        Ok(match self.attrib_query(index, pname)? {
            Ok(CurrentAttrib::Uint(v)) => v.to_vec(),
            Ok(CurrentAttrib::Int(v)) => v.map(|x| x as u32).to_vec(),
            Ok(v) => v.as_f64().map(|x| x as u32).to_vec(),
            Err(x) => vec![x as u32],
        })
    }

    pub(crate) fn try_get_vertex_attrib_ldv(
        &mut self,
        index: u32,
        pname: u32,
    ) -> GlResult<Vec<f64>> {
        self.try_get_vertex_attribdv(index, pname)
    }

    pub(crate) fn try_get_vertex_attrib_pointerv(
        &mut self,
        index: u32,
        pname: u32,
    ) -> GlResult<usize> {
        check_index(index)?;
        if pname != gl::VERTEX_ATTRIB_ARRAY_POINTER {
            return Err(GlError::BadEnum(
                "vertex attribute pointer parameter",
                pname,
            ));
        }
        Ok(self.attrib_pointer_offset(index as usize))
    }
}

/// One normalized fixed-point component (little-endian bytes of `ty`) as a float, exactly
/// as vertex fetch converts it (GL 4.5 core §2.3.5.1).
pub(crate) fn normalized(ty: AttribType, le: &[u8]) -> f32 {
    let mut b = [0u8; 8];
    b[..le.len().min(8)].copy_from_slice(&le[..le.len().min(8)]);
    crate::raster::fetch::component_f32(ty, true, b)
}
