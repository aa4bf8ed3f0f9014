// expect: 0:4(37): error: recursive call to function `f'
#version 330 core
out vec4 c;
float f(float x) { return x > 0.0 ? f(x - 1.0) : 0.0; }
void main() { c = vec4(f(3.0)); }
