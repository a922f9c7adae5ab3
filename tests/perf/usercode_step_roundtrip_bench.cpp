// What one request of a user's `step` kernel costs the app and the CLI besides the kernel (docs/PERF.md "Your own
// step kernel in the app"): run_user_steps through a WorkerClient whose worker is this program itself started with
// --respond, a stand-in that answers every plan at once without a GPU (a progress line per launch, then the reply;
// the state stays as it is). So the figure is the host's side of a request: the state copied into and out of the
// shared memory, the plan as JSON, the pipe both ways, the reply read — everything but the upload, the launches
// and the download, which the GPU machine adds. By hand:
//   ks_bench_usercode_step_roundtrip [REPEATS]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "usercode/run/user_step.hpp"
#include "usercode/source_text.hpp"

namespace {

int respond() {
  std::cout << R"({"hello":{"ok":true,"device":"stand-in","arch":"sm_90","message":""}})" << std::endl;
  const std::regex timed("\"timed\":([0-9]+)");
  for (std::string line; std::getline(std::cin, line);) {
    std::smatch m;
    const int n = std::regex_search(line, m, timed) ? std::stoi(m[1]) : 1;
    std::string ms;
    for (int k = 0; k <= n; ++k) std::cout << fmt::format(R"({{"progress":{}}})", k) << '\n';
    for (int k = 0; k < n; ++k) ms += k ? ",0.01" : "0.01";
    std::cout << fmt::format(R"({{"reply":{{"outcome":"ok","message":"","cuda_error":"","kernel_ms":[{}],)"
                             R"("upload_ms":0,"download_ms":0,"load_ms":0}}}})",
                             ms)
              << std::endl;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ks;
  using namespace ks::usercode;
  if (argc > 1 && std::string(argv[1]) == "--respond") return respond();
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 200;
  CompileRequest r;
  r.file_name = "life_step.cu";
  r.source = read_kernel_source(std::string(KS_SOURCE_DIR) + "/assets/kernels/life_step.cu");
  r.options.arch = "sm_90";
  const CompiledKernel kernel = compile_user_kernel(r);
  if (!kernel.ok()) {
    std::fprintf(stderr, "life_step.cu does not compile here\n");
    return 1;
  }
  WorkerClient::Options o;
  o.executable = argv[0];
  o.arguments = {"--respond"};
  WorkerClient worker(o);
  UserLaunchOptions launch;
  launch.params = {3};
  std::printf("grid         steps/request  ms/request (median of %d)\n", repeats);
  for (const int side : {512, 2048, 8192})
    for (const int steps : {1, 16}) {
      Image state(side, side, 1, ElemType::U8);
      run_user_steps(worker, kernel, state, steps, launch);  // the shared memory made once
      std::vector<double> ms;
      for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        UserStepRun run = run_user_steps(worker, kernel, state, steps, launch);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        state = std::move(run.state);
      }
      std::sort(ms.begin(), ms.end());
      std::printf("%5dx%-5d  %13d  %10.3f\n", side, side, steps, ms[ms.size() / 2]);
    }
  return 0;
}
