// Edit to screen for a user's kernel as the desktop app does it (docs/PERF.md "Your own kernel: edit to screen"):
// the 3x3 smoothing template, changed by a comment each time so that it compiles again (NVRTC, PCH on), handed to
// the app's Session in place of the built-in box (Session::use_user_kernel), run there (the worker process, the
// app's warm-up and timed launches, the result back on the host), and its frame brought to the display by the
// app's FrameRenderer in a headless EGL context (a host upload, GL finished). What is not here: the editor's pause
// in typing before a compile starts and the window's next paint. By hand on the GPU machine, not a test:
//   KS_WORKER=kernelscope-cli ks_bench_usercode_edit_screen IMAGE [REPEATS]
// (IMAGE: any image the app opens, run as f32, e.g. a random 8192x8192 PNG).
#include <fmt/format.h>

#include <GL/gl.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include "core/timing.hpp"
#include "headless/headless_renderer.hpp"
#include "session/session.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace {

using namespace ks;

double median(const std::vector<double>& v) { return TimingStats::of(v).median_ms; }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::getenv("KS_WORKER")) {
    fmt::print(stderr, "usage: KS_WORKER=kernelscope-cli ks_bench_usercode_edit_screen IMAGE [REPEATS]\n");
    return 2;
  }
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 11;
  try {
    app::Session session;
    session.open_image(argv[1]);
    session.set_element_type(ElemType::F32);
    session.set_backend(Backend::Cuda);
    session.select_kernel("box");
    session.set_param("radius", "1");
    const Image* input = session.stencil().input();
    ui::HeadlessRenderer screen(1600, 1000);
    const std::string source =
        usercode::read_kernel_source(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/smooth3x3.cu");
    // Twice: edits back to back (the previous result's check against the CPU reference is still running when the
    // next edit arrives, and is stopped), then as a person edits, with a pause after each result (the check has
    // ended before the next edit; the pause itself is not timed).
    for (const bool pause : {false, true}) {
      std::vector<double> compile, run, display, total;
      for (int i = 0; i <= repeats; ++i) {  // the first round (NVRTC loading, the worker's start) is not kept
        if (pause) session.wait_idle();
        usercode::CompileRequest request;
        request.file_name = "smooth3x3.cu";
        request.source = source + fmt::format("\n// edit {} {}\n", pause, i);
        request.options.arch = "sm_90";
        request.options.use_pch = true;
        Stopwatch watch;
        auto kernel = std::make_shared<usercode::CompiledKernel>(usercode::compile_user_kernel(request));
        const double compile_ms = watch.elapsed_ms();
        watch.restart();
        session.use_user_kernel(app::UserStencilChoice{kernel, "smooth3x3.cu", {1.0}});
        session.run_now();
        const double run_ms = watch.elapsed_ms();
        watch.restart();
        ui::DisplayFrame frame = session.display_frame();
        const ui::DisplayUpdate update = screen.renderer().update(frame);
        glFinish();
        const double display_ms = watch.elapsed_ms();
        if (!update.output_changed) throw Error(ErrorKind::Internal, "the new result did not reach the display");
        if (i == 0) continue;
        compile.push_back(compile_ms);
        run.push_back(run_ms);
        display.push_back(display_ms);
        total.push_back(compile_ms + run_ms + display_ms);
      }
      const RunReport& report = *session.stencil().last_report();
      fmt::print("{}x{} f32, {} edits {}: edit to screen p50 {:.1f} ms = compile {:.1f} + run {:.1f} (kernel median "
                 "{:.3f} of {} timed launches, upload {:.1f}, download {:.1f}) + display {:.1f} ({}); min {:.1f}, "
                 "max {:.1f}\n",
                 input->width(), input->height(), repeats, pause ? "with a pause after each" : "back to back",
                 median(total), median(compile), median(run), report.kernel_time.median_ms, report.kernel_time.count,
                 report.upload_ms, report.download_ms, median(display), screen.renderer().display_path(),
                 *std::min_element(total.begin(), total.end()), *std::max_element(total.begin(), total.end()));
    }
  } catch (const Error& e) {
    fmt::print(stderr, "error: {}\n", e.full_message());
    return 1;
  }
  return 0;
}
