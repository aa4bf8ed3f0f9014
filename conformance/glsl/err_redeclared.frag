// expect: 0:5(24): error: `x' redeclared
#version 330 core
out vec4 c;
void main() {
    float x = 1.0; int x = 2;
    c = vec4(x);
}
