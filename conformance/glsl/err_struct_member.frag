// expect: 0:6(10): error: `b' is not a member of `S'
#version 330 core
struct S { float a; };
out vec4 color;
void main() {
    S s; s.b = 1.0;
    color = vec4(s.a);
}
