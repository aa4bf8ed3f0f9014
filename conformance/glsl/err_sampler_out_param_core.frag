// expect: 0:3(8): error: sampler parameters must be `in'
#version 330 core
void f(out sampler2D s) { }
out vec4 c;
void main() { c = vec4(1.0); }
