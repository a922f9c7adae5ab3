#include "sim/cpu/field_cpu.hpp"

#include <vector>

#include "core/thread_pool.hpp"

namespace ks::sim::cpu {

namespace {

// The 4-neighbour sums of one row of a field, in neighbour_sum's order, with the boundary applied.
class RowSums {
 public:
  RowSums(const Image& field, FieldBoundary b, float fixed) : f_(field), b_(b), fixed_(fixed) {}

  void compute(int y, std::vector<float>& sums) {
    const int w = f_.width(), h = f_.height();
    sums.resize(std::size_t(w));
    const float* mid = f_.row<float>(y);
    const float* north = row_or_null(field_index(y - 1, h, b_));
    const float* south = row_or_null(field_index(y + 1, h, b_));
    for (int x = 0; x < w; ++x) {
      const float west = at(mid, field_index(x - 1, w, b_));
      const float east = at(mid, field_index(x + 1, w, b_));
      sums[std::size_t(x)] = neighbour_sum(west, east, north ? north[x] : fixed_, south ? south[x] : fixed_);
    }
  }

 private:
  const float* row_or_null(int y) const { return y < 0 ? nullptr : f_.row<float>(y); }
  float at(const float* row, int x) const { return x < 0 ? fixed_ : row[x]; }

  const Image& f_;
  FieldBoundary b_;
  float fixed_;
};

}  // namespace

void heat_step(const Image& in, Image& out, FieldBoundary boundary, float fixed, const HeatCoefficients& c,
               ThreadPool& pool) {
  pool.parallel_for(0, in.height(), [&](long long y0, long long y1) {
    RowSums sums(in, boundary, fixed);
    std::vector<float> s;
    for (long long y = y0; y < y1; ++y) {
      sums.compute(int(y), s);
      const float* u = in.row<float>(int(y));
      float* dst = out.row<float>(int(y));
      for (int x = 0; x < in.width(); ++x) dst[x] = heat_update(u[x], s[std::size_t(x)], c);
    }
  });
}

void grayscott_step(const Image& u, const Image& v, Image& u_out, Image& v_out, FieldBoundary boundary,
                    const GrayScottCoefficients& c, ThreadPool& pool) {
  pool.parallel_for(0, u.height(), [&](long long y0, long long y1) {
    RowSums sums_u(u, boundary, 0.0f), sums_v(v, boundary, 0.0f);
    std::vector<float> su, sv;
    for (long long y = y0; y < y1; ++y) {
      sums_u.compute(int(y), su);
      sums_v.compute(int(y), sv);
      const float* ur = u.row<float>(int(y));
      const float* vr = v.row<float>(int(y));
      float* uo = u_out.row<float>(int(y));
      float* vo = v_out.row<float>(int(y));
      for (int x = 0; x < u.width(); ++x)
        grayscott_update(ur[x], vr[x], su[std::size_t(x)], sv[std::size_t(x)], c, uo[x], vo[x]);
    }
  });
}

}  // namespace ks::sim::cpu
