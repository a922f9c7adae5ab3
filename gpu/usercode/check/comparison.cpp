#include "usercode/check/comparison.hpp"

#include <cmath>

#include <fmt/format.h>

#include "usercode/check/number_text.hpp"

namespace ks::usercode {

namespace {

// "0.03%", "3%", "100%"; never "0%" or "100%" for a part: "< 0.01%", "> 99.99%".
std::string percent_text(std::size_t part, std::size_t whole) {
  if (part == whole) return "100%";
  const double pct = 100.0 * double(part) / double(whole);
  if (pct < 0.01) return "< 0.01%";
  std::string s = fmt::format("{:.2f}", pct);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "100" ? "> 99.99%" : s + "%";
}

// A difference: exact for integers; for floats their short text when it is short (0.5), else 3 digits (9.69e-8).
std::string difference_text(const Comparison& c, double d) {
  if (c.values == ValueKind::Integer || !std::isfinite(d)) return value_text(c, d);
  const std::string shortest = number_text(static_cast<float>(d));
  return shortest.size() <= 8 ? shortest : number_text(std::stod(fmt::format("{:.3g}", d)));
}

std::string got_expected(const Comparison& c, const ValueAt& v) {
  return fmt::format("got {}, expected {}", value_text(c, v.got), value_text(c, v.expected));
}

std::string nan_note(const Comparison& c) {
  if (c.nan_mismatches == 0) return {};
  return fmt::format("; {} {} NaN against a number", c.nan_mismatches, c.nan_mismatches == 1 ? "value is" : "values are");
}

// A scalar out (an array of one element): the two values side by side.
std::string single_value_summary(const Comparison& c) {
  const ValueAt& v = *c.max_at;
  const std::string values = got_expected(c, v);
  const std::string diff = difference_text(c, c.max_abs_diff);
  const std::string tol = tolerance_text(c.tolerance);
  if (c.matches()) {
    if (c.max_abs_diff == 0) return "matches: " + values;
    return fmt::format("matches: {} (|diff| {}, within {})", values, diff, tol);
  }
  if (c.tolerance == Tolerance{}) return fmt::format("differs: {} (|diff| {}, not equal)", values, diff);
  return fmt::format("differs: {} (|diff| {}, beyond {})", values, diff, tol);
}

}  // namespace

std::string value_text(const Comparison& c, double value) {
  switch (c.values) {
    case ValueKind::Integer:
      return std::isfinite(value) ? fmt::format("{}", static_cast<long long>(value)) : number_text(value);
    case ValueKind::Float:
      return number_text(static_cast<float>(value));
    case ValueKind::Double:
      break;
  }
  return number_text(value);
}

std::string position_text(const Comparison& c, const ValueAt& at) {
  if (c.items == ComparedItems::Elements) return fmt::format("element {}", at.index);
  return fmt::format("({}, {}) channel {}", at.x, at.y, at.channel);
}

std::string comparison_summary(const Comparison& c) {
  if (c.items == ComparedItems::Elements && c.compared == 1 && c.max_at) return single_value_summary(c);
  const std::string max = difference_text(c, c.max_abs_diff);
  if (c.matches()) {
    std::string s = fmt::format("matches: 0 of {} {} differ (max |diff| {}", c.compared, c.unit(), max);
    if (c.max_abs_diff > 0) s += ", within " + tolerance_text(c.tolerance);
    return s + ")";
  }
  const std::string beyond =
      c.tolerance == Tolerance{} ? "are not equal" : "beyond " + tolerance_text(c.tolerance);
  std::string s = fmt::format("differs: {} of {} {} ({}) {}", c.differing, c.compared, c.unit(),
                              percent_text(c.differing, c.compared), beyond);
  if (c.max_at)
    s += fmt::format("; max |diff| {} at {}: {}", max, position_text(c, *c.max_at), got_expected(c, *c.max_at));
  return s + nan_note(c);
}

}  // namespace ks::usercode
