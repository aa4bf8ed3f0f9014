// expect: 0:6(13): error: no function with name `texture2D' in GLSL 420 core (use texture)
#version 420 core
uniform sampler2D tex;
out vec4 color;
void main() {
    color = texture2D(tex, vec2(0.5));
}
