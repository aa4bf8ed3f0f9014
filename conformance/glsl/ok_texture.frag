// expect: ok
#version 330 core
uniform sampler2D tex;
layout(binding = 3) uniform sampler2D other;
in vec2 uv;
out vec4 color;
vec4 sample_it(sampler2D s, vec2 p) { return texture(s, p); }
void main() {
    vec4 a = texture(tex, uv) + texture(tex, uv, 1.0) + textureLod(tex, uv, 2.0);
    a += textureOffset(tex, uv, ivec2(1, -1)) + texelFetch(other, ivec2(3, 4), 0);
    ivec2 sz = textureSize(tex, 0);
    a += sample_it(other, uv);
    color = a / float(sz.x + sz.y);
}
