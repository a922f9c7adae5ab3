#include "stencil/cpu/median_cpu.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "stencil/cpu/median_network.hpp"
#include "stencil/cpu/padded_rows.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cpu {

namespace {

// Windows handled together: enough lanes to fill the vectors many times over, few enough that the (2r+1)^2
// tap arrays stay in L1 (49 * 128 floats = 25 KB at r = 3).
constexpr std::size_t kBlock = 128;

template <class Pix>
void median(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  const int r = plan.median_radius;
  const int k = 2 * r + 1;
  const std::size_t taps = std::size_t(k) * std::size_t(k);
  const std::size_t ch = std::size_t(in.channels());
  const std::size_t row_elements = std::size_t(in.width()) * ch;
  Pix border_value;
  if constexpr (std::is_same_v<Pix, std::uint8_t>) {
    border_value = saturate_u8(plan.border_value);  // in image units, rounded like the linear filters do
  } else {
    border_value = plan.border_value;
  }
  const auto network = median_network(int(taps));
  pool.parallel_for(0, in.height(), [&](long long y0, long long y1) {
    PaddedRows<Pix> source(in, r, plan.border, border_value, k);
    std::vector<const Pix*> rows(std::size_t(k), nullptr);
    std::vector<Pix> lanes(taps * kBlock);  // lanes[t * kBlock + l]: tap t of the window of element b + l
    for (int y = int(y0); y < int(y1); ++y) {
      for (int j = 0; j < k; ++j) rows[std::size_t(j)] = source.get(y - r + j);
      Pix* dst = out.row<Pix>(y);
      for (std::size_t b = 0; b < row_elements; b += kBlock) {
        const std::size_t n = std::min(kBlock, row_elements - b);
        // Padded rows start at x = -r, so tap (j, i) of element e is rows[j][e + i * channels].
        for (int j = 0; j < k; ++j)
          for (int i = 0; i < k; ++i)
            std::memcpy(&lanes[(std::size_t(j) * k + i) * kBlock],
                        rows[std::size_t(j)] + b + std::size_t(i) * ch, n * sizeof(Pix));
        for (const auto& [lo, hi] : network)
          compare_exchange(&lanes[std::size_t(lo) * kBlock], &lanes[std::size_t(hi) * kBlock], n);
        std::memcpy(dst + b, &lanes[(taps / 2) * kBlock], n * sizeof(Pix));
      }
    }
  });
}

}  // namespace

void run_median(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  if (in.type() == ElemType::U8)
    median<std::uint8_t>(plan, in, out, pool);
  else
    median<float>(plan, in, out, pool);
}

}  // namespace ks::cpu
