// expect: 0:4(14): error: sampler input variables must be qualified `flat'
#version 450 core
#extension GL_ARB_bindless_texture : require
in sampler2D t;
out vec4 color;
void main() { color = texture(t, vec2(0.5)); }
