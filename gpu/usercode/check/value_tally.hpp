#pragma once
// The one loop behind compare_images and compare_arrays: values in row-major order, grouped in items (a pixel's
// channels, or one element), each held to the tolerance as tolerance.hpp defines it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/thread_pool.hpp"
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

// One value that is not bit-for-bit the reference's.
template <class T>
void tally_value(T got, T expected, std::size_t v, const Tolerance& t, Tally& r, bool& item_differs) {
  const double a = static_cast<double>(got), b = static_cast<double>(expected);
  if constexpr (std::is_integral_v<T>) {  // no NaN, no infinity: a wrong u8 kernel differs everywhere, quickly
    const double d = std::fabs(a - b);
    if (d > r.max_abs_diff) r.max_abs_diff = d, r.max_value = v;
    if (!(d <= t.abs + t.rel * std::max(std::fabs(a), std::fabs(b)))) {
      if (!r.has_first) r.has_first = true, r.first_value = v;
      item_differs = true;
    }
    return;
  }
  // Most values of a right float kernel differ by rounding: one bound check, no NaN or infinity in sight.
  const double quick = std::fabs(a - b);
  if (quick <= t.abs + t.rel * std::max(std::fabs(a), std::fabs(b)) && quick != std::numeric_limits<double>::infinity()) {
    if (quick > r.max_abs_diff) r.max_abs_diff = quick, r.max_value = v;
    return;
  }
  const double d = abs_difference(a, b);
  if (d > r.max_abs_diff) r.max_abs_diff = d, r.max_value = v;
  if (std::isnan(a) != std::isnan(b)) ++r.nan_mismatches;
  if (!agrees(a, b, d, t)) {
    if (!r.has_first) r.has_first = true, r.first_value = v;
    item_differs = true;
  }
}

// The items [begin, end): blocks that are bit-for-bit the reference's (most of a right kernel's output) pass
// through memcmp.
template <class T>
Tally tally_items(const T* got, const T* expected, std::size_t begin, std::size_t end, std::size_t per_item,
                  const Tolerance& t) {
  Tally r;
  const std::size_t first = begin * per_item;
  if (std::memcmp(got + first, expected + first, (end - begin) * per_item * sizeof(T)) == 0) {
    if (end > begin) r.max_abs_diff = 0, r.max_value = first;
    return r;
  }
  for (std::size_t item = begin; item < end; ++item) {
    bool item_differs = false;
    for (std::size_t v = item * per_item; v < (item + 1) * per_item; ++v) {
      if (got[v] == expected[v]) {
        if (r.max_abs_diff < 0) r.max_abs_diff = 0, r.max_value = v;
        continue;
      }
      tally_value(got[v], expected[v], v, t, r, item_differs);
    }
    r.differing_items += item_differs ? 1 : 0;
  }
  return r;
}

// `later` covers values after `earlier`'s: the sums add, the first and the largest stay the earliest.
inline void merge_later(Tally& earlier, const Tally& later) {
  earlier.differing_items += later.differing_items;
  earlier.nan_mismatches += later.nan_mismatches;
  if (later.max_abs_diff > earlier.max_abs_diff)
    earlier.max_abs_diff = later.max_abs_diff, earlier.max_value = later.max_value;
  if (!earlier.has_first && later.has_first) earlier.has_first = true, earlier.first_value = later.first_value;
}

// Every item, in blocks, over the pool's threads when there is one; the blocks merge in order, so the outcome does
// not depend on the threads.
template <class T>
Tally tally_values(const T* got, const T* expected, std::size_t items, int values_per_item, const Tolerance& t,
                   ThreadPool* pool) {
  constexpr std::size_t kBlockItems = 16384;
  const std::size_t per_item = static_cast<std::size_t>(values_per_item);
  const std::size_t blocks = (items + kBlockItems - 1) / kBlockItems;
  std::vector<Tally> tallies(blocks);
  auto run = [&](long long b0, long long b1) {
    for (auto b = std::size_t(b0); b < std::size_t(b1); ++b)
      tallies[b] = tally_items(got, expected, b * kBlockItems, std::min(items, (b + 1) * kBlockItems), per_item, t);
  };
  if (pool && blocks > 1)
    pool->parallel_for(0, static_cast<long long>(blocks), run);
  else
    run(0, static_cast<long long>(blocks));
  Tally total;
  for (const Tally& block : tallies) merge_later(total, block);
  return total;
}

}  // namespace ks::usercode::detail
