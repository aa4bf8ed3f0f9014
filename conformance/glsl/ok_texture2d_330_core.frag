// expect: ok
// GLSL 3.30 core: texture2D and gl_FragColor are deprecated, not removed (GLSL 4.20 moved
// them to the compatibility profile).
#version 330 core
uniform sampler2D tex;
void main() {
    gl_FragColor = texture2D(tex, vec2(0.5));
}
