// expect: 0:5(25): error: sampler variables must be uniform or function parameters (without GL_ARB_bindless_texture)
#version 330 core
uniform sampler2D tex;
out vec4 color;
void main() { sampler2D s = tex; color = texture(s, vec2(0.5)); }
