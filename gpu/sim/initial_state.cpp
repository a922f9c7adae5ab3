#include "sim/initial_state.hpp"

#include <random>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sim/cpu/life_cpu.hpp"

namespace ks::sim {

namespace {

// std::mt19937 is specified exactly by the standard (unlike the distributions), so a seed gives the same state
// with every compiler.
double uniform01(std::mt19937& rng) { return double(rng() >> 8) * (1.0 / 16777216.0); }
int uniform_below(std::mt19937& rng, int n) { return int(rng() % std::uint32_t(n)); }

template <class F>
void for_disc(int w, int h, int cx, int cy, int r, F&& f) {
  const Brush b{cx, cy, r, 0};
  for (int y = std::max(0, cy - r); y <= std::min(h - 1, cy + r); ++y)
    for (int x = std::max(0, cx - r); x <= std::min(w - 1, cx + r); ++x)
      if (b.covers(x, y)) f(x, y);
}

// Calls set_alive(x, y) for each live cell of Life's initial state, row by row: the same cells whether they
// are stored as bytes or as packed words (the random fill draws one number per cell in this order).
template <class SetAlive>
void life_start(const SimModel& m, const std::optional<Image>& image, const std::optional<LifePattern>& pattern,
                SetAlive&& set_alive) {
  if (pattern) {
    check_pattern_fits(*pattern, m.width, m.height);
    const int x0 = (m.width - pattern->width) / 2, y0 = (m.height - pattern->height) / 2;
    for (int y = 0; y < pattern->height; ++y)
      for (int x = 0; x < pattern->width; ++x)
        if (pattern->alive(x, y)) set_alive(x0 + x, y0 + y);
    return;
  }
  if (image) {
    const Image lum = luminance(*image);
    for (int y = 0; y < m.height; ++y)
      for (int x = 0; x < m.width; ++x)
        if (lum.row<float>(y)[x] >= 0.5f) set_alive(x, y);
    return;
  }
  std::mt19937 rng(m.life.seed);
  for (int y = 0; y < m.height; ++y)
    for (int x = 0; x < m.width; ++x)
      if (uniform01(rng) < m.life.density) set_alive(x, y);
}

Image life_cells(const SimModel& m, const std::optional<Image>& image, const std::optional<LifePattern>& pattern) {
  Image cells(m.width, m.height, 1, ElemType::U8);
  life_start(m, image, pattern, [&](int x, int y) { cells.row<std::uint8_t>(y)[x] = kAlive; });
  return cells;
}

Image heat_field(const SimModel& m, const std::optional<Image>& image) {
  if (image) return luminance(*image);
  Image u(m.width, m.height, 1, ElemType::F32);
  std::mt19937 rng(m.heat.spots.seed);
  const float value = float(m.heat.spot_value);
  for (int i = 0; i < m.heat.spots.count; ++i) {
    const int cx = uniform_below(rng, m.width), cy = uniform_below(rng, m.height);
    for_disc(m.width, m.height, cx, cy, m.heat.spots.radius, [&](int x, int y) { u.row<float>(y)[x] = value; });
  }
  return u;
}

Fields grayscott_fields(const SimModel& m, const std::optional<Image>& image) {
  Image u(m.width, m.height, 1, ElemType::F32), v(m.width, m.height, 1, ElemType::F32);
  for (auto& x : u.elements<float>()) x = 1.0f;
  if (image) {
    const Image lum = luminance(*image);
    for (std::size_t i = 0; i < lum.elements<float>().size(); ++i) {
      const float vi = 0.25f * lum.elements<float>()[i];
      v.elements<float>()[i] = vi;
      u.elements<float>()[i] = 1.0f - 2.0f * vi;
    }
    return {std::move(u), std::move(v)};
  }
  // Pearson's seeds: squares of u = 1/2, v = 1/4 in the trivial state u = 1, v = 0.
  std::mt19937 rng(m.grayscott.spots.seed);
  const int r = m.grayscott.spots.radius;
  for (int i = 0; i < m.grayscott.spots.count; ++i) {
    const int cx = uniform_below(rng, m.width), cy = uniform_below(rng, m.height);
    for (int y = std::max(0, cy - r); y <= std::min(m.height - 1, cy + r); ++y)
      for (int x = std::max(0, cx - r); x <= std::min(m.width - 1, cx + r); ++x) {
        u.row<float>(y)[x] = 0.5f;
        v.row<float>(y)[x] = 0.25f;
      }
  }
  return {std::move(u), std::move(v)};
}

}  // namespace

void check_pattern_fits(const LifePattern& pattern, int width, int height) {
  if (pattern.width > width || pattern.height > height)
    throw_usage(fmt::format("the pattern '{}' is {}x{} cells, larger than the {}x{} grid", pattern.name,
                            pattern.width, pattern.height, width, height),
                fmt::format("use --size {}x{} or larger", std::max(pattern.width, width),
                            std::max(pattern.height, height)));
}

cpu::LifeWords initial_life_words(const SimModel& model, const std::optional<Image>& image,
                                  const std::optional<LifePattern>& pattern) {
  if (model.kind != SimKind::Life) throw Error(ErrorKind::Internal, "initial_life_words: not a Life model");
  if (image && (image->width() != model.width || image->height() != model.height))
    throw Error(ErrorKind::Internal, "initial_life_words: the image does not have the grid's size");
  cpu::LifeWords words = cpu::empty_life_words(model.width, model.height);
  life_start(model, image, pattern,
             [&](int x, int y) { words.row(y)[x / 64] |= std::uint64_t(1) << (x % 64); });
  return words;
}

Image luminance(const Image& image) {
  if (image.empty()) throw_usage("the image is empty", "give an image with at least one pixel");
  Image f = convert_type(image, ElemType::F32);
  if (f.channels() == 3 || f.channels() == 4) return convert_channels(f, 1);
  if (f.channels() == 1) return f;
  Image gray(f.width(), f.height(), 1, ElemType::F32);  // gray + alpha: the gray
  const auto src = f.elements<float>();
  auto dst = gray.elements<float>();
  for (std::size_t i = 0; i < dst.size(); ++i) dst[i] = src[i * std::size_t(f.channels())];
  return gray;
}

Fields initial_fields(const SimModel& m, const std::optional<Image>& image, const std::optional<LifePattern>& pattern) {
  if (image && (image->width() != m.width || image->height() != m.height))
    throw Error(ErrorKind::Internal, "initial_fields: the image does not have the grid's size");
  switch (m.kind) {
    case SimKind::Life: return {life_cells(m, image, pattern)};
    case SimKind::Heat: return {heat_field(m, image)};
    case SimKind::GrayScott: return grayscott_fields(m, image);
  }
  throw Error(ErrorKind::Internal, "initial_fields: unknown simulation");
}

void paint_fields(Fields& fields, SimKind kind, const Brush& b) {
  const int w = fields[0].width(), h = fields[0].height();
  for_disc(w, h, b.x, b.y, b.radius, [&](int x, int y) {
    switch (kind) {
      case SimKind::Life: fields[0].row<std::uint8_t>(y)[x] = b.value != 0 ? kAlive : 0; break;
      case SimKind::Heat: fields[0].row<float>(y)[x] = float(b.value); break;
      case SimKind::GrayScott:
        fields[0].row<float>(y)[x] = float(1.0 - 2.0 * b.value);
        fields[1].row<float>(y)[x] = float(b.value);
        break;
    }
  });
}

}  // namespace ks::sim
