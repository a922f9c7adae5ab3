#version 330 core
// Shows one image texture: single-channel values through a colormap table, colour as it is, both over a value
// window in the image's own units; transparent pixels over a checkerboard; NaN in magenta so it cannot pass as a
// value.
in vec2 v_uv;
out vec4 frag_color;

uniform sampler2D u_image;
uniform sampler2D u_colormap;  // 256 x 1, entry i = colour of t = i / 255 (app/report/colormap.cpp)
uniform int u_channels;        // 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA
uniform float u_scale;         // sampled value -> image units: 255 (u8), 65535 (u16), 1 (f32)
uniform vec2 u_range;          // x: value shown as 0 (colormap start), y: 1 / (max - min)

vec3 checkerboard() {
  vec2 cell = floor(gl_FragCoord.xy / 8.0);
  return vec3(mod(cell.x + cell.y, 2.0) < 1.0 ? 0.36 : 0.46);
}

void main() {
  vec4 s = texture(u_image, v_uv);
  vec4 v = (s * u_scale - u_range.x) * u_range.y;
  vec3 rgb;
  float alpha;
  if (u_channels <= 2) {
    float t = v.r;
    // Texel centres: t = 0 and t = 1 read the table's first and last entries exactly.
    rgb = isnan(t) ? vec3(1.0, 0.0, 1.0) : texture(u_colormap, vec2((clamp(t, 0.0, 1.0) * 255.0 + 0.5) / 256.0, 0.5)).rgb;
    alpha = u_channels == 2 ? s.g : 1.0;
  } else {
    bool nan = isnan(v.r) || isnan(v.g) || isnan(v.b);
    rgb = nan ? vec3(1.0, 0.0, 1.0) : clamp(v.rgb, 0.0, 1.0);
    alpha = u_channels == 4 ? s.a : 1.0;
  }
  frag_color = vec4(mix(checkerboard(), rgb, clamp(alpha, 0.0, 1.0)), 1.0);
}
