// expect: ok
#version 120
uniform sampler2D texture;
uniform vec4 tint;
varying vec2 uv;
void main() {
    vec4 c = texture2D(texture, uv, 0.5);
    if (c.a < 0.1) discard;
    gl_FragColor = c * tint;
}
