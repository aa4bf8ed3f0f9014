// expect: ok
#version 410 core
in VS_OUT {
    vec3 normal;
    noperspective vec2 uv;
    flat uint material;
} fs_in;
in Extra { float fog; };
out vec4 color;
void main() {
    color = vec4(normalize(fs_in.normal) * fog, float(fs_in.material)) + vec4(fs_in.uv, 0.0, 0.0);
}
