#pragma once
// A small counter-friendly random generator (SplitMix64), identical on the host and the device, so that seeded
// generators, topologies and placement samples are the same on every machine and backend.
#include <cstdint>

#include "core/hd.hpp"

namespace ks::topo {

struct SplitMix64 {
  std::uint64_t state;

  KS_HD explicit SplitMix64(std::uint64_t seed) : state(seed) {}
  KS_HD std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  KS_HD double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
  // Uniform integer in [0, bound), bound >= 1, without bias (Lemire's multiply-and-reject on 32 bits).
  KS_HD std::uint32_t below(std::uint32_t bound) {
    const std::uint32_t threshold = std::uint32_t(-bound) % bound;
    for (;;) {
      const std::uint64_t m = (next() >> 32) * std::uint64_t(bound);
      if (std::uint32_t(m) >= threshold) return std::uint32_t(m >> 32);
    }
  }
};

// The generator of placement sample number `sample` for a sweep seeded with `seed`: each sample has its own
// stream, so samples can be drawn in any order, by any thread.
KS_HD SplitMix64 sample_stream(std::uint64_t seed, std::uint64_t sample) {
  SplitMix64 mix(seed ^ 0xD1B54A32D192ED03ull);
  SplitMix64 s(mix.next() + sample * 0xA24BAED4963EE407ull);
  s.next();
  return s;
}

// Fisher-Yates: placement[i] = node at position i, uniform over the n! placements.
KS_HD void random_placement(SplitMix64& rng, std::uint8_t* placement, int n) {
  for (int i = 0; i < n; ++i) placement[i] = std::uint8_t(i);
  for (int i = n - 1; i > 0; --i) {
    const int j = int(rng.below(std::uint32_t(i + 1)));
    const std::uint8_t t = placement[i];
    placement[i] = placement[j];
    placement[j] = t;
  }
}

}  // namespace ks::topo
