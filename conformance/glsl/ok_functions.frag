// expect: ok
#version 330 core
out vec4 color;
float square(float x);
float square(float x) { return x * x; }
vec2 square(vec2 v) { return v * v; }
void split(in vec4 v, out vec2 lo, out vec2 hi) { lo = v.xy; hi = v.zw; }
void bump(inout float x) { x += 1.0; if (x > 2.0) return; x *= 2.0; }
int pick(int a, int b) { if (a > b) { return a; } return b; }
float use_int(float f) { return f * 2.0; }
void main() {
    vec2 a, b;
    split(vec4(1.0, 2.0, 3.0, 4.0), a, b);
    float t = square(a.x) + square(b).y;
    bump(t);
    bump(color.x);
    t += use_int(pick(1, 2));
    color = vec4(t, a, float(pick(3, -1)));
}
