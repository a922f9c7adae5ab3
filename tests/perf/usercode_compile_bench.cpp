// Compile times of a user's kernel through the compiler service (docs/PERF.md "Your own kernel: compile times"):
// the 3x3 smoothing template compiled again and again, each time with a changed comment so that nothing but the
// service's own cache can skip work: plain NVRTC, NVRTC with its automatic precompiled header for the prelude,
// and a cache hit. By hand, not a test: ks_bench_usercode_compile [REPEATS].
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <filesystem>
#include <vector>

#include "usercode/nvrtc_compile.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace {

using namespace ks::usercode;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double wall_ms(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
  const std::string source =
      read_kernel_source(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/smooth3x3.cu");
  CompileRequest request;
  request.file_name = "smooth3x3.cu";
  int edit = 0;
  auto edited = [&](bool pch) {
    CompileRequest r = request;
    r.source = source + fmt::format("// edit {}\n", ++edit);
    r.options.use_pch = pch;
    return r;
  };
  fmt::print("NVRTC {}, {} repeats, smooth3x3.cu for sm_90\n", nvrtc_version(), repeats);
  const double first = wall_ms([&] { compile_user_kernel(edited(false)); });
  fmt::print("first compile in the process (NVRTC loads): {:.0f} ms\n", first);
  for (bool pch : {false, true}) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) times.push_back(wall_ms([&] { compile_user_kernel(edited(pch)); }));
    fmt::print("{:<28} median {:.0f} ms, min {:.0f} ms\n", pch ? "NVRTC with PCH (prelude):" : "plain NVRTC:",
               median(times), *std::min_element(times.begin(), times.end()));
  }
  CompileCache cache;
  const CompileRequest same = edited(true);
  compile_user_kernel(same, &cache);
  std::vector<double> hits;
  for (int i = 0; i < repeats; ++i) hits.push_back(wall_ms([&] { compile_user_kernel(same, &cache); }));
  fmt::print("{:<28} median {:.3f} ms\n", "cache hit (same source):", median(hits));
  return 0;
}
