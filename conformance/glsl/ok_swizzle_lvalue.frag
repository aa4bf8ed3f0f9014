// expect: ok
#version 330 core
out vec4 color;
void main() {
    vec4 v = vec4(1.0, 2.0, 3.0, 4.0);
    v.zx = vec2(7.0, 8.0);
    v.w += v.y;
    color.rgba = v.wzyx;
    color.x = v[2];
}
