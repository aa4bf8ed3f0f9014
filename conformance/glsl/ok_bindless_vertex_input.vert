// expect: ok
#version 450 core
#extension GL_ARB_bindless_texture : require
layout(location = 0) in vec4 pos;
layout(location = 1) in sampler2D tex_in;
flat out sampler2D tex_out;
void main() {
    tex_out = tex_in;
    gl_Position = pos + textureLod(tex_in, vec2(0.5), 0.0);
}
