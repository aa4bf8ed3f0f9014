// expect: ok
#version 330 core
layout(location = 0) in vec3 pos;
layout(location = 1) in mat3 basis;
layout(location = 4) in ivec2 ids;
out vec3 n;
flat out int id;
noperspective out float depth;
void main() {
    n = basis * pos;
    id = ids.x + ids.y + gl_VertexID + gl_InstanceID;
    depth = pos.z;
    gl_Position = vec4(pos, 1.0);
}
