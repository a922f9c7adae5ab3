// ks_bench_lab_sort_kmeans: the figures of docs/PERF.md "Basics lab: sort, kmeans", measured through the same
// functions the lab kernels call (sort_on_gpu: the input restored before each timed sort, untimed; kmeans:
// the backends from one k-means++ start), each result checked:
//   sort   2^24 u32 uniform keys and pairs, bitonic and radix (20 timed runs after a warm-up, medians), CUB
//   radix
//          2^28 keys and pairs (10 runs), std::sort and tbb::parallel_sort of the same 2^24 keys;
//   kmeans a 4096^2 picture (the sample stretched 4x horizontally, 5.33x vertically: flat 4x5 patches,
//   natural
//          colours), K = 16, 30 iterations: CPU (every core), naive, blocked; the assignment pass's median
//          time, the whole run, and whether the centroids equal the CPU's.
// --image PATH also saves that picture (for `kernelscope-cli lab kmeans -i PATH`). Run by hand on the GPU
// machine; without a device it says so and exits 0.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "assets.hpp"
#include "core/cuda_context.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "io/image_io.hpp"
#include "lab/kmeans/cuda/kmeans_cuda.hpp"
#include "lab/kmeans/kmeans_cpu.hpp"
#include "lab/kmeans/kmeans_image.hpp"
#include "lab/kmeans/kmeans_seed.hpp"
#include "lab/sort/cuda/sort_cuda.hpp"
#include "lab/sort/sort_cpu.hpp"
#include "lab/sort/sort_data.hpp"

namespace {

using namespace ks;
using namespace ks::lab;

double median(std::vector<double> v) {
  return TimingStats::of(std::move(v)).median_ms;
}

void bench_sort(CudaContext& ctx, ThreadPool& pool, std::size_t n, int runs, bool with_bitonic) {
  std::vector<std::uint32_t> input(n);
  fill_keys(input, KeyDistribution::Uniform, 1, pool);
  std::vector<std::uint32_t> expected = input;
  if (with_bitonic) {
    Stopwatch w;
    sort_cpu(expected, {}, false);
    fmt::print("sort n={} std::sort keys: {:.1f} ms (1 run)\n", n, w.elapsed_ms());
    if (cpu_parallel_sort_unavailable_reason().empty()) {
      std::vector<double> ms;
      for (int i = 0; i < 3; ++i) {
        std::vector<std::uint32_t> k = input;
        Stopwatch p;
        sort_cpu(k, {}, true);
        ms.push_back(p.elapsed_ms());
      }
      fmt::print("sort n={} tbb::parallel_sort keys ({} threads): {:.1f} ms median of 3\n", n, pool.size(),
                 median(ms));
    }
  }
  const double copy_gbps = ctx.copy_bandwidth_gbps();
  for (auto variant : {cuda::GpuSort::Bitonic, cuda::GpuSort::Radix}) {
    if (variant == cuda::GpuSort::Bitonic && !with_bitonic) continue;
    for (bool pairs : {false, true}) {
      std::vector<std::uint32_t> keys = input,
                                 values = pairs ? make_positions(n) : std::vector<std::uint32_t>{};
      const auto t = cuda::sort_on_gpu(variant, keys, values, runs, ctx.stream());
      const double ms = median(t.sort_ms);
      const bool ok = with_bitonic ? keys == expected : std::is_sorted(keys.begin(), keys.end());
      const double bytes = double(n) * (pairs ? 16 : 8);  // the cost model: each array read and written once
      fmt::print(
          "sort n={} {} {}: median {:.3f} ms (min {:.3f}) = {:.2f} Gkeys/s, {:.0f} GB/s counted = {:.1f}% "
          "of copy {:.0f} GB/s; {}\n",
          n, variant == cuda::GpuSort::Radix ? "radix" : "bitonic", pairs ? "pairs" : "keys", ms,
          TimingStats::of(t.sort_ms).min_ms, double(n) / (ms * 1e6), bytes / (ms * 1e6),
          100 * bytes / (ms * 1e6) / copy_gbps, copy_gbps, ok ? "output checked" : "OUTPUT WRONG");
    }
  }
}

Image bench_picture() {
  const Image sample = load_image_from_memory(embedded::sample_png(), "embedded sample");
  Image img(4096, 4096, 3, ElemType::U8);
  for (int y = 0; y < 4096; ++y) {
    const std::uint8_t* src = sample.row<std::uint8_t>(y * sample.height() / 4096);
    std::uint8_t* dst = img.row<std::uint8_t>(y);
    for (int x = 0; x < 4096; ++x) std::memcpy(dst + 3 * x, src + 3 * (x * sample.width() / 4096), 3);
  }
  return img;
}

void bench_kmeans(CudaContext& ctx, ThreadPool& pool, const Image& img) {
  const std::vector<std::uint32_t> px = kmeans_pixels(img);
  KmeansParams p;
  p.k = 16;
  p.max_iterations = 30;
  p.tolerance = 0;
  Stopwatch seed_clock;
  const std::vector<float> start = kmeanspp_centres(px, p.k, 1, pool);
  fmt::print("kmeans 4096^2 K=16: k-means++ start {:.1f} ms on the host\n", seed_clock.elapsed_ms());
  auto report = [&](const char* name, const KmeansResult& r, double total_ms, const KmeansResult* ref) {
    const double pass = median(r.assign_ms);
    fmt::print(
        "kmeans 4096^2 K=16 {}: {} iterations, pass median {:.3f} ms ({:.1f} Gpixel/s), run {:.1f} ms; "
        "final inertia {:.6g}; {}\n",
        name, r.iterations, pass, double(px.size()) / (pass * 1e6), total_ms, r.inertia.back(),
        ref ? (r.centroids == ref->centroids ? "centroids equal the CPU's" : "CENTROIDS DIFFER")
            : "reference");
  };
  std::vector<std::uint32_t> labels(px.size());
  auto cpu = make_cpu_kmeans(px, labels, pool);
  Stopwatch cpu_clock;
  const KmeansResult ref = run_lloyd(*cpu, start, p);
  report("cpu", ref, cpu_clock.elapsed_ms(), nullptr);
  for (auto v : {cuda::KmeansVariant::Naive, cuda::KmeansVariant::Blocked}) {
    cuda::kmeans_on_gpu(ctx, px, start, p, v);  // warm-up
    Stopwatch clock;
    const cuda::GpuKmeans g = cuda::kmeans_on_gpu(ctx, px, start, p, v);
    report(v == cuda::KmeansVariant::Naive ? "naive" : "blocked", g.result, clock.elapsed_ms(), &ref);
    if (g.labels != labels) fmt::print("kmeans: LABELS DIFFER from the CPU's\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (!no_device_reason().empty()) {
      fmt::print("no CUDA device: {}\n", no_device_reason());
      return 0;
    }
    auto ctx = CudaContext::create(0);
    ThreadPool pool;
    fmt::print("{}, {} host threads, copy bandwidth {:.0f} GB/s\n", ctx->device().name, pool.size(),
               ctx->copy_bandwidth_gbps());
    const Image picture = bench_picture();
    if (argc == 3 && std::strcmp(argv[1], "--image") == 0) save_image(picture, argv[2]);
    bench_sort(*ctx, pool, std::size_t(1) << 24, 20, true);
    bench_sort(*ctx, pool, std::size_t(1) << 28, 10, false);
    bench_kmeans(*ctx, pool, picture);
    return 0;
  } catch (const ks::Error& e) {
    fmt::print(stderr, "{}\n", e.full_message());
    return 1;
  }
}
