// expect: 0:5(16): error: syntax error, unexpected `{', expecting `;'
#version 120
uniform int m;
void main() {
    switch (m) { default: gl_FragColor = vec4(1.0); }
}
