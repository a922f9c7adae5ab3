#pragma once
// The seam between what was computed (app/session) and what is drawn (ui/render). No Qt, GL or CUDA headers here,
// so the session can fill it without knowing how the frame reaches the screen. It lives with the session, which
// fills it, so that nothing below ui/ includes ui/; its names stay in ks::ui, the view's vocabulary.
//
// For the session (how to fill a frame so that the CUDA result reaches the screen without a host round trip):
//   StencilRequest req; ... req.keep_on_device = true;   // CUDA backend: the result stays on the GPU too
//   req.download = false;                                // optional: skip the device -> host copy entirely
//   StencilResult r = engine.run_stencil(input, req);
//   frame.output = r.output.empty() ? nullptr : &r.output;   // host copy, when there is one
//   frame.output_device = r.output_device;                   // shown through CUDA-GL interop when it works
// Bump output_generation whenever output/output_device change (input_generation for the input): the renderer
// uploads or copies only then, so drawing a frame costs a quad, not a transfer. The pointed-to Images and the
// device allocation (kept alive by output_device.owner) must stay valid until the next FrameRenderer::update.
// With download = false, the pixel inspector (ui/render/pixel_probe.hpp) reads the device result one pixel at a
// time, and exports need download_device_image(frame.output_device) (gpu/core/device_image_ref.hpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/device_image_ref.hpp"
#include "core/image.hpp"
#include "report/colormap.hpp"

namespace ks::ui {

// A result that stayed on the GPU: a pitched device allocation, kept alive by `owner` as long as the reference is.
// (Defined in gpu/core so the engine can return it; fields: data, pitch, shape, owner, device.)
using DeviceImageRef = ks::DeviceImageRef;

// Where an output that covers only part of the image lies in image coordinates: a Life world of more than 2^30
// cells (up to 65536 x 65536) is never held as an image, so its frame is the window the view shows, each output
// pixel the population of a square of cells_per_pixel x cells_per_pixel cells (Simulation::density_view).
struct OutputPlacement {
  int x0 = 0, y0 = 0;                     // image coordinates of the output's top-left corner
  int cells_per_pixel = 1;                // image pixels (cells) per output pixel along each axis
  int image_width = 0, image_height = 0;  // the whole image (the world): what the view fits, probes and paints
};

// What the viewport shows this frame. Generations change when the pixels change, so the renderer uploads only then.
struct DisplayFrame {
  const Image* input = nullptr;    // the image as the kernel took it
  const Image* output = nullptr;   // the result on the host; null while there is none (or it lives on the GPU only)
  DeviceImageRef output_device;    // the result on the GPU when the CUDA backend ran: shown through interop
  std::uint64_t input_generation = 0;
  std::uint64_t output_generation = 0;
  bool signed_output = false;      // Laplacian, dx, dy: a diverging colormap and a range symmetric about 0
  // Whether the input is drawn (no result yet, or the before/after split): when it is not, the renderer frees
  // its textures rather than keep a second copy of a large image in the GL driver (in host memory without a GPU),
  // and uploads it again when it is drawn.
  bool input_shown = true;
  // Why results must not go through CUDA-GL interop any more (empty: they may). Set once a user's kernel faulted
  // in the worker process: on the NVIDIA driver measured (docs/PERF.md, "A fault and the display"), interop frames
  // drawn after another process's GPU fault stall and come out black, while host uploads stay right.
  std::string interop_refused;
  // Why a host result is on the host, in the display path's words, where it is not the CPU backend's result (empty:
  // it is): your kernel ran on the GPU in the worker process and its result came back through the host.
  std::string host_origin;
  // Set when the output is a window of a larger image (OutputPlacement); empty: the output is the whole image.
  std::optional<OutputPlacement> output_placement;
};

// The shape of the image the frame shows, as the view lays it out: the input's, else the whole image an output
// window belongs to, else the output's (empty when there is nothing).
inline ImageShape shown_image_shape(const DisplayFrame& f) {
  if (f.input) return f.input->shape();
  ImageShape shape = f.output ? f.output->shape() : f.output_device.shape;
  if (f.output_placement) {
    shape.width = f.output_placement->image_width;
    shape.height = f.output_placement->image_height;
  }
  return shape;
}

// DisplayFrame::host_origin for results that did not come from the CPU backend.
inline constexpr const char* kUserResultOnHost =
    "your kernel ran on the GPU in its worker process, and its result comes to the app through the host";
inline constexpr const char* kUserStateOnHost =
    "your step kernel runs on the GPU in its worker process, and the state it shows comes to the app through the "
    "host";
inline constexpr const char* kDifferenceOnHost = "the difference from the reference is computed on the host";
inline constexpr const char* kDensityWindowOnHost =
    "a world past 2^30 cells is shown through the density view of the window on screen, counted on the GPU and "
    "brought to the app as that window's pixels";

// The colormaps and their tables are app/report's (the simulation pictures of the CLI and the app use them
// too); the view names them as its own.
using report::all_colormaps;
using report::Colormap;
using report::colormap_name;
using report::colormap_table;
using report::ColormapTable;
using report::Rgba8;

// How the images are laid on the viewport. Image coordinates are pixels, (0,0) the top-left corner of pixel 0.
// Screen coordinates are framebuffer pixels, (0,0) the top-left corner of the viewport, y down (Qt's and ImGui's
// convention; multiply Qt's logical positions by devicePixelRatio first). ui/render/view_math.hpp does the math.
struct ViewState {
  float zoom = 1.0f;                 // screen (framebuffer) pixels per image pixel
  float center_x = 0.0f;             // image coordinates shown at the viewport's centre
  float center_y = 0.0f;
  bool split = false;                // before/after: input left of the split line, output right of it
  float split_position = 0.5f;       // 0..1 across the free area (free_width), so the line never hides under the
                                     // sidebar
  // Screen pixels from the viewport's left edge to the sidebar (0: no sidebar, the whole width). The viewport and
  // --screenshot set it from the panels' width as they draw.
  float free_width = 0.0f;
  Colormap colormap = Colormap::Gray;  // applied to single-channel images; colour images are shown as they are
  // Values mapped to the colormap's ends, in the image's units (u8: 0..255, f32: as stored, often 0..1). They
  // apply to the output (and to colour outputs as a linear window); the input is always shown over its type's
  // natural range (u8 0..255, f32 0..1). suggested_range() in ui/render/value_range.hpp picks them for a result
  // (0..255 for u8, symmetric about 0 for signed outputs). The defaults suit f32 results in 0..1.
  float range_min = 0.0f;
  float range_max = 1.0f;
  bool show_legend = true;           // drawn by ui/imgui/legend.hpp (draw_legend) for single-channel outputs
  // The launch's block grid over the image (ui/panels/launch/launch_overlay.hpp): outlines, idle threads, the block
  // under the cursor with its shared tile and the window its pixel reads.
  bool show_launch_grid = false;
};

// Whether `view` draws the frame's input: before any result, and in the before/after split (DisplayFrame::input_shown).
inline bool view_shows_input(const DisplayFrame& frame, const ViewState& view) {
  return view.split || (!frame.output && !frame.output_device);
}

}  // namespace ks::ui
