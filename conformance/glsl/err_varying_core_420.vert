// expect: 0:3(1): error: `varying' is not allowed in GLSL 420 core (use `in'/`out')
#version 420
varying vec2 uv;
in vec2 p;
void main() { uv = p; gl_Position = vec4(p, 0.0, 1.0); }
