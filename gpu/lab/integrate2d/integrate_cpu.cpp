#include "lab/integrate2d/integrate_cpu.hpp"

namespace ks::lab {

double integrate_sum_cpu(const MidpointGrid& g, Accumulate accumulate, ThreadPool& pool,
                         const PieceProgress& progress) {
  return with_integrand(g.f, [&](auto f) {
    const auto sample = [&g](long long i) { return midpoint_sample<decltype(f)::value>(g, i); };
    if (accumulate == Accumulate::F64) return chunked_sum<double>(g.samples(), pool, sample, progress);
    return double(chunked_sum<float>(g.samples(), pool, sample, progress));
  });
}

SumReference integrate_reference(const MidpointGrid& g, ThreadPool& pool) {
  return with_integrand(g.f, [&](auto f) {
    return compensated_sum(g.samples(), pool,
                           [&g](long long i) { return midpoint_sample<decltype(f)::value>(g, i); });
  });
}

double midpoint_integral(double sample_sum, const Rect& r, long long nx, long long ny) {
  return sample_sum * ((r.x1 - r.x0) / double(nx)) * ((r.y1 - r.y0) / double(ny));
}

}  // namespace ks::lab
