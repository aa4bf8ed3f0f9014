// expect: 0:3(10): error: double fragment inputs must be qualified `flat' (GLSL 4.60 §4.3.4)
#version 400
in dvec2 d;
out vec4 color;
void main() { color = vec4(vec2(d), 0.0, 1.0); }
