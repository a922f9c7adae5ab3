// The lab's `kmeans` kernel: colour quantisation of the loaded image. The inputs are the pixels and the
// k-means++ start (computed on the host from --seed, the same for every backend); the outputs the centroids,
// each pixel's label, and the inertia and largest centroid move per iteration.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/no_cuda.hpp"
#include "core/thread_pool.hpp"
#include "lab/kmeans/kmeans_cpu.hpp"
#include "lab/kmeans/kmeans_image.hpp"
#include "lab/kmeans/kmeans_lab.hpp"
#include "lab/kmeans/kmeans_seed.hpp"
#include "lab/lab_check.hpp"

#if KS_HAVE_CUDA
#include "lab/kmeans/cuda/kmeans_lab_run.hpp"
#endif

namespace ks::lab {

namespace {

// The centroids of CPU and CUDA are meant to be identical (kmeans_math.hpp); the issue asks for 1e-4.
constexpr double kCentroidTolerance = 1e-4;

std::size_t pixel_count(const LabSize& size) {
  return std::size_t(size.dims[0]) * std::size_t(size.dims[1]);
}

// The finite head of a NaN-padded series.
std::vector<double> finite_head(std::span<const double> s) {
  std::vector<double> v;
  for (double x : s) {
    if (std::isnan(x)) break;
    v.push_back(x);
  }
  return v;
}

LabCheck compare_centroids(std::span<const float> expected, std::span<const float> actual) {
  LabCheck c;
  c.checked = true;
  c.bound = kCentroidTolerance;
  for (std::size_t i = 0; i < expected.size(); ++i)
    c.max_abs_error = std::max(c.max_abs_error, std::fabs(double(expected[i]) - double(actual[i])));
  c.agrees = expected.size() == actual.size() && c.max_abs_error <= kCentroidTolerance;
  c.detail = fmt::format("centroids: max |error| {:.3g} {} {:.0e}", c.max_abs_error, c.agrees ? "<=" : ">",
                         kCentroidTolerance);
  return c;
}

LabCheck compare_inertia(std::span<const double> expected, std::span<const double> actual) {
  const std::vector<double> e = finite_head(expected), a = finite_head(actual);
  LabCheck c;
  c.checked = true;
  c.bound = 1e-9;
  if (e.size() != a.size()) {
    c.detail = fmt::format("inertia: {} passes on the CPU, {} here", e.size(), a.size());
    return c;
  }
  for (std::size_t i = 0; i < e.size(); ++i)
    c.max_rel_error = std::max(c.max_rel_error, std::fabs(a[i] - e[i]) / std::max(1.0, std::fabs(e[i])));
  c.agrees = c.max_rel_error <= c.bound;
  c.detail = fmt::format("inertia: {} passes, max rel error {:.3g}", e.size(), c.max_rel_error);
  return c;
}

class KmeansKernel final : public LabKernel {
 public:
  KmeansKernel() {
    info_.id = "kmeans";
    info_.title = "k-means colour quantisation";
    info_.description =
        "Quantises the loaded image to k colours: a k-means++ start from --seed (on the host, the same for "
        "every "
        "variant), then Lloyd's iterations — every pixel to its nearest centroid, every centroid to the mean "
        "of "
        "its pixels — until no centroid moves more than the tolerance. Per-cluster sums are exact 64-bit "
        "integers, so CPU and CUDA give the same centroids. Shows the quantised image and the inertia (sum "
        "of "
        "squared distances) per iteration. Rates count one assignment pass (the pixels read, the labels "
        "written); the kernel time is the whole run";
    info_.params = {
        int_param("k", 1, kMaxClusters, "16",
                  "Colours of the quantised image (at most the number of pixels)"),
        int_param("iterations", 1, kMaxKmeansIterations, "30", "Most centroid updates"),
        float_param(
            "tolerance", 0, 442, "0.01",
            "Converged when no centroid moved farther than this (0..255 colour units; 0: until nothing "
            "moves)")};
    info_.variants = {{"cpu", Backend::Cpu,
                       "Threaded over chunks of pixels; integer sums, so any thread count gives the same",
                       {{"gpu/lab/kmeans/kmeans_cpu.cpp", "class CpuKmeans"}}},
                      {"naive", Backend::Cuda,
                       "One thread per pixel; five 64-bit atomics per pixel into k x 5 global sums (the L2 "
                       "serialises them)",
                       {{"gpu/lab/kmeans/cuda/kmeans_kernels.cu", "assign_naive("}}},
                      {"blocked", Backend::Cuda,
                       "Per-block sums in shared memory (warp lanes of one cluster combined by warp "
                       "reductions first), then "
                       "a reduction kernel over the blocks' partial sums",
                       {{"gpu/lab/kmeans/cuda/kmeans_kernels.cu", "assign_blocked("}}}};
    info_.form = SizeForm::Image;
    info_.limits.max = {65536, 65536, 1};
    info_.limits.max_elements = std::int64_t(1) << 28;
    info_.default_size = LabSize::image(512, 512);
    info_.splits = false;
    info_.makes_image = true;
    info_.block_rank = 1;
    info_.default_block = {256, 1};
    info_.bench_blocks = {{128, 1}, {256, 1}, {512, 1}};
  }

