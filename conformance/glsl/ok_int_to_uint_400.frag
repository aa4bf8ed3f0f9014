// expect: ok
#version 400 core
out uvec4 c;
void main() {
    uint u = 1;
    int i = -2;
    c = uvec4(u + i, u * 3, i, 7u % u);
}
