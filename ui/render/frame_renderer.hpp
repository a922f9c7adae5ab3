#pragma once
// Draws the viewport's image layer with GL 3.3 core: the input and the output as textured quads placed by the
// view (pan, zoom, before/after split), single-channel images through a colormap. Qt-free: the Qt viewport calls
// it inside QOpenGLWidget::paintGL, the headless path (--screenshot, tests) inside an EGL context. Every call
// needs the same GL context current (and, for interop, CUDA on the GPU that runs it).
//
// Pixels move only in update(), and only when a DisplayFrame's generations change; draw() costs one quad per
// texture tile, so panning a large image never re-uploads it. The output reaches its texture through CUDA-GL
// interop when the frame carries a device result and the GL context runs on that CUDA device; otherwise it is
// uploaded from the host, and display_path() says why.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "session/display_frame.hpp"
#include "render/image_textures.hpp"
#include "render/interop/interop_target.hpp"

namespace ks::ui {

// What one update() did.
struct DisplayUpdate {
  bool input_changed = false;   // the input textures got new pixels
  bool output_changed = false;  // the output textures got new pixels
  double input_ms = 0;          // host upload of the input, when it changed
  double output_ms = 0;         // the display step of the output: map + write + unmap, or (download +) upload
  bool output_via_interop = false;
};

class FrameRenderer {
 public:
  struct Options {
    int max_texture_size = 0;  // 0: the driver's GL_MAX_TEXTURE_SIZE; tests pass a small one to exercise tiles
    bool allow_interop = true;  // false: always upload from the host
    // Surface writes were faster than the array copy (docs/PERF.md, display), and a kernel could convert
    // texels on the way.
    InteropWrite interop_write = InteropWrite::SurfaceWrite;
  };
  explicit FrameRenderer(Options options);  // compiles the shaders; throws an Error when GL refuses
  FrameRenderer() : FrameRenderer(Options{}) {}
  ~FrameRenderer();
  FrameRenderer(const FrameRenderer&) = delete;
  FrameRenderer& operator=(const FrameRenderer&) = delete;

  // Brings the textures up to date with `frame`. Throws an Error when GL or CUDA fail in a way no fallback covers
  // (e.g. out of GL memory); interop failures fall back to host uploads and are reported by display_path().
  DisplayUpdate update(const DisplayFrame& frame);

  // Draws into the currently bound framebuffer, whose size is fb_width x fb_height (screen coordinates of the
  // view). Clears it first. Shows the output (the input while there is none), or both with view.split.
  void draw(int fb_width, int fb_height, const ViewState& view);

  // The bound framebuffer's pixels, RGBA8, top row first.
  Image read_pixels(int fb_width, int fb_height) const;

  // "CUDA-GL interop (surface writes)", or "host upload: <why not interop>", or "no result yet".
  const std::string& display_path() const noexcept { return path_; }
  bool interop_active() const noexcept { return interop_active_; }
  // The last display step of an output (what a frame costs to show a new result), with the path it took.
  const DisplayUpdate& last_output_update() const noexcept { return last_output_; }

  bool has_input() const noexcept { return !input_.empty(); }
  bool has_output() const noexcept { return !output_.empty(); }
  // The shape of what is shown when there is no split: the output's (the whole world's, for an output window of
  // a larger one: DisplayFrame::output_placement), else the input's (empty when neither).
  ImageShape shown_shape() const noexcept;
  // Textures holding the output (or input): 1 unless a side exceeds max_texture_size().
  std::size_t texture_count() const noexcept;
  int max_texture_size() const noexcept { return max_texture_size_; }
  // Transfers so far (host uploads and interop writes); draw() never adds to it.
  std::uint64_t transfer_count() const noexcept { return transfers_; }

  // The 256x1 RGBA8 GL texture of a colormap (ImGui shows it as the legend: its ImTextureID).
  unsigned colormap_texture(Colormap map) const noexcept;

 private:
  DisplayUpdate update_output(const DisplayFrame& frame, DisplayUpdate update);
  bool try_interop(const DeviceImageRef& ref, double& write_ms);
  void draw_image(const ImageTextures& image, int fb_width, int fb_height, const ViewState& view, float range_min,
                  float range_max);

  Options options_;
  int max_texture_size_ = 0;
  gl::Program program_;
  gl::VertexArray quad_;  // empty: the vertex shader makes the corners
  // Image sampling: nearest at zoom >= 1 (crisp pixels, exact values at 1:1, whatever the driver's rounding of the
  // level of detail), linear below (a minified image averages rather than aliases).
  gl::Sampler nearest_, minifying_;
  std::array<gl::Texture, 4> colormaps_;
  struct Uniforms {
    GLint rect, viewport, image, colormap, channels, scale, range;
  } u_{};

  ImageTextures input_, output_;
  std::optional<OutputPlacement> output_placement_;  // of the last update's frame
  std::optional<std::uint64_t> input_generation_, output_generation_;
  std::unique_ptr<InteropTarget> interop_;
  std::optional<std::string> interop_blocked_;  // why interop cannot be used, once known
  bool interop_active_ = false;
  std::string path_ = "no result yet";
  DisplayUpdate last_output_;
  std::uint64_t transfers_ = 0;
};

}  // namespace ks::ui
