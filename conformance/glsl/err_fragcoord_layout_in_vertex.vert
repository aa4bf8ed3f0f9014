// expect: 0:3(8): error: layout qualifier `origin_upper_left' is only valid in fragment shaders
#version 150
layout(origin_upper_left) in vec4 gl_FragCoord;
void main() { gl_Position = vec4(0.0); }
