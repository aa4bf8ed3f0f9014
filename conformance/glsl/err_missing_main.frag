// expect-link: 0:1(1): error: main function not defined
#version 330 core
out vec4 c;
void helper() { c = vec4(1.0); }
