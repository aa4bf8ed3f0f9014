// expect: 0:6(13): error: array size must be a constant valued expression
#version 330 core
out vec4 color;
uniform int n;
void main() {
    float a[n];
    color = vec4(1.0);
}
