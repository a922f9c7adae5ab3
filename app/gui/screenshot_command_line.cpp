// `kernelscope --screenshot ...`'s command line: its options (CLI11), their texts turned into a ScreenshotRequest,
// and the exit code and the line that say how it went.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <string_view>
#include <tuple>

#include "core/device_models.hpp"
#include "core/error.hpp"
#include "gui/screenshot.hpp"

namespace ks::app {

namespace {

// The command line before its texts become a request (sizes, the probe and the split are parsed afterwards).
struct ScreenshotArguments {
  ScreenshotRequest request;
  std::string out, size, input, grid, probe, kernel_file, counters;
  float split = -1;
  bool no_panels = false;
};

CLI::App make_command_line() {
  return CLI::App("kernelscope --screenshot: render one frame of the app without a display and write it", "kernelscope");
}

void add_options(CLI::App& cli, ScreenshotArguments& a) {
  ScreenshotRequest& request = a.request;
  cli.add_option("--screenshot", a.out, "the image file to write (.png, .jpg, .bmp, .tga)")->required();
  cli.add_option("--kernel,-k", request.kernel, "the kernel to run (kernelscope-cli list)");
  cli.add_option("--param,-p", request.params, "a kernel parameter, name=value (repeatable)");
  cli.add_option("--size", a.size, "frame size WxH in pixels (default 1280x800)");
  cli.add_flag("--no-panels", a.no_panels, "the image only, without the ImGui panels");
  cli.add_flag("--topology", request.topology, "show the Topology panel with its sample swept");
  cli.add_option("--topology-traffic", request.topology_traffic, "the Topology panel on this traffic file or folder");
  cli.add_option("--topology-placements", request.topology_placements, "all, sample:N, identity, search or bnb");
  cli.add_option("--split", a.split, "show input left and output right of this fraction of the width beside the sidebar (0..1)");
  cli.add_option("--backend", request.backend, "cpu or cuda (default: cuda when there is a GPU)");
  cli.add_option("--type", request.type, "u8 or f32: what kernels run on (f32 keeps signed results)");
  cli.add_option("--steps", request.steps, "simulations: steps to run before the frame (default 0)");
  cli.add_option("--grid", a.grid, "simulations: grid size WxH (default 512x512)");
  cli.add_option("--variant", request.variant, "the variant to run (default: the backend's)");
  cli.add_option("--lab-size", request.lab_size, "lab kernels: the size (2^24, 1024x1024, 256x256x256)");
  cli.add_option("--lab-host", request.lab_host, "lab kernels on CUDA: pageable, pinned, mapped, managed, ...");
  cli.add_option("--lab-streams", request.lab_streams, "lab kernels on CUDA: streams (vecadd, saxpy, reduce)");
  cli.add_option("--lab-also", request.lab_also, "lab kernels: variants run first, or KERNEL:VARIANT at its default size (points on the Roofline)")
      ->delimiter(',');
  cli.add_flag("--lab-sweep", request.lab_sweep, "lab kernels: sweep sizes after the run (the Lab section's plot)");
  cli.add_option("--sections", request.sections, "sidebar sections open: kernel,lab,timing,roofline,...")
      ->delimiter(',');
  cli.add_option("--sidebar-width", request.sidebar_width, "the sidebar's width in pixels (default 380)");
  cli.add_option("--text-size", request.text_size, "the panels' text size in points, 13..32 (presenter view)");
  cli.add_flag("--high-contrast", request.high_contrast, "the panels' high-contrast theme");
  cli.add_option("--source-variant", request.source_variant,
                 "the Source section: whose code it shows (default: the running variant's)");
  cli.add_option("--source-compare", request.source_compare,
                 "the Source section: the variant it is compared with");
  cli.add_option("--pattern", request.pattern, "life: a built-in pattern (glider, ...) or an .rle file to start from");
  cli.add_option("--playlist", request.playlist, "a demo playlist (.json or a demo's name) to show a step of");
  cli.add_option("--playlist-step", request.playlist_step, "the playlist's step to show (default 1)");
  cli.add_flag("--launch-overlay", request.launch_overlay, "draw the launch's block grid over the image (View > Launch grid)");
  cli.add_option("--device-model", request.device_model, "picture the launch on a device model: " + device_model_ids());
  cli.add_option("--block", request.block, "the CUDA block shape WxH (default 32x8)");
  cli.add_option("--probe", a.probe, "X,Y: the pixel under the cursor (inspector, launch overlay hover text)");
  cli.add_option("--zoom", request.zoom, "screen pixels per image pixel, centred on --probe (default: fitted)");
  cli.add_flag("--counters{quick}", a.counters,
               "the Timing section's Counters switch on: the GPU's hardware counters in the Timing and Why "
               "sections (CUDA runs of built-in stencils and lab kernels); =all for every counter (9 passes), "
               "one pass otherwise, as the app's default")
      ->option_text("[=quick|all]")
      ->check(CLI::IsMember({"quick", "all"}));
  cli.add_option("--kernel-file", a.kernel_file,
                 "your own kernel (.cu with // @family stencil, array or step), compiled and run in place of the "
                 "built-in as the kernel editor's Run does; running it needs a GPU");
  cli.add_option("--kernel-param", request.kernel_params, "with --kernel-file: a declared parameter, name=value (repeatable)");
  cli.add_option("--compare", request.compare,
                 "with --kernel-file: the built-in KERNEL[:VARIANT] it is checked against (default: the app's: "
                 "box, the simulation its cells fit, the first lab kernel it fits on the CPU)");
  cli.add_flag("--show-difference", request.show_difference,
               "with --kernel-file: |yours - reference| as a heatmap in place of the result (Your kernel > Show "
               "the difference)");
  cli.add_option("file", a.input, "the image to open (default: the embedded sample)");
}

// Two integers and a separator between them, nothing else ("1280x800" for --size and --grid, "100,60" for --probe).
std::pair<int, int> parse_pair(const std::string& text, std::string_view separators, const std::string& option,
                               const char* form, const char* example) {
  int a = 0, b = 0;
  char separator = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &a, &separator, &b, &extra) != 3 ||
      separators.find(separator) == std::string_view::npos)
    throw_usage(option + " '" + text + "' is not " + form, "e.g. " + option + " " + example);
  return {a, b};
}

