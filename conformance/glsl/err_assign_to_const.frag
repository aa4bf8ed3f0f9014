// expect: 0:6(5): error: assignment to a read-only value
#version 330 core
out vec4 c;
void main() {
    const float k = 2.0;
    k = 3.0;
    c = vec4(k);
}
