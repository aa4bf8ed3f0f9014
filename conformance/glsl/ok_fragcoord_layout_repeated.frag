// expect: ok
#version 150
layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;
float top() { return gl_FragCoord.y; }
// Later redeclarations only have to match the first (GLSL 4.60 §4.4.1.3).
layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;
out vec4 color;
void main() { color = vec4(top(), gl_FragCoord.x, 0.0, 1.0); }
