// expect: 0:4(39): error: invalid swizzle `xg'
#version 330 core
out vec4 c;
void main() { vec4 v = vec4(1.0); c = v.xg.xyxy; }
