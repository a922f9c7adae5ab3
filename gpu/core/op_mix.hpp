#pragma once
// A cost model's operations by the ceiling that bounds them. The roofline used to hold every operation
// against the f32 FMA peak, so a u8 median (64 compare-exchanges to a 512-bit vector) or a box filter summing
// in 16-bit lanes showed above 100% of its roof; each kind here has its own measured ceiling
// (core/peaks.hpp).
#include <array>
#include <cstdint>
#include <string_view>

namespace ks {

enum class OpKind {
  F32Fma,  // f32 fused multiply-adds, each counting 2 operations (the FMA peak's unit)
  F32One,  // a lone f32 add, multiply, min/max, compare or sqrt: 1 operation that takes a whole FMA slot
  U8,      // integer add, compare or min/max on 8-bit lanes
  I16,     // ... on 16-bit lanes (an integer multiply-add counts 2)
  I32,     // ... on 32-bit lanes
};
inline constexpr int kOpKinds = 5;
inline constexpr std::array<OpKind, kOpKinds> kAllOpKinds = {OpKind::F32Fma, OpKind::F32One, OpKind::U8,
                                                             OpKind::I16, OpKind::I32};

// The ceiling's name in reports: "f32 FMA", "f32 add/mul", "u8 integer", "i16 integer", "i32 integer".
std::string_view ceiling_name(OpKind kind);
// The JSON key of a kind: "f32_fma", "f32_one", "u8", "i16", "i32".
std::string_view op_kind_key(OpKind kind);

// Operations of each kind (an FMA counts 2, as everywhere in the roofline).
struct OpMix {
  std::array<double, kOpKinds> ops{};

  static OpMix of(OpKind kind, double operations) { return OpMix{}.add(kind, operations); }
  OpMix& add(OpKind kind, double operations) {
    ops[std::size_t(kind)] += operations;
    return *this;
  }
  double operator[](OpKind kind) const { return ops[std::size_t(kind)]; }
  OpMix scaled(double factor) const {
    OpMix m = *this;
    for (double& o : m.ops) o *= factor;
    return m;
  }
  double total() const {
    double t = 0;
    for (double o : ops) t += o;
    return t;
  }
  std::uint64_t operations() const { return static_cast<std::uint64_t>(total()); }
};

}  // namespace ks
