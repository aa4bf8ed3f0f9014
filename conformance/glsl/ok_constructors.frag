// expect: ok
#version 330 core
out vec4 color;
void main() {
    vec4 a = vec4(1.0);
    vec4 b = vec4(vec2(1.0, 2.0), 3, true);
    vec3 c = vec3(a);
    ivec2 d = ivec2(2.7, -1.5);
    bvec3 e = bvec3(0.0, 1, c.x);
    uvec2 f = uvec2(d);
    mat2 g = mat2(1.0, 2.0, 3.0, 4.0);
    mat3 h = mat3(2.0);
    mat4 k = mat4(h);
    mat2x3 l = mat2x3(vec3(1.0), vec3(2.0));
    mat3 n = mat3(g);
    float s = float(d.x) + float(e.y) + float(f.y);
    int i = int(true);
    color = b + vec4(c, s) + k[3] + vec4(l[1], n[2][2]) + vec4(g[1], h[0].xy) + float(i);
}
