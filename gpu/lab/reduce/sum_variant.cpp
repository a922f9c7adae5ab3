#include "lab/reduce/sum_variant.hpp"

#include <cmath>
#include <limits>

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace ks::lab {

namespace {
constexpr EnumName<Accumulate> kAccumulateNames[] = {{Accumulate::F32, "f32"}, {Accumulate::F64, "f64"}};
constexpr EnumName<SumVariant> kVariantNames[] = {{SumVariant::Atomic, "atomic"},
                                                  {SumVariant::Shared, "shared"},
                                                  {SumVariant::Warp, "warp"},
                                                  {SumVariant::Cub, "cub"}};
}  // namespace

const char* to_string(Accumulate a) noexcept {
  return name_of(kAccumulateNames, a);
}

const char* to_string(SumVariant v) noexcept {
  return name_of(kVariantNames, v);
}

Accumulate accumulate_from_string(const std::string& s) {
  return value_named(kAccumulateNames, s, "accumulation type",
                     "use " + names_listed(kAccumulateNames, "accumulate="));
}

SumVariant sum_variant_from_string(const std::string& s) {
  return value_named(kVariantNames, s, "sum variant");
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
