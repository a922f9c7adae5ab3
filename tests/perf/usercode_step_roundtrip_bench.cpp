// What one request of a user's `step` kernel costs the app and the CLI besides the kernel (docs/PERF.md "Your own
// step kernel in the app"): run_user_steps through a WorkerClient whose worker is this program itself started with
// --respond, a stand-in that answers every plan at once without a GPU (a progress line per launch, then the reply;
// the state stays as it is). So the figure is the host's side of a request: the state copied into and out of the
// shared memory (unless the worker keeps it), the plan as JSON, the pipe both ways, the reply read — everything
// but the upload, the launches and the download, which the GPU machine adds. By hand:
//   ks_bench_usercode_step_roundtrip [REPEATS]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "perf/stand_in_worker.hpp"
#include "usercode/run/user_step.hpp"

int main(int argc, char** argv) {
  using namespace ks;
  using namespace ks::usercode;
  if (argc > 1 && std::string(argv[1]) == "--respond") return bench::respond_as_worker();
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 200;
  const CompiledKernel kernel = bench::compiled_template("life_step.cu");
  WorkerClient worker(bench::stand_in_options(argv[0]));
  UserLaunchOptions launch;
  launch.params = {3};
  // Two ways: the state sent from the host and back with every request (the CLI's `sim --kernel-file`, and the
  // app before the state stayed on the worker), and the state the worker keeps (the app's animation: no copy, no
  // download; the stand-in does not check that it holds the name).
  std::printf("grid         steps/request  ms/request, state from and to the host  ms/request, state kept on the "
              "worker (medians of %d)\n",
              repeats);
  const auto median = [](std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  };
  for (const int side : {512, 2048, 8192})
    for (const int steps : {1, 16}) {
      Image state(side, side, 1, ElemType::U8);
      run_user_steps(worker, kernel, state, steps, launch);  // the shared memory made once
      std::vector<double> host, kept;
      for (int i = 0; i < repeats; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        UserStepRun run = run_user_steps(worker, kernel, state, steps, launch);
        host.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        state = std::move(run.state);
        StepStates states;
        states.held = "state";
        states.keep_as = "state";
        states.download = false;
        t0 = std::chrono::steady_clock::now();
        run_user_steps(worker, kernel, state.shape(), steps, states, launch);
        kept.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      std::printf("%5dx%-5d  %13d  %40.3f  %38.3f\n", side, side, steps, median(host), median(kept));
    }
  return 0;
}
