// expect: 0:4(25): error: `dFdx' is only available in fragment shaders
#version 330 core
in vec4 p;
void main() { float d = dFdx(p.x); gl_Position = p * d; }
