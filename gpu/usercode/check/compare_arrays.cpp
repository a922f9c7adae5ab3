#include "usercode/check/compare.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "usercode/check/value_tally.hpp"

namespace ks::usercode {

namespace {

template <class T>
constexpr ValueKind value_kind() {
  if constexpr (std::is_same_v<T, float>) return ValueKind::Float;
  if constexpr (std::is_same_v<T, double>) return ValueKind::Double;
  return ValueKind::Integer;
}

template <class T>
Comparison compare_spans(std::span<const T> got, std::span<const T> reference, const Tolerance& tolerance,
                         ThreadPool* pool) {
  check_tolerance(tolerance);
  if (got.size() != reference.size())
    throw_usage(fmt::format("the output has {} elements but the reference has {}: they cannot be compared",
                            got.size(), reference.size()),
                "compare with a reference of the same length (the same family's kernel on the same inputs)");
  Comparison c;
  c.items = ComparedItems::Elements;
  c.values = value_kind<T>();
  c.tolerance = tolerance;
  c.compared = reference.size();
  const detail::Tally t = detail::tally_values(got.data(), reference.data(), c.compared, 1, tolerance, pool);
  c.differing = t.differing_items;
  c.nan_mismatches = t.nan_mismatches;
  auto at = [&](std::size_t i) {
    return ValueAt{.index = i, .got = static_cast<double>(got[i]), .expected = static_cast<double>(reference[i])};
  };
  if (c.compared > 0) {
    c.max_abs_diff = t.max_abs_diff;
    c.max_at = at(t.max_value);
  }
  if (t.has_first) c.first = at(t.first_value);
  return c;
}

std::string shape_text(const NdArray& a) {
  return fmt::format("[{}] {}", fmt::join(a.shape, ", "), to_string(a.type));
}

}  // namespace

Comparison compare_arrays(std::span<const float> got, std::span<const float> reference, const Tolerance& tolerance,
                          ThreadPool* pool) {
  return compare_spans(got, reference, tolerance, pool);
}
Comparison compare_arrays(std::span<const double> got, std::span<const double> reference, const Tolerance& tolerance,
                          ThreadPool* pool) {
  return compare_spans(got, reference, tolerance, pool);
}
Comparison compare_arrays(std::span<const std::int32_t> got, std::span<const std::int32_t> reference,
                          const Tolerance& tolerance, ThreadPool* pool) {
  return compare_spans(got, reference, tolerance, pool);
}
Comparison compare_arrays(std::span<const std::uint32_t> got, std::span<const std::uint32_t> reference,
                          const Tolerance& tolerance, ThreadPool* pool) {
  return compare_spans(got, reference, tolerance, pool);
}

Comparison compare_arrays(const NdArray& got, const NdArray& reference, const Tolerance& tolerance,
                          ThreadPool* pool) {
  if (got.type != reference.type || got.shape != reference.shape)
    throw_usage(fmt::format("the output ({}) and the reference ({}) differ in {}: they cannot be compared",
                            shape_text(got), shape_text(reference),
                            got.type != reference.type ? "element type" : "shape"),
                "compare with a reference of the same shape and element type (the same family's kernel on the same "
                "inputs)");
  switch (reference.type) {
    case DType::F32: return compare_spans(got.as<float>(), reference.as<float>(), tolerance, pool);
    case DType::F64: return compare_spans(got.as<double>(), reference.as<double>(), tolerance, pool);
    case DType::I32: return compare_spans(got.as<std::int32_t>(), reference.as<std::int32_t>(), tolerance, pool);
    case DType::U32: return compare_spans(got.as<std::uint32_t>(), reference.as<std::uint32_t>(), tolerance, pool);
    case DType::U64: break;
  }
  throw_usage(fmt::format("{} arrays are not compared", to_string(reference.type)),
              "the array family's outputs are float, double, int or unsigned int (f32, f64, i32, u32)");
}

Comparison compare_arrays(const NdArray& got, const NdArray& reference, ThreadPool* pool) {
  return compare_arrays(got, reference, default_tolerance(reference.type), pool);
}

}  // namespace ks::usercode
