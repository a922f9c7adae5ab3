#pragma once
// Arithmetic of the search, shared verbatim by the CPU backend and the CUDA kernels (see topo/arith.hpp for
// the policies ExactInt64 and RealDouble). Added here:
//   ExactInt32   scaled integers in 32 bits, for problems whose every intermediate stays below 2^31 (most
//                QAPLIB instances): half the memory of int64, and full-speed integer multiply-adds on a GPU
//   ExactInt32In<M>  the same arithmetic on path costs and traffic kept as M (int8 or int16) where every
//                entry fits: the values and the moves are ExactInt32's, but a CUDA tabu chain's matrices take
//                a quarter or half of the shared memory, so more chains fit an SM (docs/PERF.md)
//   matrix_t<A>  the type a search keeps the path costs and the (permuted) traffic in: A::Matrix where A
//                names one, else A::Value
//   det_exp      e^x for the annealing's acceptance test, from separately rounded multiplications and
//                additions only, so that the host and the device accept exactly the same moves (the
//                libraries' exp() may differ in the last bit)
#include <cstdint>
#include <type_traits>

#include "core/hd.hpp"
#include "core/rounded_math.hpp"  // mul_rn, add_rn, div_rn (double)
#include "topo/arith.hpp"

namespace ks::topo {

struct ExactInt32 {
  using Value = std::int32_t;
  static constexpr bool exact = true;
  KS_HD static Value mad(Value acc, Value a, Value b) { return acc + a * b; }
  KS_HD static Value sub(Value a, Value b) { return a - b; }
  KS_HD static Value add(Value a, Value b) { return a + b; }
};

template <class M>
struct ExactInt32In : ExactInt32 {
  static_assert(std::is_integral_v<M> && std::is_signed_v<M> && sizeof(M) < sizeof(std::int32_t));
  using Matrix = M;
};

template <class A, class = void>
struct MatrixOf {
  using type = typename A::Value;
};
template <class A>
struct MatrixOf<A, std::void_t<typename A::Matrix>> {
  using type = typename A::Matrix;
};
template <class A>
using matrix_t = typename MatrixOf<A>::type;

// e^x for x <= 0, relative error below 1e-10 (plenty for an acceptance probability; what matters is that both
// sides compute the same bits); 0 below -40 (e^-40 = 4e-18 is below the resolution of the uniform numbers it
// is compared with). e^x = (e^(x/64))^64, e^(x/64) by its Taylor series to degree 12 (remainder below 4e-13
// for |x/64| <= 0.625), evaluated by Horner's rule.
KS_HD double det_exp(double x) {
  if (!(x > -40.0)) return 0.0;
  if (x >= 0.0) return 1.0;
  const double r = x * 0.015625;  // x / 64: exact
  double y = 1.0 / 479001600;     // 1/12!
  y = add_rn(mul_rn(y, r), 1.0 / 39916800);
  y = add_rn(mul_rn(y, r), 1.0 / 3628800);
  y = add_rn(mul_rn(y, r), 1.0 / 362880);
  y = add_rn(mul_rn(y, r), 1.0 / 40320);
  y = add_rn(mul_rn(y, r), 1.0 / 5040);
  y = add_rn(mul_rn(y, r), 1.0 / 720);
  y = add_rn(mul_rn(y, r), 1.0 / 120);
  y = add_rn(mul_rn(y, r), 1.0 / 24);
  y = add_rn(mul_rn(y, r), 1.0 / 6);
  y = add_rn(mul_rn(y, r), 0.5);
  y = add_rn(mul_rn(y, r), 1.0);
  y = add_rn(mul_rn(y, r), 1.0);
  for (int k = 0; k < 6; ++k) y = mul_rn(y, y);
  return y;
}

}  // namespace ks::topo
