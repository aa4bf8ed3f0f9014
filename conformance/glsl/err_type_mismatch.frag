// expect: 0:5(14): error: operator not defined for operands of type vec3 and vec2
#version 330 core
out vec4 c;
void main() {
    vec3 v = vec3(1.0) + vec2(1.0);
    c = vec4(v, 1.0);
}
