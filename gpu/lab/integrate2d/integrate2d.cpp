// integrate2d: the double integral of a built-in f(x, y) over a rectangle by the midpoint rule on an N x M
// grid, summed by the same variants as reduce, but over samples computed on the fly (nothing is read from
// memory, so the kernels are bound by arithmetic). The report gives the error against the closed form, the
// midpoint rule's expected error (order h^2) and the rounding error of the sum against a compensated sum of
// the same samples.
#include <fmt/format.h>

#include <cmath>

#include "core/thread_pool.hpp"
#include "lab/integrate2d/integrate_cpu.hpp"
#include "lab/integrate2d/integrate_cuda.hpp"
#include "lab/reduce/sum_lab.hpp"
#include "lab/threaded_progress.hpp"

namespace ks::lab {

namespace {

constexpr double kReferenceSlack = 0x1p-50;  // Neumaier's own error, relative to sum|f|

// Operations per sample, for the roofline: two coordinates (a multiply and an add each), the integrand (a
// transcendental function counts as one) and the add into the sum.
std::uint64_t operations_per_sample(Integrand f) {
  switch (f) {
    case Integrand::SinCos:
      return 4 + 3 + 1;
    case Integrand::Gauss:
      return 4 + 5 + 1;
    case Integrand::Quadratic:
      return 4 + 3 + 1;
    case Integrand::Poly:
      return 4 + 8 + 1;
    case Integrand::InvX:
      return 4 + 1 + 1;
  }
  return 1;
}

// How far a device sample may be from the host's: sinf, cosf and expf differ by a few ulps between CUDA's
// libdevice (<= 2 ulp) and glibc (<= 1 ulp); the others use the same correctly rounded operations on both.
double sample_slack(Integrand f) {
  return f == Integrand::SinCos || f == Integrand::Gauss ? 8 * 0x1p-23 : 0.0;
}

Rect rect_of(const ParamSet& p) {
  return {p.get_float("x0"), p.get_float("x1"), p.get_float("y0"), p.get_float("y1")};
}
Integrand integrand_of(const ParamSet& p) {
  return integrand_from_string(p.get_choice("integrand"));
}
MidpointGrid grid_of(const LabSize& size, const ParamSet& p) {
  return make_midpoint_grid(integrand_of(p), rect_of(p), size.dims[0], size.dims[1]);
}

class Integrate2dKernel final : public LabKernel {
 public:
  Integrate2dKernel() {
    info_.id = "integrate2d";
    info_.title = "2-D integral (midpoint rule)";
    info_.description =
        "The integral of f(x, y) over [x0, x1] x [y0, y1] by the midpoint rule on an N x M grid: the sum of "
        "f at the cell centres (f32) times the cell area. Sums like reduce, but the values are computed, not "
        "read: bound by arithmetic. The report compares with the closed form and with the rule's expected "
        "error (order h^2), and gives the sum's rounding error against a compensated sum of the same samples";
    info_.params = {
        choice_param(
            "integrand", {"sincos", "gauss", "quadratic", "poly", "invx"}, "sincos",
            "f(x, y): sincos = sin(x) cos(y), gauss = exp(-(x^2 + y^2)), quadratic = x^2 + y^2, poly = x^3 "
            "y^2 - 2 x y + 1 (the rule's error is known exactly for these two), invx = 1/x (refused where "
            "the x range contains 0)"),
        float_param("x0", -1e4, 1e4, "0", "Left end of the x range"),
        float_param("x1", -1e4, 1e4, "3.14159265358979", "Right end of the x range (> x0)"),
        float_param("y0", -1e4, 1e4, "0", "Lower end of the y range"),
        float_param("y1", -1e4, 1e4, "1.5707963267949", "Upper end of the y range (> y0)"),
        accumulate_param()};
    info_.variants = sum_variants(
        "CPU: fixed pieces of 65536 samples (row-major), each summed in order in the accumulation type, "
        "threaded; the compensated (Neumaier) sum of the same samples in double is the error reference",
        {.cpu = {"gpu/lab/integrate2d/integrate_cpu.cpp", "double integrate_sum_cpu("},
         .warp = {"gpu/lab/reduce/cuda/sum_kernels.cuh", "warp_sum_kernel("},
         .values = {{"gpu/lab/integrate2d/cuda/integrate_cuda.cu", "IntegrandSource"}}});
    info_.form = SizeForm::Grid;
    info_.limits.max = {kMaxGridSide, kMaxGridSide, 1};
    info_.default_size = LabSize::grid(4096, 4096);
    info_.splits = false;
    info_.block_rank = 1;
    info_.default_block = {256, 1};
    info_.bench_sizes_cuda = {LabSize::grid(1024, 1024), LabSize::grid(4096, 4096),
                              LabSize::grid(16384, 16384)};
    info_.bench_sizes_cpu = {LabSize::grid(256, 256), LabSize::grid(1024, 1024)};
    info_.bench_blocks = {{128, 1}, {256, 1}, {512, 1}};
  }

  const LabInfo& info() const override { return info_; }

