// expect: 0:3(9): error: syntax error, unknown type `uint64_t'
#version 450 core
uniform uint64_t a;
out vec4 color;
void main() { color = vec4(1.0); }
