// expect: 0:3(15): error: `gl_FragColor' undeclared
#version 450 core
void main() { gl_FragColor = vec4(1.0); }
