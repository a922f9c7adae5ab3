// Edit to result for a user's kernel (docs/PERF.md "Your own kernel: edit to result"): the 3x3 smoothing template
// on an 8192x8192 f32 image, changed by a comment each time so that it must be compiled again, then run once in
// the worker process; the time from the edit to the output on the host, split into its parts. The display step
// (putting the result on screen) is measured by the app's own display benchmark. By hand on the GPU machine, not
// a test: ks_bench_usercode_edit WORKER [REPEATS] [SIZE].
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <vector>

#include "usercode/run/user_stencil.hpp"
#include "usercode/run/worker_client.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace {

using namespace ks;
using namespace ks::usercode;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: ks_bench_usercode_edit WORKER [REPEATS] [SIZE]\n");
    return 2;
  }
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 11;
  const int size = argc > 3 ? std::max(1, std::atoi(argv[3])) : 8192;
  WorkerClient::Options options;
  options.executable = argv[1];
  WorkerClient worker(options);
  const WorkerHello& hello = worker.hello();
  if (!hello.ok) {
    fmt::print(stderr, "no GPU: {}\n", hello.message);
    return 1;
  }
  Image input(size, size, 1, ElemType::F32);
  std::mt19937 random(1);
  std::uniform_real_distribution<float> uniform(0.f, 1.f);
  for (float& v : input.elements<float>()) v = uniform(random);
  const std::string source =
      read_kernel_source(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/smooth3x3.cu");

  for (const auto& [pch, keep_input] : {std::pair{false, false}, std::pair{true, false}, std::pair{true, true}}) {
    std::vector<double> compile, run, total, upload, kernel, download, load;
    for (int i = 0; i <= repeats; ++i) {  // the first round (NVRTC loading, the worker's first module) is not kept
      CompileRequest request;
      request.file_name = "smooth3x3.cu";
      request.source = source + fmt::format("\n// edit {} {}\n", pch, i);
      request.options.arch = hello.arch;
      request.options.use_pch = pch;
      const auto t0 = Clock::now();
      const CompiledKernel k = compile_user_kernel(request);
      const double compile_ms = ms_since(t0);
      UserLaunchOptions launch;
      launch.params = {1.0};
      launch.warmup = 0;
      launch.repeat = 1;
      launch.input_key = keep_input ? "the image" : "";
      const auto t1 = Clock::now();
      const UserStencilRun r = run_user_stencil(worker, k, input, 2, 0, launch);
      const double run_ms = ms_since(t1);
      if (r.reply.outcome != RunOutcome::Ok) {
        fmt::print(stderr, "run failed: {}\n", r.reply.message);
        return 1;
      }
      if (i == 0) continue;
      compile.push_back(compile_ms);
      run.push_back(run_ms);
      total.push_back(compile_ms + run_ms);
      upload.push_back(r.reply.upload_ms);
      kernel.push_back(r.reply.kernel_ms.at(0));
      download.push_back(r.reply.download_ms);
      load.push_back(r.reply.load_ms);
    }
    fmt::print("{} {}x{} f32, {} edits, PCH {}, image kept on the GPU {}: edit to host result p50 {:.1f} ms = compile {:.1f} + run {:.1f} "
               "(module load {:.2f}, upload {:.1f}, kernel {:.3f}, download {:.1f}; the rest: shared-memory copies "
               "and the pipe)\n",
               hello.device, size, size, repeats, pch ? "on" : "off", keep_input ? "yes" : "no", median(total), median(compile), median(run),
               median(load), median(upload), median(kernel), median(download));
  }
  return 0;
}
