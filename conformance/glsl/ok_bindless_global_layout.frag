// expect: ok
#version 330 core
#extension GL_ARB_bindless_texture : enable
layout(bindless_sampler) uniform;
uniform sampler2D t;
out vec4 color;
void main() { color = texture(t, vec2(0.5)); }
