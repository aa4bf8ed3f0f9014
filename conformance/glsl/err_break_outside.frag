// expect: 0:4(5): error: break may only appear in a loop or switch
#version 330 core
void main() {
    break;
}
