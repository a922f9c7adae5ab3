#include "usercode/check/tolerance.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "usercode/check/number_text.hpp"

namespace ks::usercode {

namespace {
constexpr Tolerance kExact{0, 0};
constexpr Tolerance kFloat{1e-5, 1e-5};
}  // namespace

Tolerance default_tolerance(ElemType type) {
  return type == ElemType::F32 ? kFloat : kExact;
}

Tolerance default_tolerance(DType type) {
  return type == DType::F32 || type == DType::F64 ? kFloat : kExact;
}

void check_tolerance(const Tolerance& t) {
  for (const auto& [value, name] : {std::pair{t.abs, "absolute"}, std::pair{t.rel, "relative"}}) {
    if (!std::isfinite(value) || value < 0)
      throw_usage(fmt::format("the {} tolerance {} is not a number of 0 or more", name, number_text(value)),
                  "give a tolerance of 0 (exact) or more, e.g. 1e-5");
  }
}

std::string tolerance_text(const Tolerance& t) {
  if (t.abs == 0 && t.rel == 0) return "exact";
  if (t.abs == 0) return number_text(t.rel) + " relative";
  if (t.rel == 0) return number_text(t.abs) + " absolute";
  return number_text(t.rel) + " relative + " + number_text(t.abs) + " absolute";
}

}  // namespace ks::usercode
