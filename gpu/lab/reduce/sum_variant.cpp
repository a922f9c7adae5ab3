#include "lab/reduce/sum_variant.hpp"

#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace ks::lab {

const char* to_string(Accumulate a) noexcept {
  return a == Accumulate::F64 ? "f64" : "f32";
}

const char* to_string(SumVariant v) noexcept {
  switch (v) {
    case SumVariant::Atomic:
      return "atomic";
    case SumVariant::Shared:
      return "shared";
    case SumVariant::Warp:
      return "warp";
    case SumVariant::Cub:
      return "cub";
  }
  return "?";
}

Accumulate accumulate_from_string(const std::string& s) {
  if (s == "f32") return Accumulate::F32;
  if (s == "f64") return Accumulate::F64;
  throw_usage("unknown accumulation type '" + s + "'", "use accumulate=f32 or accumulate=f64");
}

SumVariant sum_variant_from_string(const std::string& s) {
  for (SumVariant v : {SumVariant::Atomic, SumVariant::Shared, SumVariant::Warp, SumVariant::Cub})
    if (s == to_string(v)) return v;
  throw_usage("unknown sum variant '" + s + "'", "use atomic, shared, warp or cub");
}

double unit_roundoff(Accumulate a) noexcept {
  return a == Accumulate::F64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

double sum_error_bound(Accumulate a, long long n, double sum_abs) noexcept {
  const double ku = double(n > 1 ? n - 1 : 0) * unit_roundoff(a);
  // gamma >= 1 from ku >= 1/2 on; gamma grows without end as ku nears 1 (2^24 values in f32: 2^24 - 1).
  if (ku >= 0.5) return std::numeric_limits<double>::infinity();
  return ku / (1 - ku) * sum_abs;
}

}  // namespace ks::lab
