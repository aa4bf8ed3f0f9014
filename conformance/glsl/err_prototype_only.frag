// expect-link: 0:6(24): error: function `shade' is called but not defined in any compilation unit of the stage
#version 330 core
out vec4 c;
// Another fragment shader of the program may define shade (GLSL 4.60 §2.1).
vec4 shade(float x);
void main() { c = vec4(shade(0.5)); }
