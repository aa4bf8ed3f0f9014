// expect: 0:5(5): error: illegal use of reserved word `goto'
#version 330 core
out vec4 c;
void main() {
    goto end;
    c = vec4(1.0);
}
