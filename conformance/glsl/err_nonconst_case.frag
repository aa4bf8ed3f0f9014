// expect: 0:6(10): error: case label must be a constant integer expression
#version 330 core
uniform int m;
out vec4 c;
void main() { switch (m) {
    case m: c = vec4(1.0); break; }
}
