// expect: ok
#version 110
#extension GL_ARB_texture_rectangle : require
uniform sampler1D s1;
uniform sampler3D s3;
uniform samplerCube sc;
uniform sampler2DRect sr;
uniform sampler1DShadow s1s;
uniform sampler2DShadow s2s;
uniform sampler2DRectShadow srs;
varying vec4 tc;
void main()
{
	vec4 c = texture1D(s1, tc.x) + texture1DProj(s1, tc.xy) + texture1DProj(s1, tc);
	c += texture3D(s3, tc.xyz) + texture3DProj(s3, tc) + texture3D(s3, tc.xyz, 1.0);
	c += textureCube(sc, tc.xyz) + texture2DRect(sr, tc.xy);
	c += texture2DRectProj(sr, tc.xyz) + texture2DRectProj(sr, tc);
	c += shadow1D(s1s, tc.xyz) + shadow2D(s2s, tc.xyz) + shadow2DProj(s2s, tc);
	c += shadow2DRect(srs, tc.xyz) + shadow2DRectProj(srs, tc);
	gl_FragColor = c;
}
