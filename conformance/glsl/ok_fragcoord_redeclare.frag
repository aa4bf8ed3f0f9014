// expect: ok
#version 150
in vec4 gl_FragCoord;
out vec4 color;
void main() { color = gl_FragCoord; }
