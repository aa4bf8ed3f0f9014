// expect: 0:4(15): error: no function with name `frobnicate'
#version 330 core
out vec4 c;
void main() { frobnicate(1.0); c = vec4(1.0); }
