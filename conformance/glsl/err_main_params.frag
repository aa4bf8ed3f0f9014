// expect: 0:3(6): error: main() cannot take parameters
#version 330 core
void main(int x) { }
