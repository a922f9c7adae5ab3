#include "report/comparison_json.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "usercode/check/number_text.hpp"

namespace ks::report {

namespace {

using nlohmann::ordered_json;

ordered_json number(double v) { return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr); }

// A value as its type prints it: integers as integers, floats by their shortest text (0.1f, not
// 0.100000001490116).
ordered_json value(const usercode::Comparison& c, double v) {
  if (!std::isfinite(v)) return nullptr;
  switch (c.values) {
    case usercode::ValueKind::Integer: return static_cast<std::int64_t>(v);
    case usercode::ValueKind::Float: return std::stod(usercode::number_text(static_cast<float>(v)));
    case usercode::ValueKind::Double: break;
  }
  return v;
}

ordered_json position(const usercode::Comparison& c, const std::optional<usercode::ValueAt>& at) {
  if (!at) return nullptr;
  ordered_json j;
  if (c.items == usercode::ComparedItems::Pixels) {
    j["x"] = at->x;
    j["y"] = at->y;
    j["channel"] = at->channel;
  } else {
    j["index"] = at->index;
  }
  j["got"] = value(c, at->got);
  j["expected"] = value(c, at->expected);
  return j;
}

}  // namespace

ordered_json comparison_json(const usercode::Comparison& c) {
  return ordered_json{{"matches", c.matches()},
                      {"compared", c.compared},
                      {"unit", c.unit()},
                      {"differing", c.differing},
                      {"fraction", c.fraction()},
                      {"max_abs_diff", number(c.max_abs_diff)},
                      {"max_at", position(c, c.max_at)},
                      {"first", position(c, c.first)},
                      {"nan_mismatches", c.nan_mismatches},
                      {"tolerance", {{"abs", c.tolerance.abs}, {"rel", c.tolerance.rel}}},
                      {"summary", usercode::comparison_summary(c)}};
}

}  // namespace ks::report
