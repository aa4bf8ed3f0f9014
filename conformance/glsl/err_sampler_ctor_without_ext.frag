// expect: 0:5(31): error: a sampler constructor requires GL_ARB_bindless_texture
#version 450 core
uniform uvec2 h;
out vec4 color;
void main() { color = texture(sampler2D(h), vec2(0.5)); }
