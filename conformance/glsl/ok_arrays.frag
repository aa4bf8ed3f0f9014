// expect: ok
#version 430 core
out vec4 color;
uniform int k;
const int N = 4;
float table[N] = float[N](1.0, 2.0, 3.0, 4.0);
void main() {
    float a[] = float[](0.5, 1.5, 2.5);
    vec2 b[2];
    b[0] = vec2(1.0);
    b[k] = vec2(2.0, 3.0);
    b[k].y += 1.0;
    float s = 0.0;
    for (int i = 0; i < a.length(); ++i) {
        s += a[i] + table[i];
    }
    int m[2][3];
    m[1][k] = 5;
    color = vec4(s, b[1 - k].x, float(m[1][2]), float(table.length()));
}
