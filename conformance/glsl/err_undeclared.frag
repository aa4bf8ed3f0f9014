// expect: 0:5(13): error: `nope' undeclared
#version 330 core
out vec4 color;
void main() {
    color = nope * 2.0;
}
