// expect: 0:4(28): error: double literals require GLSL 4.00 or GL_ARB_gpu_shader_fp64
#version 330 core
out vec4 color;
void main() { color = vec4(1.5lf); }
