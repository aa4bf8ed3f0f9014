// expect: 0:3(8): error: layout qualifier `origin_upper_left' is only valid on a redeclaration of `gl_FragCoord'
#version 150
layout(origin_upper_left) in vec4 pos;
out vec4 color;
void main() { color = pos; }