  const LabInfo& info() const override { return info_; }

  void check(const LabSize& size, const ParamSet& params, const std::string&) const override {
    check_kmeans_params(kmeans_params_of(params), pixel_count(size));
  }

  std::vector<ArraySpec> arrays(const LabSize& size, const ParamSet& params) const override {
    const std::vector<std::int64_t> image{size.dims[1], size.dims[0]};
    const std::int64_t k = params.get_int("k"), iterations = params.get_int("iterations");
    return {
        {"pixels", DType::U32, image, ArrayRole::Input, ArraySplit::Sliced,
         "the image: 0xAABBGGRR per pixel (gray as r = g = b; alpha is not clustered)"},
        {"start",
         DType::F32,
         {k, 3},
         ArrayRole::Input,
         ArraySplit::Whole,
         "the k-means++ start (r, g, b per centroid), from --seed"},
        {"centroids", DType::F32, {k, 3}, ArrayRole::Output, ArraySplit::Whole, "the final centroids"},
        {"labels", DType::U32, image, ArrayRole::Output, ArraySplit::Sliced, "each pixel's cluster"},
        {"inertia",
         DType::F64,
         {iterations + 1},
         ArrayRole::Output,
         ArraySplit::Whole,
         "sum of squared distances per assignment pass (the start, then after each update); NaN after the "
         "last"},
        {"shift",
         DType::F64,
         {iterations},
         ArrayRole::Output,
         ArraySplit::Whole,
         "the largest centroid move of each update; NaN after the last"}};
  }

  CostModel cost(const LabSize& size, const ParamSet& params) const override {
    // One assignment pass: 4 bytes read and a 4-byte label written per pixel; per pixel and centroid 3
    // subtractions, 3 multiplications, 2 additions and a comparison: 2 FMAs (4 operations) and 5 lone ones.
    const double per_pixel_centroid = double(pixel_count(size)) * double(params.get_int("k"));
    return CostModel::of(
        8 * std::uint64_t(pixel_count(size)),
        OpMix{}.add(OpKind::F32Fma, 4 * per_pixel_centroid).add(OpKind::F32One, 5 * per_pixel_centroid));
  }

  void fill(const ArrayViews& arrays, const FillContext& ctx) const override {
    if (!ctx.image) throw Error(ErrorKind::Internal, "kmeans: no image to fill from");
    const auto pixels = arrays[kPixelsArray].as<std::uint32_t>();
    fill_kmeans_pixels(*ctx.image, pixels);
    const std::vector<float> start =
        kmeanspp_centres(pixels, int(ctx.params->get_int("k")), ctx.seed, *ctx.pool);
    std::copy(start.begin(), start.end(), arrays[kStartArray].as<float>().begin());
  }

