// expect: 0:5(5): error: l-value swizzle has repeated components
#version 330 core
out vec4 c;
void main() { vec4 v = vec4(1.0);
    v.xx = vec2(1.0, 2.0); c = v; }
