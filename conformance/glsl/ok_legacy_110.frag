// expect: ok
uniform sampler2D tex;
varying vec2 uv;
void main() {
    vec4 c = texture2D(tex, uv);
    gl_FragColor = c * 0.5;
}
