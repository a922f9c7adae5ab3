// The CPU stencils' SIMD path against their scalar reference, run alternately on the same image and threads
// so that both see the same machine (others' load included): median and minimum of the timed runs of each,
// the ratio, the process's CPU time per run (all threads; less disturbed than the wall clock where other
// processes share the cores), and how far apart the two results are (u8: differing bytes, which must be 0;
// f32: the largest |simd - reference| / max(|reference|, 1), the measure of the tests' 1e-5 tolerance). By
// hand: `ks_bench_cpu_paths [SIZE [THREADS [REPEAT [FILTER]]]]` (defaults 4096, 2, 9; FILTER: only the cases
// whose name contains it, e.g. "gaussian f32"). Not a test.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/simd/simd_target.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/test_support.hpp"

namespace {

using namespace ks;

struct Case {
  const char* kernel;
  ElemType type;
  std::vector<std::string> params;
};

// u8: how many bytes differ; f32: the largest |a - b| / max(|b|, 1).
double difference(const Image& a, const Image& b) {
  double worst = 0;
  if (a.type() == ElemType::U8) {
    const auto x = a.elements<std::uint8_t>(), y = b.elements<std::uint8_t>();
    for (std::size_t i = 0; i < x.size(); ++i) worst += x[i] != y[i];
  } else {
    const auto x = a.elements<float>(), y = b.elements<float>();
    for (std::size_t i = 0; i < x.size(); ++i)
      worst = std::max(worst, std::abs(double(x[i]) - y[i]) / std::max(std::abs(double(y[i])), 1.0));
  }
  return worst;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 4096;
  ThreadPool pool(argc > 2 ? unsigned(std::atoi(argv[2])) : 2u);
  const int repeat = argc > 3 ? std::atoi(argv[3]) : 9;
  const std::string filter = argc > 4 ? argv[4] : "";
  const Case cases[] = {
      {"median", ElemType::U8, {"radius=1"}},
      {"median", ElemType::U8, {"radius=2"}},
      {"median", ElemType::U8, {"radius=3"}},
      {"median", ElemType::F32, {"radius=1"}},
      {"gaussian", ElemType::F32, {"sigma=2"}},
      {"gaussian", ElemType::F32, {"sigma=8"}},
      {"gaussian", ElemType::U8, {"sigma=2"}},
      {"box", ElemType::U8, {"radius=1"}},
      {"box", ElemType::F32, {"radius=1"}},
      {"sobel", ElemType::U8, {"output=magnitude"}},
      {"sobel", ElemType::F32, {"output=magnitude"}},
      {"sobel", ElemType::U8, {"output=dx"}},
      {"laplacian", ElemType::U8, {}},
      {"laplacian", ElemType::F32, {}},
      {"sharpen", ElemType::U8, {}},
      {"convolve", ElemType::F32, {}},
  };
  fmt::print("{}x{}, {} threads, SIMD target {}\n", size, size, pool.size(), cpu::simd::simd_description());
  fmt::print("{:<32} {:>10} {:>10} {:>10} {:>10} {:>8} {:>10} {:>10} {:>10}\n", "case", "simd med",
             "simd min", "ref med", "ref min", "ref/simd", "simd cpu", "ref cpu", "apart");
  for (const Case& c : cases) {
    ParamSet params = KernelRegistry::builtin().get(c.kernel).default_params();
    std::string name = fmt::format("{} {}", c.kernel, to_string(c.type));
    for (const auto& p : c.params) {
      params.set_assignment(p);
      name += " " + p;
    }
    if (name.find(filter) == std::string::npos) continue;
    const StencilPlan plan = make_stencil_plan(c.kernel, params);
    const Image in = test::random_image(size, size, 1, c.type, 7);
    Image out(in.shape()), reference(in.shape());
    std::vector<double> simd, ref, simd_cpu, ref_cpu;
    for (int i = 0; i <= repeat; ++i) {
      for (cpu::CpuPath path : {cpu::CpuPath::Simd, cpu::CpuPath::Reference}) {
        const std::clock_t cpu_start = std::clock();
        Stopwatch watch;
        cpu::run_stencil_into(plan, in, path == cpu::CpuPath::Simd ? out : reference, pool, path);
        const double wall_ms = watch.elapsed_ms();
        const double cpu_ms = 1e3 * double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
        if (i == 0) continue;  // the warm-up
        (path == cpu::CpuPath::Simd ? simd : ref).push_back(wall_ms);
        (path == cpu::CpuPath::Simd ? simd_cpu : ref_cpu).push_back(cpu_ms);
      }
    }
    fmt::print("{:<32} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f} {:>7.2f}x {:>10.2f} {:>10.2f} {:>10.3g}\n",
               name, median_of(simd), *std::min_element(simd.begin(), simd.end()), median_of(ref),
               *std::min_element(ref.begin(), ref.end()), median_of(ref) / median_of(simd),
               median_of(simd_cpu), median_of(ref_cpu), difference(out, reference));
  }
  return 0;
}
