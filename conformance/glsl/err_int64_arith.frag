// expect: 0:6(28): error: 64-bit integer arithmetic is not supported yet
#version 450 core
#extension GL_ARB_gpu_shader_int64 : require
uniform uint64_t a;
out vec4 color;
void main() { uint64_t b = a + a; color = vec4(float(b == a)); }
