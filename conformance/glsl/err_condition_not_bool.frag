// expect: 0:5(9): error: condition must be a scalar bool, not int
#version 330 core
out vec4 c;
void main() {
    if (1) c = vec4(1.0);
}
