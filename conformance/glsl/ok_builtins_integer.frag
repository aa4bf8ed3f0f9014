// expect: ok
#version 400 core
flat in uvec2 u;
flat in ivec2 s;
out vec4 color;
void main() {
    uint carry, borrow;
    uint sum = uaddCarry(u.x, u.y, carry);
    uint diff = usubBorrow(u.x, u.y, borrow);
    uint hi, lo;
    umulExtended(u.x, u.y, hi, lo);
    ivec2 shi, slo;
    imulExtended(s, s, shi, slo);
    uint e = bitfieldExtract(u.x, 4, 8);
    ivec2 e2 = bitfieldExtract(s, 1, 3);
    uint ins = bitfieldInsert(u.x, u.y, 8, 8);
    uint rev = bitfieldReverse(u.x);
    int bc = bitCount(u.x) + findLSB(s.y) + findMSB(s.x) + findMSB(u.y);
    uint p = packUnorm4x8(vec4(0.5)) + packSnorm4x8(vec4(-0.5)) + packUnorm2x16(vec2(1.0)) + packSnorm2x16(vec2(0.0));
    vec4 q = unpackUnorm4x8(p) + unpackSnorm4x8(p) + vec4(unpackUnorm2x16(p), unpackSnorm2x16(p));
    color = q + vec4(float(sum + diff + hi + lo + carry + borrow + e + ins + rev + uint(bc)), vec2(shi + slo + e2), 1.0);
}
