// expect: 0:4(23): error: assignment of a sampler requires GL_ARB_bindless_texture
#version 330 core
uniform sampler2D a;
vec4 f(sampler2D s) { s = a; return texture(s, vec2(0.5)); }
out vec4 c;
void main() { c = f(a); }
