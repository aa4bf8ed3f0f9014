// expect: 0:7(17): error: no matching function for call to `textureCube' with sampler2D (it takes a samplerCube)
#version 120
uniform sampler2D s;
varying vec3 tc;
void main()
{
	gl_FragColor = textureCube(s, tc);
}
