// expect: ok
#version 150
#extension GL_ARB_explicit_attrib_location : require
layout(location = 2) in vec4 p;
out float w;
void main() { w = p.w; gl_Position = p; }
