#pragma once
// A 32-bit move choice as the CUDA block's warp reductions take it (cuda/search_kernels.cuh): (rank, delta,
// pair) packed into 64 bits whose unsigned order is the choices' order (MoveChoice::before), so that the
// hardware's 32-bit minimum reduces it, first the high words, then the low words of the lanes that hold the
// least high word. Rank: 2 bits; delta: 32, offset to unsigned; the pair's r and s: 15 bits each, so
// n <= 32768, which the CUDA backend checks. Host and device, so that a CPU test can hold the order to
// MoveChoice's.
#include <cstdint>

#include "core/hd.hpp"
#include "topo/search/tabu_step.hpp"

namespace ks::topo {

inline constexpr int kMaxPackedChoiceNodes = 1 << 15;

struct PackedChoice {
  std::uint32_t high = 0xFFFFFFFFu, low = 0xFFFFFFFFu;  // the default: after every choice

  KS_HD static PackedChoice pack(const MoveChoice<std::int32_t>& c) {
    const std::uint32_t d = std::uint32_t(c.delta) ^ 0x80000000u;
    const std::uint32_t r = (c.pair >> 16) & 0x7FFFu, s = c.pair & 0x7FFFu;
    return {(std::uint32_t(c.rank) << 30) | (d >> 2), (d << 30) | (r << 15) | s};
  }
  KS_HD MoveChoice<std::int32_t> unpack() const {
    MoveChoice<std::int32_t> c;
    c.rank = int(high >> 30);
    c.delta = std::int32_t(((high << 2) | (low >> 30)) ^ 0x80000000u);
    c.pair = pack_pair(int((low >> 15) & 0x7FFFu), int(low & 0x7FFFu));
    return c;
  }
  KS_HD bool before(const PackedChoice& o) const { return high != o.high ? high < o.high : low < o.low; }
};

}  // namespace ks::topo
