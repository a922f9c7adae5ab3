#pragma once
// `kernelscope --screenshot OUT.png [--kernel K] [--param k=v]... [--variant V] [--size WxH] [--no-panels]
//  [--split F] [--backend cpu|cuda] [--type u8|f32] [--steps N] [--pattern NAME|FILE.rle] [--lab-size S]
//  [--lab-host MODE] [--lab-streams K] [--lab-also V,V] [--lab-sweep] [--sections a,b] [--sidebar-width W]
//  [--source-variant V] [--source-compare V] [--text-size P] [--high-contrast] [--playlist FILE --playlist-step K]
//  [--launch-overlay] [--device-model M] [--block WxH] [--probe X,Y] [--zoom Z] [--counters[=quick|all]]
//  [--kernel-file FILE.cu [--kernel-param NAME=VALUE]... [--compare KERNEL[:VARIANT]] [--show-difference]] [FILE]`:
// renders one frame of the app (the image and the ImGui panels) offscreen through EGL, writes it atomically and
// exits; no window, no display, no QApplication. The same Session, FrameRenderer, ImGuiLayer and panels as the
// window, so the PNG is what the window would show. --counters turns the Timing section's Counters switch on
// before the run. --kernel-file runs a kernel of the user's as the kernel editor's Run does
// (screenshot_user_kernel.hpp): a GPU is needed to run it, not to compile it. Exit codes: 0 written; 2 a bad
// request (unknown option, kernel or parameter, impossible size or format, a kernel that does not compile); 1 a
// runtime failure (unreadable file, no EGL/GL, GPU failure, no GPU for a kernel of the user's).
// The app's main calls screenshot_main before any Qt object exists; a build without Qt 6 makes `kernelscope` of
// headless_app.hpp, which runs only this.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "core/kernel_counters.hpp"

namespace ks::app {

struct ScreenshotRequest {
  std::filesystem::path out;                    // .png, .jpg/.jpeg, .bmp or .tga
  std::optional<std::filesystem::path> input;   // empty: the embedded sample
  std::string kernel;                           // empty: the session's default
  std::vector<std::string> params;              // "name=value", checked by the kernel's registry entry
  std::string backend;                          // "", "cpu" or "cuda"
  std::string type;                             // "", "u8" or "f32": the element type kernels run on
  int width = 1280, height = 800;               // framebuffer pixels
  bool panels = true;
  std::optional<float> split;                   // before/after split at this fraction of the width (0..1)
  // Simulations (life, heat, grayscott): steps run before the frame, and a Life pattern (a built-in name or an
  // .rle file) to start from.
  long long steps = 0;
  std::string pattern;
  std::optional<std::pair<int, int>> grid;      // the simulation's grid (default 512x512, or the image's size)
  bool topology = false;                        // with the Topology panel, swept: its sample, or
  std::string topology_traffic;                 // this traffic file or folder (implies topology)
  std::string topology_placements;              // all | sample:N | identity (implies topology)
  // Lab kernels (vecadd, ..., kmeans): the size ("2^24", "1024x1024", "256x256x256"), the variant shown, variants
  // run before it (each a point on the Roofline), and a size sweep after it (the Lab section's plot).
  std::string variant;                          // also for stencils and simulations
  std::string lab_size;
  std::string lab_host;                         // pageable | pinned | mapped | managed | managed-prefetch (CUDA)
  int lab_streams = 1;                          // CUDA, kernels that split
  std::vector<std::string> lab_also;            // variants run first; KERNEL:VARIANT: another lab kernel's run
  bool lab_sweep = false;
  // The sidebar's sections open in the frame ("kernel,lab,timing,roofline,launch,device,view,simulation");
  // empty: the app's defaults. And its width in pixels (0: the app's).
  std::vector<std::string> sections;
  float sidebar_width = 0;
  // The panels' text size in points (13..32) and the high-contrast theme (View > Text size, High-contrast theme).
  float text_size = 13;
  bool high_contrast = false;
  // The Source section (open it with --sections source): whose code it shows (empty: the running
  // variant's) and the variant it is compared with (empty: none).
  std::string source_variant;
  std::string source_compare;
  // A demo playlist (a .json file or a demo's name) shown at step `playlist_step` (1-based): its caption and
  // step list over the frame, the session and view as that step leaves them (simulations paused there).
  std::string playlist;
  int playlist_step = 1;
  // The launch drawn on the image (View > Launch grid): on a device model ("h100", ...: the Launch section's
  // "device model", for a machine without a GPU), with this block ("16x16"), the hover text of this pixel, and a
  // zoom (screen pixels per image pixel) centred on that pixel.
  bool launch_overlay = false;
  std::string device_model;
  std::string block;
  std::optional<std::pair<int, int>> probe;
  float zoom = 0;  // 0: the fitted view
  // The Timing section's Counters switch, on before the run: the GPU's hardware counters in the Timing and Why
  // sections (on the CPU backend the section says, as the app does, that only a CUDA run reads them).
  bool counters = false;
  CounterSet counter_set = CounterSet::Quick;  // the Timing section's choice: one pass, or all (--counters=all)
  // Your own kernel (README "Your own kernel"): this .cu compiled and run in place of the built-in as the kernel
  // editor's Run does, its `// @family` saying where (a stencil on the image, an array kernel in the Lab, a step
  // kernel in the simulation); the values of its declared parameters (NAME=VALUE, checked against their ranges);
  // the built-in it is checked against, as the app's (a stencil's and a step kernel's: KERNEL is the Kernel
  // section's, checked on the CPU, and VARIANT the variant shown there; an array kernel's: the Lab's "check
  // against" KERNEL:VARIANT; empty: the app's default); and |yours - reference| in place of the result.
  std::optional<std::filesystem::path> kernel_file;
  std::vector<std::string> kernel_params;
  std::string compare;
  bool show_difference = false;
};

// True when argv asks for a screenshot (an argument `--screenshot` or `--screenshot=...`): the app's main calls
// screenshot_main instead of starting Qt.
bool wants_screenshot(int argc, char** argv);

// Parses argv (argv[0] is the program), renders, writes, prints one line saying what it wrote; returns the exit
// code. Errors are printed to stderr as "kernelscope: error: what. hint". (screenshot_command_line.cpp)
int screenshot_main(int argc, char** argv);
// The options of --screenshot as `kernelscope --screenshot OUT.png --help` prints them.
std::string screenshot_help();

struct ScreenshotResult {
  Image frame;              // RGB8, top row first: what was written
  std::string display_path; // how the result reached the texture ("CUDA-GL interop (...)", "host upload: ...")
  std::string platform;     // EGL platform and GL renderer
};

// The work of screenshot_main without the argument parsing: throws ks::Error (usage for bad requests), writes
// request.out atomically only when the frame is complete.
ScreenshotResult take_screenshot(const ScreenshotRequest& request);

}  // namespace ks::app
