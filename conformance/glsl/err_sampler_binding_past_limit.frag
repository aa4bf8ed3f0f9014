// expect: 0:4(8): error: layout `binding' 80 (for 1 units) is past GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS (80)
// expect: 0:5(8): error: layout `binding' 78 (for 4 units) is past GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS (80)
#version 420 core
layout(binding = 80) uniform sampler2D s;
layout(binding = 78) uniform sampler2D t[4];
layout(binding = 79) uniform sampler2D ok1;
out vec4 o;
void main() { o = texture(s, vec2(0.0)) + texture(t[0], vec2(0.0)) + texture(ok1, vec2(0.0)); }
