// expect: 0:3(8): error: explicit location requires GLSL 3.30 or GL_ARB_explicit_attrib_location
#version 150
layout(location = 0) in vec4 p;
void main() { gl_Position = p; }
