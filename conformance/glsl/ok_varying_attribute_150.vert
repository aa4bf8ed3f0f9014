// expect: ok
// `attribute` and `varying` are deprecated in GLSL 1.30–4.10 but still part of the core
// language; 4.20 core removes them (err_attribute_core.vert, err_varying_core_420.vert).
#version 150
attribute vec2 p;
varying vec2 uv;
void main() { uv = p; gl_Position = vec4(p, 0.0, 1.0); }
