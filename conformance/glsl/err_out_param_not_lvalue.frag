// expect: 0:5(25): error: argument for an out or inout parameter of `g' is not a writable l-value
#version 330 core
out vec4 c;
void g(out float x) { x = 1.0; }
void main() { g(c.x); g(2.0); c = vec4(1.0); }
