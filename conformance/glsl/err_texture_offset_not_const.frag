// expect: 0:6(53): error: the offset of textureOffset() must be a constant ivec2 expression
#version 330 core
uniform sampler2D tex;
uniform ivec2 off;
out vec4 color;
void main() { color = textureOffset(tex, vec2(0.5), off); }
