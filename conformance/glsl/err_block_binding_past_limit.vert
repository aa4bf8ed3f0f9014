// expect: 0:4(16): error: layout `binding' 4294967295 (for 1 units) is past GL_MAX_UNIFORM_BUFFER_BINDINGS (90)
// expect: 0:5(16): error: layout `binding' 88 (for 3 units) is past GL_MAX_UNIFORM_BUFFER_BINDINGS (90)
#version 420 core
layout(std140, binding = 4294967295u) uniform A { mat4 m; } a;
layout(std140, binding = 88) uniform B { vec4 v; } b[3];
layout(std140, binding = 87) uniform C { vec4 v; } c[3];
in vec4 p;
void main() { gl_Position = c[2].v * p; }
