// expect: ok
#version 330 core
const vec3 K = vec3(1.0, 2.0, 3.0);
const int SIZE = int(K.z) * 2;
float weights[SIZE];
float scale = 2.0;
vec2 offset = vec2(scale);
out vec4 c;
void main() {
    for (int i = 0; i < SIZE; i++) weights[i] = float(i) * scale;
    c = vec4(K, weights[SIZE - 1] + offset.y);
}
