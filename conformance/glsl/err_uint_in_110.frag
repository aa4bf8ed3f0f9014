// expect: 0:3(5): error: syntax error, unknown type `uint'
void main() {
    uint x = 1;
    gl_FragColor = vec4(1.0);
}
