// expect: ok
#version 450 core
#extension GL_ARB_bindless_texture : require
uniform sampler2D a;
uniform sampler2D b;
uniform bool use_b;
void pick(out sampler2D s) { s = use_b ? b : a; }
out vec4 c;
void main() { sampler2D s; pick(s); c = texture(s, vec2(0.5)); }
