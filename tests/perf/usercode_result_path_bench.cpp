// What a user stencil's result costs the host on its way back (docs/PERF.md "Your own kernel: the result path"):
// run_user_stencil at 8192² and 4096² f32 through a WorkerClient whose worker is this program itself started with
// --respond (perf/stand_in_worker.hpp: no GPU, the shared memory untouched), the input kept in the shared memory
// as the app keeps its image, and each result held until the next one arrives, as the app shows it. Beside it,
// what the result path did before it read the result in place: a copy of the result out of the shared memory
// into an image of its own. By hand:
//   ks_bench_usercode_result_path [REPEATS]
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/timing.hpp"
#include "perf/stand_in_worker.hpp"
#include "usercode/run/user_stencil.hpp"

int main(int argc, char** argv) {
  using namespace ks;
  using namespace ks::usercode;
  if (argc > 1 && std::string(argv[1]) == "--respond") return bench::respond_as_worker();
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 11;
  const CompiledKernel kernel = bench::compiled_template("smooth3x3.cu");
  WorkerClient worker(bench::stand_in_options(argv[0]));
  UserLaunchOptions launch;
  launch.params = {1.0};
  launch.warmup = 1;
  launch.repeat = 5;
  fmt::print("image          run, result read in place (ms)  copy of the result out of it (ms)  (medians of {})\n",
             repeats);
  for (const int side : {8192, 4096}) {
    const Image input(side, side, 1, ElemType::F32);
    launch.input_key = fmt::format("input {}", side);
    std::shared_ptr<const Image> shown;
    std::vector<double> run_ms, copy_ms;
    for (int i = 0; i <= repeats; ++i) {  // the first round makes the blocks and places the input: not kept
      Stopwatch watch;
      UserStencilRun run = run_user_stencil(worker, kernel, input, 2, 0, launch);
      const double ms = watch.elapsed_ms();
      watch.restart();
      const Image copied = run.output;  // an owning copy: the old path's copy out of the shared memory
      const double copied_ms = watch.elapsed_ms();
      shown = std::make_shared<const Image>(std::move(run.output));  // shown until the next result replaces it
      if (i == 0) continue;
      run_ms.push_back(ms);
      copy_ms.push_back(copied_ms);
    }
    fmt::print("{:5}x{:<5} f32  {:30.2f}  {:33.2f}\n", side, side, TimingStats::of(run_ms).median_ms,
               TimingStats::of(copy_ms).median_ms);
  }
  return 0;
}
