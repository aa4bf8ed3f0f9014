// expect: 0:3(8): error: integer fragment inputs must be qualified `flat' (GLSL 4.60 §4.3.4)
#version 330 core
in int id;
out vec4 color;
void main() { color = vec4(float(id)); }
