// expect: 0:5(14): error: cannot convert from int to uint
#version 330 core
flat out uint c;
void main() {
    uint u = 1;
    c = u;
}
