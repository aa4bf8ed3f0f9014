// expect: 0:3(1): error: extension `GL_EXT_imaginary' unsupported
#version 330 core
#extension GL_EXT_imaginary : require
out vec4 color;
void main() { color = vec4(1.0); }
