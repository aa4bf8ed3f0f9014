// expect: ok
#version 330 core
struct Light {
    vec3 dir;
    vec3 color;
};
struct Scene {
    Light lights[2];
    float ambient;
};
uniform Scene scene;
uniform int which;
out vec4 frag;
void main() {
    Light l = Light(vec3(0.0, 0.0, 1.0), vec3(1.0));
    Scene s = scene;
    s.lights[0] = l;
    vec3 c = s.lights[which].color * max(dot(s.lights[which].dir, vec3(0, 0, 1)), 0.0);
    frag = vec4(c + scene.ambient, 1.0);
    if (s.lights[0] == l) frag.a = 0.5;
}
