// expect: 0:4(17): error: discard is only allowed in fragment shaders
#version 330 core
void main() {
    if (true) { discard; }
    gl_Position = vec4(0.0);
}
