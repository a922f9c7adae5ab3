#pragma once
// The one loop behind compare_images and compare_arrays: values in row-major order, grouped in items (a pixel's
// channels, or one element), each held to the tolerance as tolerance.hpp defines it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "usercode/check/tolerance.hpp"

namespace ks::usercode::detail {

// |a - b| as the comparison counts it: 0 for equal values (equal infinities too) and for two NaNs; infinite for
// a NaN against a number.
inline double abs_difference(double a, double b) {
  if (a == b) return 0;
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan || b_nan) return a_nan && b_nan ? 0 : std::numeric_limits<double>::infinity();
  return std::fabs(a - b);
}

// An infinite difference never agrees, whatever rel * max(|a|, |b|) is (infinite too when a or b is).
inline bool agrees(double a, double b, double difference, const Tolerance& t) {
  return difference == 0 ||
         (std::isfinite(difference) && difference <= t.abs + t.rel * std::max(std::fabs(a), std::fabs(b)));
}

struct Tally {
  std::size_t differing_items = 0;
  std::size_t nan_mismatches = 0;
  double max_abs_diff = -1;  // -1 until a value is seen
  std::size_t max_value = 0;    // the flat index of the first value with max_abs_diff
  bool has_first = false;
  std::size_t first_value = 0;  // the flat index of the first value beyond the tolerance
};

template <class T>
Tally tally_values(const T* got, const T* expected, std::size_t items, int values_per_item, const Tolerance& t) {
  Tally r;
  std::size_t v = 0;
  for (std::size_t item = 0; item < items; ++item) {
    bool item_differs = false;
    for (int k = 0; k < values_per_item; ++k, ++v) {
      if (got[v] == expected[v]) {  // most values of a right kernel: no double arithmetic
        if (r.max_abs_diff < 0) r.max_abs_diff = 0, r.max_value = v;
        continue;
      }
      const double a = static_cast<double>(got[v]), b = static_cast<double>(expected[v]);
      const double d = abs_difference(a, b);
      if (d > r.max_abs_diff) r.max_abs_diff = d, r.max_value = v;
      if (std::isnan(a) != std::isnan(b)) ++r.nan_mismatches;
      if (!agrees(a, b, d, t)) {
        if (!r.has_first) r.has_first = true, r.first_value = v;
        item_differs = true;
      }
    }
    r.differing_items += item_differs ? 1 : 0;
  }
  return r;
}

}  // namespace ks::usercode::detail
