#include "report/colormap.hpp"

#include <cmath>
#include <vector>

namespace ks::report {

namespace {

struct Stop {
  std::uint8_t r, g, b;
};

// Evenly spaced stops, interpolated linearly in sRGB. Viridis and magma: nine evenly spaced samples of
// matplotlib's maps (CC0, by Stéfan van der Walt and Nathaniel Smith) — perceptually uniform, readable in gray and
// by colour-blind viewers; nine stops keep them within a few levels of the originals. Diverging: Kenneth Moreland's
// cool-warm ends around a light gray zero, so negative and positive values of a signed result (Laplacian, dx) read
// apart and zero reads as neutral.
const std::vector<Stop>& stops(Colormap map) {
  static const std::vector<Stop> gray{{0, 0, 0}, {255, 255, 255}};
  static const std::vector<Stop> viridis{{0x44, 0x01, 0x54}, {0x47, 0x2D, 0x7B}, {0x3B, 0x52, 0x8B},
                                         {0x2C, 0x72, 0x8E}, {0x21, 0x90, 0x8C}, {0x27, 0xAD, 0x81},
                                         {0x5D, 0xC8, 0x63}, {0xAA, 0xDC, 0x32}, {0xFD, 0xE7, 0x25}};
  static const std::vector<Stop> magma{{0x00, 0x00, 0x04}, {0x1D, 0x11, 0x47}, {0x51, 0x12, 0x7C},
                                       {0x82, 0x26, 0x81}, {0xB6, 0x36, 0x79}, {0xE6, 0x51, 0x64},
                                       {0xFB, 0x88, 0x61}, {0xFE, 0xC2, 0x87}, {0xFC, 0xFD, 0xBF}};
  static const std::vector<Stop> diverging{{59, 76, 192}, {221, 221, 221}, {180, 4, 38}};
  switch (map) {
    case Colormap::Gray: return gray;
    case Colormap::Viridis: return viridis;
    case Colormap::Magma: return magma;
    case Colormap::Diverging: return diverging;
  }
  return gray;
}

ColormapTable make_table(Colormap map) {
  const std::vector<Stop>& s = stops(map);
  const int segments = int(s.size()) - 1;
  ColormapTable table{};
  for (int i = 0; i < 256; ++i) {
    const double pos = double(i) / 255.0 * segments;
    const int k = std::min(int(pos), segments - 1);
    const double f = pos - k;
    auto mix = [&](std::uint8_t a, std::uint8_t b) { return std::uint8_t(std::lround(a + (double(b) - a) * f)); };
    table[std::size_t(i)] = {mix(s[std::size_t(k)].r, s[std::size_t(k + 1)].r),
                             mix(s[std::size_t(k)].g, s[std::size_t(k + 1)].g),
                             mix(s[std::size_t(k)].b, s[std::size_t(k + 1)].b), 255};
  }
  return table;
}

}  // namespace

const ColormapTable& colormap_table(Colormap map) {
  static const ColormapTable tables[] = {make_table(Colormap::Gray), make_table(Colormap::Viridis),
                                         make_table(Colormap::Magma), make_table(Colormap::Diverging)};
  return tables[static_cast<int>(map)];
}

std::string_view colormap_name(Colormap map) {
  return name_of(kColormapNames, map);
}

std::span<const Colormap> all_colormaps() {
  static constexpr Colormap maps[] = {Colormap::Gray, Colormap::Viridis, Colormap::Magma, Colormap::Diverging};
  return maps;
}

}  // namespace ks::report
