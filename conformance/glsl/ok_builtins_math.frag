// expect: ok
#version 400 core
in vec3 v;
in vec2 uv;
out vec4 color;
void main() {
    vec3 a = sin(v) + cos(v) + tan(v) + asin(v) + acos(v) + atan(v) + atan(v, v.zxy);
    a += sinh(v) + cosh(v) + tanh(v) + asinh(v) + acosh(v) + atanh(v);
    a += radians(v) + degrees(v) + pow(v, v) + exp(v) + log(v) + exp2(v) + log2(v);
    a += sqrt(v) + inversesqrt(v) + abs(v) + sign(v) + floor(v) + trunc(v) + round(v);
    a += roundEven(v) + ceil(v) + fract(v) + mod(v, 2.0) + mod(v, v) + min(v, 1.0) + max(v, v);
    a += clamp(v, 0.0, 1.0) + clamp(v, v, v) + mix(v, v, 0.5) + mix(v, v, v);
    a += mix(v, v, bvec3(true, false, true)) + step(0.5, v) + step(v, v) + smoothstep(0.0, 1.0, v);
    a += fma(v, v, v) + vec3(isnan(v)) + vec3(isinf(v.x));
    a += vec3(floatBitsToInt(v.x)) + uintBitsToFloat(floatBitsToUint(v)) + intBitsToFloat(ivec3(1));
    float g = length(v) + distance(v, a) + dot(v, a);
    a += cross(v, a) + normalize(v) + faceforward(v, a, v) + reflect(v, a) + refract(v, a, 0.5);
    mat3 m = mat3(v, a, v);
    mat3 mi = inverse(m) + matrixCompMult(m, m) + outerProduct(v, a);
    float d = determinant(m) + determinant(mat2(1.0)) + determinant(mat4(2.0));
    mat4 m4 = inverse(mat4(3.0));
    bvec3 r = lessThan(v, a);
    r = not(r);
    bool any_ = any(r) || all(greaterThanEqual(v, a)) || any(equal(ivec2(1), ivec2(2)));
    vec2 dd = dFdx(uv) + dFdy(uv) + fwidth(uv) + dFdxFine(uv) + dFdyCoarse(uv);
    color = vec4(a + mi[1] + m4[2].xyz, g + d + (any_ ? 1.0 : 0.0) + dd.x);
}
