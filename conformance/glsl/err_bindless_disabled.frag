// expect: 0:5(8): error: layout(bindless_sampler) requires GL_ARB_bindless_texture
#version 450 core
#extension GL_ARB_bindless_texture : enable
#extension GL_ARB_bindless_texture : disable
layout(bindless_sampler) uniform sampler2D t;
out vec4 color;
void main() { color = texture(t, vec2(0.5)); }
