// expect: 0:5(24): error: no matching function for call to `f(vec3)'
#version 330 core
out vec4 c;
float f(vec2 v) { return v.x; }
void main() { c = vec4(f(vec3(1.0))); }
