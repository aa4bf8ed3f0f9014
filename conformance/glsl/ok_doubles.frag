// expect: ok
#version 400
uniform dmat3 m;
uniform dvec3 v;
uniform double arr[2];
flat in double d;
out vec4 color;
void main() {
    dvec3 w = m * v + dvec3(d, 1, 2u);
    dmat2x3 t = dmat2x3(m);
    double s = dot(w, normalize(v)) + determinant(inverse(m)) + length(t[1]);
    s += fma(arr[0], arr[1], d) + mod(s, 3.0lf) + smoothstep(0.0lf, 1.0lf, fract(s));
    bvec3 lt = lessThan(abs(w), dvec3(1e300));
    uvec2 bits = unpackDouble2x32(s);
    s = packDouble2x32(bits) + double(int(s)) + double(all(lt));
    color = vec4(float(s), float(clamp(s, -1.0, 1.0)), float(sign(-s)), 1.0);
}
