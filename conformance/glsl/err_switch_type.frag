// expect: 0:5(13): error: switch expression must be a scalar int or uint
#version 330 core
out vec4 c;
void main() {
    switch (1.0) { default: c = vec4(1.0); }
}
