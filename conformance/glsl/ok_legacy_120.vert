// expect: ok
#version 120
attribute vec3 position;
attribute vec2 texcoord;
varying vec2 uv;
uniform mat4 mvp;
void main() {
    uv = texcoord;
    gl_Position = mvp * vec4(position, 1.0);
    gl_PointSize = 2.0;
}
