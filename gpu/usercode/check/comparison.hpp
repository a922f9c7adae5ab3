#pragma once
// The outcome of checking a kernel's output against a reference (compare.hpp): how many pixels or elements differ
// beyond the tolerance, the largest |difference| and where, the first differing value in row-major order, and a
// one-line summary. app/report/comparison_json.hpp writes it as JSON.
#include <cstddef>
#include <optional>
#include <string>

#include "usercode/check/tolerance.hpp"

namespace ks::usercode {

// What was compared: pixels of an image (a pixel differs when any of its channels does) or array elements.
enum class ComparedItems { Pixels, Elements };
// How the values print: integers, floats (their shortest float text) or doubles.
enum class ValueKind { Integer, Float, Double };

// One value of the output beside the reference's.
struct ValueAt {
  std::size_t index = 0;  // arrays: the element; images: the pixel, y * width + x
  int x = 0, y = 0, channel = 0;  // images only
  double got = 0;       // the output's value
  double expected = 0;  // the reference's
};

struct Comparison {
  ComparedItems items = ComparedItems::Pixels;
  ValueKind values = ValueKind::Float;
  Tolerance tolerance;
  int channels = 1;            // images: channels per pixel
  std::size_t compared = 0;    // pixels or elements
  std::size_t differing = 0;   // of those, the ones beyond the tolerance
  std::size_t nan_mismatches = 0;  // values where one side is NaN and the other is not
  // The largest |got - expected| over every value, those within the tolerance too; a NaN against a number and an
  // infinity against anything else count as infinite. NaN against NaN and equal infinities count as 0.
  double max_abs_diff = 0;
  // The first value with max_abs_diff (the very first value when all agree exactly); absent when nothing was
  // compared.
  std::optional<ValueAt> max_at;
  std::optional<ValueAt> first;   // the first value beyond the tolerance, in row-major order (channels within a pixel)

  bool matches() const noexcept { return differing == 0; }
  double fraction() const noexcept { return compared ? double(differing) / double(compared) : 0.0; }
  const char* unit() const noexcept { return items == ComparedItems::Pixels ? "pixels" : "elements"; }
};

// One line, e.g.
//   "matches: 0 of 1048576 pixels differ (max |diff| 0)"
//   "differs: 312 of 1048576 pixels (0.03%) beyond 1e-5 relative; max |diff| 0.5 at (17, 3) channel 0: got 12.5,
//    expected 12"
// and for a single value (a scalar out) "differs: got 12.5, expected 12 (|diff| 0.5, beyond 1e-5 relative)".
std::string comparison_summary(const Comparison& c);

// How a value prints in the summary ("12.5", "nan").
std::string value_text(const Comparison& c, double value);
// "(17, 3) channel 0" for a pixel's value, "element 17" for an array's.
std::string position_text(const Comparison& c, const ValueAt& at);

}  // namespace ks::usercode
