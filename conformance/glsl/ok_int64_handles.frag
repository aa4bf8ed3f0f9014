// expect: ok
#version 450 core
#extension GL_ARB_bindless_texture : require
#extension GL_ARB_gpu_shader_int64 : require
uniform uint64_t handle;
uniform uvec2 pair;
in vec2 uv;
out vec4 color;
void main() {
    sampler2D s = sampler2D(handle);
    uint64_t h2 = uint64_t(s);
    uint64_t h3 = packUint2x32(pair);
    uvec2 back = unpackUint2x32(h3);
    bool same = h2 == handle || h3 != 0ul;
    color = texture(s, uv) + vec4(float(back.x), float(same), 0.0, 1.0);
}
