// expect: 0:3(45): error: a sampler in a uniform block requires GL_ARB_bindless_texture
#version 430 core
layout(std140) uniform Textures { sampler2D tex; };
out vec4 color;
void main() { color = vec4(1.0); }
