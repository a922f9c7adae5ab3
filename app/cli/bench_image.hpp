#pragma once
// The images `bench` measures on: uniform random noise from a fixed seed, so runs are repeatable and
// comparable between machines. Never zeros (u8 1..255, f32 in (0, 1]): a zero image would let data-dependent
// kernels (median) and caches look better than they are.
#include <cstdint>

#include "core/image.hpp"

namespace ks::cli {

inline constexpr std::uint64_t kBenchSeed = 0x6b65726e656c7363;  // "kernelsc"

Image bench_image(const ImageShape& shape, std::uint64_t seed = kBenchSeed);

}  // namespace ks::cli
