// expect: 0:4(24): error: no matching function for call to `dot' with vec3 and vec2
#version 330 core
out vec4 c;
void main() { c = vec4(dot(vec3(1.0), vec2(1.0))); }
