#include "cli/bench_image.hpp"

namespace ks::cli {

namespace {
// SplitMix64: fast and good enough for test pictures (std::mt19937 would add a second per 8192^2 image).
std::uint64_t next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

Image bench_image(const ImageShape& shape, std::uint64_t seed) {
  Image img(shape);
  // The shape goes into the seed so that different shapes are not prefixes of one another.
  std::uint64_t state = seed ^ (std::uint64_t(shape.width) << 32) ^ (std::uint64_t(shape.height) << 8) ^
                        (std::uint64_t(shape.channels) << 4) ^ std::uint64_t(shape.type);
  switch (shape.type) {
    case ElemType::U8:
      for (auto& v : img.elements<std::uint8_t>()) v = std::uint8_t(1 + next(state) % 255);
      break;
    case ElemType::U16:
      for (auto& v : img.elements<std::uint16_t>()) v = std::uint16_t(1 + next(state) % 65535);
      break;
    case ElemType::F32:
      // 24 random bits plus one: (0, 1] exactly representable.
      for (auto& v : img.elements<float>()) v = float((next(state) >> 40) + 1) * (1.0f / 16777216.0f);
      break;
  }
  return img;
}

}  // namespace ks::cli
