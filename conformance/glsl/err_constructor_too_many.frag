// expect: 0:4(19): error: too many arguments to constructor of vec2
#version 330 core
out vec4 c;
void main() { c = vec2(vec2(1.0), 1.0).xyxy; }
