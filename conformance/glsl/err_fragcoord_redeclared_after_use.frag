// expect: 0:5(38): error: `gl_FragCoord' must be redeclared before its first use
#version 150
out vec4 color;
float top() { return gl_FragCoord.y; }
layout(pixel_center_integer) in vec4 gl_FragCoord;
void main() { color = vec4(top()); }
