#include "usercode/check/compare.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "usercode/check/value_tally.hpp"

namespace ks::usercode {

namespace {

std::string shape_text(const ImageShape& s) {
  return fmt::format("{}x{}, {} channel{}, {}", s.width, s.height, s.channels, s.channels == 1 ? "" : "s",
                     to_string(s.type));
}

// Both images must have the same size, channels and element type; which of them differ, otherwise.
void check_comparable(const Image& got, const Image& reference) {
  const ImageShape& a = got.shape();
  const ImageShape& b = reference.shape();
  std::vector<const char*> differ;
  if (a.width != b.width || a.height != b.height) differ.push_back("size");
  if (a.channels != b.channels) differ.push_back("channels");
  if (a.type != b.type) differ.push_back("element type");
  if (differ.empty()) return;
  throw_usage(fmt::format("the output ({}) and the reference ({}) differ in {}: they cannot be compared",
                          shape_text(a), shape_text(b), fmt::join(differ, " and ")),
              "compare with a reference of the same size, channels and element type (the same family's kernel on "
              "the same input)");
}

ValueKind value_kind(ElemType t) { return t == ElemType::F32 ? ValueKind::Float : ValueKind::Integer; }

template <class T>
ValueAt value_at(const Image& got, const Image& reference, std::size_t value) {
  const int channels = reference.channels();
  const std::size_t pixel = value / std::size_t(channels);
  ValueAt v;
  v.index = pixel;
  v.x = static_cast<int>(pixel % std::size_t(reference.width()));
  v.y = static_cast<int>(pixel / std::size_t(reference.width()));
  v.channel = static_cast<int>(value % std::size_t(channels));
  v.got = static_cast<double>(got.elements<T>()[value]);
  v.expected = static_cast<double>(reference.elements<T>()[value]);
  return v;
}

template <class T>
Comparison compare_typed(const Image& got, const Image& reference, const Tolerance& tolerance, ThreadPool* pool) {
  Comparison c;
  c.items = ComparedItems::Pixels;
  c.values = value_kind(reference.type());
  c.tolerance = tolerance;
  c.channels = reference.channels();
  c.compared = reference.shape().pixel_count();
  const detail::Tally t = detail::tally_values(got.elements<T>().data(), reference.elements<T>().data(), c.compared,
                                               c.channels, tolerance, pool);
  c.differing = t.differing_items;
  c.nan_mismatches = t.nan_mismatches;
  if (c.compared > 0) {
    c.max_abs_diff = t.max_abs_diff;
    c.max_at = value_at<T>(got, reference, t.max_value);
  }
  if (t.has_first) c.first = value_at<T>(got, reference, t.first_value);
  return c;
}

template <class T>
void fill_differences(const Image& got, const Image& reference, Image& out, ThreadPool* pool) {
  const auto a = got.elements<T>();
  const auto b = reference.elements<T>();
  auto d = out.elements<float>();
  const std::size_t channels = std::size_t(reference.channels());
  auto rows = [&](long long y0, long long y1) {
    const std::size_t width = std::size_t(reference.width());
    for (std::size_t p = std::size_t(y0) * width; p < std::size_t(y1) * width; ++p) {
      double worst = 0;
      for (std::size_t k = p * channels; k < (p + 1) * channels; ++k)
        worst = std::max(worst, detail::abs_difference(static_cast<double>(a[k]), static_cast<double>(b[k])));
      d[p] = static_cast<float>(worst);
    }
  };
  if (pool)
    pool->parallel_for(0, reference.height(), rows);
  else
    rows(0, reference.height());
}

}  // namespace

Comparison compare_images(const Image& got, const Image& reference, const Tolerance& tolerance, ThreadPool* pool) {
  check_tolerance(tolerance);
  check_comparable(got, reference);
  switch (reference.type()) {
    case ElemType::U8: return compare_typed<std::uint8_t>(got, reference, tolerance, pool);
    case ElemType::U16: return compare_typed<std::uint16_t>(got, reference, tolerance, pool);
    case ElemType::F32: return compare_typed<float>(got, reference, tolerance, pool);
  }
  throw Error(ErrorKind::Internal, "compare_images: unknown element type");
}

Comparison compare_images(const Image& got, const Image& reference, ThreadPool* pool) {
  return compare_images(got, reference, default_tolerance(reference.type()), pool);
}

Image difference_image(const Image& got, const Image& reference, ThreadPool* pool) {
  check_comparable(got, reference);
  Image out(reference.width(), reference.height(), 1, ElemType::F32);
  switch (reference.type()) {
    case ElemType::U8: fill_differences<std::uint8_t>(got, reference, out, pool); break;
    case ElemType::U16: fill_differences<std::uint16_t>(got, reference, out, pool); break;
    case ElemType::F32: fill_differences<float>(got, reference, out, pool); break;
  }
  return out;
}

}  // namespace ks::usercode
