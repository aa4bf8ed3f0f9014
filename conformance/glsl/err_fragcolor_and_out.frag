// expect: 0:4(15): error: gl_FragColor cannot be used together with user-defined outputs
#version 130
out vec4 mine;
void main() { gl_FragColor = vec4(1.0); mine = vec4(0.0); }
