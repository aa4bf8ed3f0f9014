// expect: 0:5(19): error: sampler uniform `t' cannot have an initializer (samplers are set only through the API)
#version 450 core
#extension GL_ARB_bindless_texture : require
// ARB_bindless_texture §4.1.7: a sampler uniform is set only through the API.
uniform sampler2D t = sampler2D(uvec2(1u, 2u));
out vec4 color;
void main() { color = texture(t, vec2(0.5)); }
