// expect: ok
#version 400 core
uniform int i;
uniform uint u;
uniform mat3 m;
uniform mat2x3 m23;
out vec4 color;
void main() {
    int a = i << 2 | 1;
    a ^= 0x0F;
    a >>= 1u;
    a %= 5;
    uint b = u & 0xFFu;
    b = ~b + uint(a);
    b = i + u;
    ivec3 iv = ivec3(1, 2, 3) * 2 - ivec3(i);
    iv <<= 1;
    vec3 v = m * vec3(1.0) + vec3(1.0) * m;
    vec3 w = m23 * vec2(1.0, 2.0);
    vec2 x = vec3(1.0) * m23;
    mat3 mm = m * m;
    mm *= 2.0;
    mat3x2 t = transpose(m23);
    int p = a++ + ++a - a-- - --a;
    float f = -float(p) / 3.0 + float(!(a > 2) ^^ true);
    f = (f += 1.0, f * 2.0);
    bool bb = v != w && !(mm == m) || b >= 2u;
    color = vec4(v.x + w.y + x.x + f + t[0][1], float(iv.x), float(b), bb ? 1.0 : 0.0);
}
