// expect: ok
#version 420 core
struct Material { vec4 tint; float gloss; };
layout(std140, binding = 1) uniform Transforms {
    mat4 mvp;
    vec3 offset;
    float scale;
    float weights[4];
    Material mat;
    bool flip;
} xf;
layout(std140) uniform Globals { vec4 time; ivec2 grid; };
layout(std140, row_major) uniform Rows { mat3 rot; } rows;
in vec4 pos;
uniform int w;
void main() {
    vec4 p = xf.mvp * pos + vec4(xf.offset * xf.scale, 0.0);
    p.x += xf.weights[w] + xf.weights[2] + xf.mat.tint.y * time.x + float(grid.y);
    p.xyz = rows.rot * p.xyz + rows.rot[w];
    if (xf.flip) p.y = -p.y;
    gl_Position = p;
}
