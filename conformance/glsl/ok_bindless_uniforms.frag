// expect: ok
#version 450 core
#extension GL_ARB_bindless_texture : require
layout(bindless_sampler) uniform sampler2D a;
layout(bound_sampler) uniform sampler2D b;
uniform sampler2D arr[3];
struct Mat { sampler2D albedo; vec4 tint; };
uniform Mat mat;
layout(std140, binding = 0) uniform Handles { sampler2D h[2]; uvec2 raw; } handles;
in vec2 uv;
flat in sampler2D from_vs;
uniform int k;
out vec4 color;
vec4 fetch(sampler2D s) { return texture(s, uv); }
void main() {
    sampler2D local = a;
    if (k > 1) local = arr[k];
    sampler2D made = sampler2D(handles.raw);
    uvec2 back = uvec2(made);
    color = fetch(local) + texture(b, uv) + texture(mat.albedo, uv) * mat.tint;
    color += texture(handles.h[k], uv) + texture(made, uv) + texture(from_vs, uv);
    color.x += float(back.y);
}
