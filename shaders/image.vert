#version 330 core
// One textured quad per image tile. The CPU places it (ui/render/view_math.cpp, image_to_screen) in framebuffer
// pixels, y down, so pan and zoom are computed in one place; here the rectangle only becomes clip space.
// No vertex buffer: the four corners of a triangle strip come from gl_VertexID.
uniform vec4 u_rect;      // left, top, right, bottom, in framebuffer pixels
uniform vec2 u_viewport;  // framebuffer width, height

out vec2 v_uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));  // (0,0) (1,0) (0,1) (1,1)
  vec2 screen = mix(u_rect.xy, u_rect.zw, corner);
  gl_Position = vec4(screen.x / u_viewport.x * 2.0 - 1.0, 1.0 - screen.y / u_viewport.y * 2.0, 0.0, 1.0);
  v_uv = corner;  // texture row 0 is image row 0, the top of the quad
}
