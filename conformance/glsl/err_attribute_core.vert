// expect: 0:3(1): error: `attribute' is not allowed in GLSL 420 core (use `in')
#version 420 core
attribute vec3 position;
void main() {
    gl_Position = vec4(position, 1.0);
}