  void check(const LabSize& size, const ParamSet& params, const std::string&) const override {
    check_integrand_finite(grid_of(size, params), accumulate_of(params) == Accumulate::F32);
  }

  std::vector<ArraySpec> arrays(const LabSize&, const ParamSet& params) const override {
    return {sum_output(accumulate_of(params), ArraySplit::Whole,
                       "the sum of the samples (times hx*hy: the integral)")};
  }

  CostModel cost(const LabSize& size, const ParamSet& params) const override {
    const std::uint64_t result_bytes =
        accumulate_of(params) == Accumulate::F64 ? 8 : 4;  // nothing else moves
    return {result_bytes, operations_per_sample(integrand_of(params)) * std::uint64_t(size.elements())};
  }

  void fill(const ArrayViews&, const FillContext&) const override {}  // no inputs: samples are computed

  void run_cpu(const CpuRun& run) const override {
    ThreadedProgress progress(run.control, "integrate2d on the CPU");
    write_sum((*run.arrays)[0], integrate_sum_cpu(grid_of(run.size, *run.params), accumulate_of(*run.params),
                                                  *run.pool, [&](double f) { progress(f); }));
  }

  std::unique_ptr<LabCudaRun> make_cuda_run(const CudaSetup& setup) const override {
    const SumVariant variant = sum_variant_of(setup.variant);
    const Accumulate accumulate = accumulate_of(*setup.params);
    const MidpointGrid grid = grid_of(setup.size, *setup.params);
    const int block = setup.block.x;
    const DeviceInfo device = *setup.device;
    return std::make_unique<SumCudaRun>(
        [=](const LabSize&) { return plan_integrand_sum(variant, accumulate, grid, block, device); },
        [grid](const DeviceSumPlan& plan, const LabLaunch& l) {
          integrand_sum(plan, grid, l.arrays[0].data, l.workspace, l.stream);
        },
        setup.size, false);
  }

  LabCheck compare(const ArrayViews&, const ArrayViews& result, const LabSize& size, const ParamSet& params,
                   ThreadPool& pool) const override {
    const MidpointGrid grid = grid_of(size, params);
    const SumReference ref = integrate_reference(grid, pool);
    return check_sum(ref.sum, read_sum(result[0]), bound(grid, params, ref),
                     fmt::format("sum of the samples ({} accumulation) vs the compensated sum of the CPU's",
                                 to_string(accumulate_of(params))));
  }

  void describe(const ArrayViews& arrays, const LabSize& size, const ParamSet& params,
                LabFacts& facts) const override {
    ThreadPool pool;  // describe() is given no pool (lab-core: pass the engine's, as to compare())
    const MidpointGrid grid = grid_of(size, params);
    const Rect r = rect_of(params);
    const long long nx = size.dims[0], ny = size.dims[1];
    const double sum = read_sum(arrays[0]);
    const double integral = midpoint_integral(sum, r, nx, ny);
    const double exact = exact_integral(grid.f, r);
    const double expected = -midpoint_error_estimate(grid.f, r, nx, ny);  // midpoint - exact
    const double hx = (r.x1 - r.x0) / double(nx), hy = (r.y1 - r.y0) / double(ny);
    facts.add("integrand",
              fmt::format("{} over [{}, {}] x [{}, {}]", formula_text(grid.f), r.x0, r.x1, r.y0, r.y1));
    facts.add("midpoint integral", fmt::format("{:.17g}", integral), integral);
    facts.add("exact integral", fmt::format("{:.17g} (closed form)", exact), exact);
    facts.add("error vs exact",
              fmt::format("{:.3g} (relative {:.3g})", integral - exact,
                          exact != 0 ? std::fabs((integral - exact) / exact) : 0.0),
              integral - exact);
    facts.add(
        "expected midpoint error",
        fmt::format("{:.3g}: order h^2 with h = {:.3g} x {:.3g} (hx^2/24 int f_xx + hy^2/24 int f_yy{})",
                    expected, hx, hy,
                    grid.f == Integrand::Quadratic || grid.f == Integrand::Poly ? ", exact here" : ""),
        expected);
    const SumReference ref = integrate_reference(grid, pool);
    add_rounding_facts(facts, sum, ref, bound(grid, params, ref), hx * hy);
    if (!std::isfinite(sum)) facts.notes.push_back("the sum of the samples is not finite");
    facts.notes.push_back(
        "the midpoint rule's error falls as h^2 (twice the points per side: a quarter of the error) until "
        "the f32 samples and coordinates (about 1e-7 relative) and the sum's rounding dominate; "
        "accumulate=f64 removes the latter");
  }

 private:
  static double bound(const MidpointGrid& g, const ParamSet& params, const SumReference& ref) {
    return (sum_error_bound(accumulate_of(params), g.samples(), 1.0) + sample_slack(g.f) + kReferenceSlack) *
           ref.sum_abs;
  }

  LabInfo info_;
};

}  // namespace

void add_integrate2d_kernels(LabKernelList& list) {
  list.push_back(std::make_shared<Integrate2dKernel>());
}

}  // namespace ks::lab
