// expect: 0:4(19): error: too few arguments to constructor of vec4
#version 330 core
out vec4 c;
void main() { c = vec4(1.0, 2.0); }
