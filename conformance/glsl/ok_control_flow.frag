// expect: ok
#version 330 core
uniform int mode;
uniform float limit;
out vec4 color;
void main() {
    float acc = 0.0;
    int i = 0;
    while (i < 10) {
        i++;
        if (i == 3) continue;
        if (float(i) > limit) break;
        acc += float(i);
    }
    do {
        acc *= 0.5;
        if (acc < 0.1) continue;
    } while (acc > 1.0);
    for (;;) { acc += 1.0; if (acc > 5.0) break; }
    switch (mode) {
    case 0:
        acc += 1.0;
    case 1:
    case 2:
        acc += 2.0;
        break;
    default:
        acc = -acc;
        break;
    case 7: {
        acc = 7.0;
    }
    }
    color = vec4(acc > 3.0 ? 1.0 : 0.0, mode == 1 && acc > 0.0 ? 1.0 : 0.0, acc, 1.0);
    if (color.x < 0.0) discard;
    if (mode > 100) return;
    color.w = 0.5;
}
