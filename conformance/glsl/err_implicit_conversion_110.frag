// expect: 0:3(15): error: cannot convert from int to float
void main() {
    float x = 1;
    gl_FragColor = vec4(x);
}
