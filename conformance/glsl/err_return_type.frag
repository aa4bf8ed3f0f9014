// expect: 0:3(27): error: cannot convert from vec2 to float
#version 330 core
float f(float x) { return vec2(x); }
out vec4 c;
void main() { c = vec4(f(1.0)); }
