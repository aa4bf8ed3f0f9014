// expect: ok
#version 330 core
layout(location = 0) out vec4 color;
layout(location = 1) out vec2 extra;
layout(early_fragment_tests) in;
void main() {
    color = gl_FragCoord;
    extra = gl_FrontFacing ? vec2(1.0) : vec2(0.0);
    gl_FragDepth = 0.5;
}
