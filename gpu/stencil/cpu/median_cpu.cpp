#include "stencil/cpu/median_cpu.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "stencil/cpu/chunk_rows.hpp"
#include "stencil/cpu/median_network.hpp"
#include "stencil/cpu/padded_rows.hpp"
#include "stencil/cpu/simd/median_rows.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cpu {

namespace {

// The reference's medians of one output row: blocks of windows copied tap by tap into arrays of lanes
// (lanes[t * kBlock + l]: tap t of the window of element b + l), then the network's comparators run across
// all lanes at once.
template <class Pix>
class ReferenceRowMedian {
 public:
  explicit ReferenceRowMedian(int radius)
      : k_(2 * radius + 1),
        taps_(std::size_t(k_) * std::size_t(k_)),
        network_(median_network(int(taps_))),
        lanes_(taps_ * kBlock) {}

  void operator()(const Pix* const* rows, std::size_t ch, Pix* dst, std::size_t row_elements) {
    for (std::size_t b = 0; b < row_elements; b += kBlock) {
      const std::size_t n = std::min(kBlock, row_elements - b);
      // Padded rows start at x = -r, so tap (j, i) of element e is rows[j][e + i * channels].
      for (int j = 0; j < k_; ++j)
        for (int i = 0; i < k_; ++i)
          std::memcpy(&lanes_[(std::size_t(j) * k_ + i) * kBlock], rows[j] + b + std::size_t(i) * ch,
                      n * sizeof(Pix));
      for (const auto& [lo, hi] : network_)
        compare_exchange(&lanes_[std::size_t(lo) * kBlock], &lanes_[std::size_t(hi) * kBlock], n);
      std::memcpy(dst + b, &lanes_[(taps_ / 2) * kBlock], n * sizeof(Pix));
    }
  }

 private:
  // Windows handled together: enough lanes to fill the vectors many times over, few enough that the
  // (2r+1)^2 tap arrays stay in L1 (49 * 128 floats = 25 KB at r = 3).
  static constexpr std::size_t kBlock = 128;
  int k_;
  std::size_t taps_;
  std::vector<std::pair<int, int>> network_;
  std::vector<Pix> lanes_;
};

// The SIMD path's medians of one output row (simd/median_rows.hpp), straight from the padded rows.
template <class Pix>
struct SimdRowMedian {
  int radius;
  void operator()(const Pix* const* rows, std::size_t ch, Pix* dst, std::size_t row_elements) const {
    simd::median_row(rows, radius, ch, dst, row_elements);
  }
};

// Rows are split into chunks over the pool; each chunk pads the source rows its windows need (a ring of
// 2r+1) and makes its own row median, which gets the window's rows for each output row.
template <class Pix, class MakeRowMedian>
void median(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool, MakeRowMedian&& make) {
  const int r = plan.median_radius;
  const int k = 2 * r + 1;
  const std::size_t ch = std::size_t(in.channels());
  const std::size_t row_elements = std::size_t(in.width()) * ch;
  Pix border_value;
  if constexpr (std::is_same_v<Pix, std::uint8_t>) {
    border_value = saturate_u8(plan.border_value);  // in image units, rounded like the linear filters do
  } else {
    border_value = plan.border_value;
  }
  const auto chunk = [&](long long y0, long long y1) {
    PaddedRows<Pix> source(in, r, plan.border, border_value, k);
    std::vector<const Pix*> rows(std::size_t(k), nullptr);
    auto row_median = make();
    for (int y = int(y0); y < int(y1); ++y) {
      for (int j = 0; j < k; ++j) rows[std::size_t(j)] = source.get(y - r + j);
      row_median(rows.data(), ch, out.row<Pix>(y), row_elements);
    }
  };
  for_row_chunks(pool, in.height(), row_elements, chunk);
}

template <class Pix>
void median_on(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool, CpuPath path) {
  const int r = plan.median_radius;
  if (path == CpuPath::Simd && simd::simd_median_radius(r)) {
    median<Pix>(plan, in, out, pool, [&] { return SimdRowMedian<Pix>{r}; });
  } else {
    median<Pix>(plan, in, out, pool, [&] { return ReferenceRowMedian<Pix>(r); });
  }
}

}  // namespace

void run_median(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool, CpuPath path) {
  if (in.type() == ElemType::U8)
    median_on<std::uint8_t>(plan, in, out, pool, path);
  else
    median_on<float>(plan, in, out, pool, path);
}

}  // namespace ks::cpu
