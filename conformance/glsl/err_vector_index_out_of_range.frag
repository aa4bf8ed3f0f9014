// expect: 0:4(46): error: vector index 4 out of range
#version 330 core
out vec4 c;
void main() { vec4 v = vec4(1.0); c = vec4(v[4]); }
