#pragma once
// Separately rounded float and double operations, for arithmetic that the CPU code and the CUDA kernels must
// round alike: nvcc contracts a*b+c into an FMA unless told not to, g++ does not on x86-64 with
// -ffp-contract=off. Used where results must be bit-identical across backends (the stencils' U8 finishing, the
// simulations' float updates, the lab's integrands and k-means distances, the topology search's annealing).
// The overloads take exactly float or exactly double; every caller passes one type, so none converts.
#include "core/hd.hpp"

#if !defined(__CUDACC__)
#include <cmath>
#endif

namespace ks {

KS_HD float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
KS_HD float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
KS_HD float div_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
KS_HD float sqrt_rn(float a) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}

KS_HD double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
KS_HD double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
KS_HD double div_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}

}  // namespace ks
