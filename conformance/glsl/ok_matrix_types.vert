// expect: ok
#version 330 core
uniform mat2x3 a;
uniform mat2x4 b;
uniform mat3x2 c;
uniform mat3x4 d;
uniform mat4x2 e;
uniform mat4x3 f;
in vec4 p;
void main() {
    vec3 x = a * vec2(1.0);
    vec4 y = b * vec2(1.0) + d * vec3(1.0);
    vec2 z = c * vec3(1.0) + e * p;
    vec3 w = f * p;
    mat4 sq = outerProduct(p, p);
    mat3x4 t = transpose(f);
    gl_Position = vec4(x + w, z.x) + y + sq[0] + t[1] + vec4(matrixCompMult(a, a)[1], 1.0);
}
