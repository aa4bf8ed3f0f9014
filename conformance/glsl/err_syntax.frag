// expect: 0:4(42): error: syntax error, unexpected `)', expecting expression
#version 330 core
out vec4 c;
void main() { c = vec4(); c = vec4(1.0 + ); }
