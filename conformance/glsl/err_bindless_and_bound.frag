// expect: 0:4(59): error: uniform `t' cannot be both bindless_sampler and bound_sampler
#version 450 core
#extension GL_ARB_bindless_texture : require
layout(bindless_sampler, bound_sampler) uniform sampler2D t;
out vec4 color;
void main() { color = texture(t, vec2(0.5)); }
