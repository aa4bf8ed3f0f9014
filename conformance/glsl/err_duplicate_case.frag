// expect: 0:7(10): error: duplicate case value
#version 330 core
uniform int m;
out vec4 c;
void main() {
    switch (m) { case 1: c = vec4(1.0); break;
    case 1: c = vec4(2.0); }
}
