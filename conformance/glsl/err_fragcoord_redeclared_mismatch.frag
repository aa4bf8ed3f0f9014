// expect: 0:4(57): error: `gl_FragCoord' redeclared with different layout qualifiers
#version 150
layout(origin_upper_left) in vec4 gl_FragCoord;
layout(origin_upper_left, pixel_center_integer) in vec4 gl_FragCoord;
out vec4 color;
void main() { color = gl_FragCoord; }
