// expect: ok
#version 450 core
struct P { vec2 a; int b; };
out vec4 color;
void main() {
    vec3 v = { 1.0, 2.0, 3.0 };
    P p = { vec2(1.0), 2 };
    float grid[2][2] = { { 1.0, 2.0 }, { 3.0, 4.0 } };
    mat2 m = { vec2(1.0, 0.0), vec2(0.0, 1.0) };
    float s = v.z.x;
    color = vec4(v.x + p.a.y + float(p.b), grid[1][0], m[1][1], s);
}
