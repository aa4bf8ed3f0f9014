// expect: 0:3(14): error: a sampler input variable requires GL_ARB_bindless_texture
#version 450 core
in sampler2D s;
void main() { gl_Position = textureLod(s, vec2(0.5), 0.0); }
