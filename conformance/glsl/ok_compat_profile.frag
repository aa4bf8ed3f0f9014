// expect: ok
#version 450 compatibility
uniform sampler2D tex;
varying vec2 uv;
void main() {
    gl_FragColor = texture2D(tex, uv) + texture(tex, uv);
}