  void run_cpu(const CpuRun& run) const override {
    const ArrayViews& a = *run.arrays;
    auto backend = make_cpu_kmeans(a[kPixelsArray].as<const std::uint32_t>(),
                                   a[kLabelsArray].as<std::uint32_t>(), *run.pool);
    const KmeansParams params = kmeans_params_of(*run.params);
    const KmeansResult r = run_lloyd(*backend, a[kStartArray].as<const float>(), params, [&](int it, double) {
      if (!run.control) return;
      run.control->report(double(it) / params.max_iterations, "Lloyd iterations");
      throw_if_cancelled(*run.control);
    });
    std::copy(r.centroids.begin(), r.centroids.end(), a[kCentroidsArray].as<float>().begin());
    const auto inertia = padded_series(r.inertia, std::size_t(params.max_iterations) + 1);
    const auto shift = padded_series(r.shifts, std::size_t(params.max_iterations));
    std::copy(inertia.begin(), inertia.end(), a[kInertiaArray].as<double>().begin());
    std::copy(shift.begin(), shift.end(), a[kShiftArray].as<double>().begin());
  }

  std::unique_ptr<LabCudaRun> make_cuda_run(const CudaSetup& setup) const override {
#if KS_HAVE_CUDA
    return make_kmeans_cuda_run(
        setup, setup.variant == "naive" ? cuda::KmeansVariant::Naive : cuda::KmeansVariant::Blocked);
#else
    (void)setup;
    throw_no_cuda();
#endif
  }

  LabCheck compare(const ArrayViews& reference, const ArrayViews& result, const LabSize&, const ParamSet&,
                   ThreadPool& pool) const override {
    LabCheck c = compare_centroids(reference[kCentroidsArray].as<const float>(),
                                   result[kCentroidsArray].as<const float>());
    c = merge_checks(c, compare_exact(reference[kLabelsArray].as<const std::uint32_t>(),
                                      result[kLabelsArray].as<const std::uint32_t>(), "labels", pool));
    return merge_checks(c, compare_inertia(reference[kInertiaArray].as<const double>(),
                                           result[kInertiaArray].as<const double>()));
  }

  void describe(const ArrayViews& arrays, const LabSize&, const ParamSet& params,
                LabFacts& facts) const override {
    const std::vector<double> inertia = finite_head(arrays[kInertiaArray].as<const double>());
    const std::vector<double> shift = finite_head(arrays[kShiftArray].as<const double>());
    if (inertia.empty()) return;
    const double tolerance = params.get_float("tolerance");
    facts.add("iterations", std::to_string(shift.size()), double(shift.size()));
    facts.add("converged",
              !shift.empty() && shift.back() <= tolerance
                  ? fmt::format("yes: the last update moved no centroid more than {:g}", tolerance)
                  : fmt::format("no: stopped after {} updates, the last moved a centroid {:.3g}",
                                shift.size(), shift.empty() ? 0.0 : shift.back()));
    facts.add("final inertia", fmt::format("{:.6g}", inertia.back()), inertia.back());
    const auto labels = arrays[kLabelsArray].as<const std::uint32_t>();
    std::vector<char> used(std::size_t(params.get_int("k")), 0);
    for (std::uint32_t l : labels)
      if (l < used.size()) used[l] = 1;
    const auto empty = std::count(used.begin(), used.end(), 0);
    if (empty)
      facts.notes.push_back(fmt::format(
          "{} of {} clusters have no pixels (the image has fewer distinct colours)", empty, used.size()));
    facts.series.push_back({"inertia", "iteration", inertia});
  }

  std::optional<Image> result_image(const ArrayViews& arrays, const LabSize& size,
                                    const ParamSet&) const override {
    const std::vector<std::uint8_t> palette = palette_of(arrays[kCentroidsArray].as<const float>());
    return quantised_image(arrays[kPixelsArray].as<const std::uint32_t>(), int(size.dims[0]),
                           int(size.dims[1]), arrays[kLabelsArray].as<const std::uint32_t>(), palette);
  }

 private:
  LabInfo info_;
};

}  // namespace

KmeansParams kmeans_params_of(const ParamSet& params) {
  KmeansParams p;
  p.k = int(params.get_int("k"));
  p.max_iterations = int(params.get_int("iterations"));
  p.tolerance = params.get_float("tolerance");
  return p;
}

std::vector<double> padded_series(const std::vector<double>& values, std::size_t length) {
  std::vector<double> v(length, std::numeric_limits<double>::quiet_NaN());
  std::copy_n(values.begin(), std::min(length, values.size()), v.begin());
  return v;
}

void add_kmeans_kernels(LabKernelList& list) {
  list.push_back(std::make_shared<KmeansKernel>());
}

}  // namespace ks::lab
