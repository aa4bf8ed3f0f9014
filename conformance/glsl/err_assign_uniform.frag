// expect: 0:6(5): error: assignment to a read-only value
#version 330 core
uniform float u;
out vec4 c;
void main() { c = vec4(u);
    u = 1.0; }
