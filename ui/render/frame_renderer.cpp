#include "render/frame_renderer.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "session/display_frame.hpp"
#include "render/embedded_shaders.hpp"
#include "render/gl/shader_program.hpp"
#include "render/gl/texture_format.hpp"
#include "render/value_range.hpp"
#include "render/view_math.hpp"

namespace ks::ui {

namespace {

void make_colormap_texture(const gl::Texture& texture, Colormap map) {
  const ColormapTable& table = colormap_table(map);
  glBindTexture(GL_TEXTURE_2D, texture.id());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, table.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_2D, 0);
}

// Host clock around GL work that must have finished: glFinish on both sides, so neither earlier frames nor
// queued work hide in (or escape from) the measurement. Used only when pixels change, never per drawn frame.
template <class F>
double timed_gl(F&& work) {
  glFinish();
  Stopwatch watch;
  work();
  glFinish();
  return watch.elapsed_ms();
}

}  // namespace

FrameRenderer::FrameRenderer(Options options) : options_(options) {
  GLint driver_max = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &driver_max);
  max_texture_size_ = options.max_texture_size > 0 ? std::min(options.max_texture_size, int(driver_max)) : driver_max;
  if (max_texture_size_ <= 0)
    throw Error(ErrorKind::Device, "the GL context reports no texture size (GL_MAX_TEXTURE_SIZE)",
                "is a GL 3.3 core context current?");
  program_ = gl::link_program("the image shader", as_text(embedded::shader_image_vert()),
                              as_text(embedded::shader_image_frag()));
  u_ = {gl::uniform(program_, "u_rect"),     gl::uniform(program_, "u_viewport"), gl::uniform(program_, "u_image"),
        gl::uniform(program_, "u_colormap"), gl::uniform(program_, "u_channels"), gl::uniform(program_, "u_scale"),
        gl::uniform(program_, "u_range")};
  for (Colormap map : all_colormaps()) make_colormap_texture(colormaps_[std::size_t(map)], map);
  for (const gl::Sampler* sampler : {&nearest_, &minifying_}) {
    glSamplerParameteri(sampler->id(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glSamplerParameteri(sampler->id(), GL_TEXTURE_MIN_FILTER, sampler == &nearest_ ? GL_NEAREST : GL_LINEAR);
    glSamplerParameteri(sampler->id(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(sampler->id(), GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  gl::check("creating the renderer's shader and colormap textures");
}

FrameRenderer::~FrameRenderer() = default;

ImageShape FrameRenderer::shown_shape() const noexcept {
  if (output_.empty()) return input_.shape();
  ImageShape shape = output_.shape();
  if (output_placement_) shape.width = output_placement_->image_width, shape.height = output_placement_->image_height;
  return shape;
}

std::size_t FrameRenderer::texture_count() const noexcept {
  return !output_.empty() ? output_.tiles().size() : input_.tiles().size();
}

unsigned FrameRenderer::colormap_texture(Colormap map) const noexcept {
  return colormaps_[std::size_t(map)].id();
}

DisplayUpdate FrameRenderer::update(const DisplayFrame& frame) {
  DisplayUpdate update;
  output_placement_ = frame.output_placement;
  if (!frame.input || !frame.input_shown) {
    input_.clear();
    input_generation_.reset();
  } else if (input_generation_ != frame.input_generation || input_.shape() != frame.input->shape()) {
    update.input_ms = timed_gl([&] {
      input_.allocate(frame.input->shape(), max_texture_size_);
      input_.upload(*frame.input);
    });
    update.input_changed = true;
    input_generation_ = frame.input_generation;
    ++transfers_;
  }
  return update_output(frame, update);
}

DisplayUpdate FrameRenderer::update_output(const DisplayFrame& frame, DisplayUpdate update) {
  const Image* host = frame.output && !frame.output->empty() ? frame.output : nullptr;
  const DeviceImageRef& device = frame.output_device;
  if (!host && !device) {
    output_.clear();
    interop_.reset();
    output_generation_.reset();
    interop_active_ = false;
    path_ = "no result yet";
    return update;
  }
  if (!frame.interop_refused.empty() && interop_blocked_ != frame.interop_refused) {
    interop_.reset();  // unregistered now: no interop call after the fault
    interop_blocked_ = frame.interop_refused;
    if (interop_active_) output_generation_.reset();  // the shown result came through interop: upload it anew
  }
  if (output_generation_ == frame.output_generation) return update;
  const ImageShape shape = device ? device.shape : host->shape();
  if (output_.allocate(shape, max_texture_size_)) interop_.reset();  // new textures: register them anew

  std::string why_host;
  if (device && options_.allow_interop) {
    if (try_interop(device, update.output_ms)) {
      update.output_via_interop = true;
      path_ = std::string("CUDA-GL interop (") + to_string(options_.interop_write) + ")";
    } else {
      why_host = *interop_blocked_;
    }
  } else if (device) {
    why_host = "CUDA-GL interop is turned off";
  } else {
    why_host = frame.host_origin.empty() ? "the result is on the host (CPU backend)" : frame.host_origin;
  }
  if (!update.output_via_interop) {
    if (host) {
      update.output_ms = timed_gl([&] { output_.upload(*host); });
      path_ = "host upload: " + why_host;
    } else {  // the result lives on the GPU only: bring it over, then up again (the round trip interop avoids)
      Stopwatch watch;
      const Image downloaded = download_device_image(device);
      update.output_ms = watch.elapsed_ms() + timed_gl([&] { output_.upload(downloaded); });
      path_ = "host upload (via a download): " + why_host;
    }
  }
  interop_active_ = update.output_via_interop;
  update.output_changed = true;
  output_generation_ = frame.output_generation;
  ++transfers_;
  last_output_ = update;
  return update;
}

bool FrameRenderer::try_interop(const DeviceImageRef& ref, double& write_ms) {
  if (!interop_blocked_) {
    std::string why = interop_unavailable_reason(ref.device);
    if (!why.empty()) interop_blocked_ = "CUDA-GL interop is unavailable: " + why;
  }
  if (interop_blocked_) return false;
  try {
    if (!interop_) {
      std::vector<InteropTarget::TextureTile> tiles;
      for (const ImageTextures::Tile& t : output_.tiles()) tiles.push_back({t.texture.id(), t.rect});
      interop_ = std::make_unique<InteropTarget>(std::move(tiles), ref.device);
    }
    // Registration happens once per texture set; the per-result cost is map + write + unmap (write() waits).
    Stopwatch watch;
    interop_->write(ref, options_.interop_write);
    write_ms = watch.elapsed_ms();
    return true;
  } catch (const Error& e) {
    // Once failed, always host: a driver that refuses a registration will refuse the next one too.
    interop_.reset();
    interop_blocked_ = std::string("CUDA-GL interop failed: ") + e.what();
    return false;
  }
}

void FrameRenderer::draw(int fb_width, int fb_height, const ViewState& view) {
  glViewport(0, 0, fb_width, fb_height);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glClearColor(0.11f, 0.11f, 0.12f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  if (fb_width <= 0 || fb_height <= 0 || (input_.empty() && output_.empty())) return;

  glUseProgram(program_.id());
  glBindVertexArray(quad_.id());
  glUniform2f(u_.viewport, float(fb_width), float(fb_height));
  glUniform1i(u_.image, 0);
  glUniform1i(u_.colormap, 1);
  // The colormap belongs to the output (a diverging one for signed results): the input is shown in gray, as it
  // is, also in the split's "before" half.
  const auto use_colormap = [&](Colormap map) {
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, colormaps_[std::size_t(map)].id());
    glActiveTexture(GL_TEXTURE0);
  };
  const ValueRange input_range = natural_range(input_.shape().type);
  if (view.split && !input_.empty() && !output_.empty()) {
    const int split_x = int(split_screen_x(view, {fb_width, fb_height}) + 0.5);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, split_x, fb_height);  // scissor boxes count from the bottom-left; full height either way
    use_colormap(Colormap::Gray);
    draw_image(input_, fb_width, fb_height, view, input_range.min, input_range.max);
    glScissor(split_x, 0, fb_width - split_x, fb_height);
    use_colormap(view.colormap);
    draw_image(output_, fb_width, fb_height, view, view.range_min, view.range_max);
    // The split line: two framebuffer pixels of light gray, cleared rather than drawn.
    glScissor(std::max(split_x - 1, 0), 0, 2, fb_height);
    glClearColor(0.85f, 0.85f, 0.85f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
  } else if (!output_.empty()) {
    use_colormap(view.colormap);
    draw_image(output_, fb_width, fb_height, view, view.range_min, view.range_max);
  } else {
    use_colormap(view.colormap);  // the input alone: the view's map (gray unless the user chose another)
    draw_image(input_, fb_width, fb_height, view, input_range.min, input_range.max);
  }

  glBindSampler(0, 0);  // ImGui's textures use their own parameters
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindVertexArray(0);
  glUseProgram(0);
  gl::check("drawing the image");
}

void FrameRenderer::draw_image(const ImageTextures& image, int fb_width, int fb_height, const ViewState& view,
                               float range_min, float range_max) {
  // An output window of a larger world (OutputPlacement) lies at its place, each texel a square of cells.
  const bool placed = &image == &output_ && output_placement_;
  const double x0 = placed ? output_placement_->x0 : 0, y0 = placed ? output_placement_->y0 : 0;
  const double texel = placed ? output_placement_->cells_per_pixel : 1;
  glBindSampler(0, double(view.zoom) * texel >= 1.0 ? nearest_.id() : minifying_.id());
  const ImageShape& shape = image.shape();
  glUniform1i(u_.channels, shape.channels);
  glUniform1f(u_.scale, gl::sample_scale(shape.type));
  // An empty window (max <= min) would divide by zero: show it as a step at min instead.
  const float span = range_max > range_min ? range_max - range_min : 1e-30f;
  glUniform2f(u_.range, range_min, 1.0f / span);
  const Size2 viewport{fb_width, fb_height};
  for (const ImageTextures::Tile& tile : image.tiles()) {
    const Vec2 a = image_to_screen(view, viewport, {x0 + texel * tile.rect.x, y0 + texel * tile.rect.y});
    const Vec2 b = image_to_screen(view, viewport, {x0 + texel * (tile.rect.x + tile.rect.width),
                                                   y0 + texel * (tile.rect.y + tile.rect.height)});
    if (b.x < 0 || b.y < 0 || a.x > fb_width || a.y > fb_height) continue;  // off screen
    glUniform4f(u_.rect, float(a.x), float(a.y), float(b.x), float(b.y));
    glBindTexture(GL_TEXTURE_2D, tile.texture.id());
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
}

Image FrameRenderer::read_pixels(int fb_width, int fb_height) const {
  Image bottom_up(fb_width, fb_height, 4, ElemType::U8);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, fb_width, fb_height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  gl::check("reading the frame back (glReadPixels)");
  Image top_down(bottom_up.shape());
  const std::size_t row = bottom_up.shape().row_bytes();
  for (int y = 0; y < fb_height; ++y)
    std::memcpy(top_down.data() + std::size_t(y) * row, bottom_up.data() + std::size_t(fb_height - 1 - y) * row, row);
  return top_down;
}

}  // namespace ks::ui