std::pair<int, int> parse_size(const std::string& text, const std::string& option) {
  return parse_pair(text, "xX", option, "WxH", "1280x800");
}

ScreenshotRequest request_of(ScreenshotArguments& a, const CLI::App& cli) {
  ScreenshotRequest request = std::move(a.request);
  request.out = a.out;
  request.panels = !a.no_panels;
  if (!a.input.empty()) request.input = a.input;
  if (!a.kernel_file.empty()) request.kernel_file = a.kernel_file;
  if (!a.counters.empty()) {
    request.counters = true;
    request.counter_set = parse_counter_set(a.counters);
  }
  if (cli.count("--split")) request.split = a.split;
  if (!a.size.empty()) std::tie(request.width, request.height) = parse_size(a.size, "--size");
  if (!a.grid.empty()) request.grid = parse_size(a.grid, "--grid");
  if (!a.probe.empty()) request.probe = parse_pair(a.probe, ",", "--probe", "X,Y", "100,60");
  return request;
}

}  // namespace

bool wants_screenshot(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--screenshot") == 0 || std::strncmp(argv[i], "--screenshot=", 13) == 0) return true;
  return false;
}

std::string screenshot_help() {
  CLI::App cli = make_command_line();
  ScreenshotArguments arguments;
  add_options(cli, arguments);
  return cli.help();
}

int screenshot_main(int argc, char** argv) {
  CLI::App cli = make_command_line();
  ScreenshotArguments arguments;
  add_options(cli, arguments);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e);
    return code == 0 ? 0 : exit_code_for(ErrorKind::Usage);
  }
  try {
    const ScreenshotRequest request = request_of(arguments, cli);
    const ScreenshotResult r = take_screenshot(request);
    std::printf("kernelscope: wrote %s (%dx%d; display: %s; EGL: %s)\n", request.out.string().c_str(),
                r.frame.width(), r.frame.height(), r.display_path.c_str(), r.platform.c_str());
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "kernelscope: error: %s\n", e.full_message().c_str());
    return exit_code_for(e.kind());
  }
}

}  // namespace ks::app
