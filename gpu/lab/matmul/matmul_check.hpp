#pragma once
// The check of a matrix product against the CPU reference with a bound per element derived from K and the
// magnitudes: two f32 dot products of length K each differ from the exact one by at most
// gamma_K * sum_k |a_ik| |b_kj| <= gamma_K * |a_i| |b_j| (Cauchy-Schwarz; gamma_K = K u / (1 - K u), u =
// 2^-24; FMA or not, any order), so |c_ij - r_ij| <= factor * |a_i| |b_j| with factor = 2 gamma_K. TF32
// tensor cores round each operand to 10 mantissa bits (2^-10 relative when truncated), a product by up to
// 2^-9: factor 2^-9 + 2 gamma_K. Integer inputs small enough to be exact make every variant exact: factor 0.
#include "lab/lab_kernel.hpp"
#include "lab/matmul/matmul_shape.hpp"

namespace ks::lab {

double matmul_fp32_factor(long long k);  // 2 gamma_K
double matmul_tf32_factor(long long k);  // 2^-9 (+1%) + 2 gamma_K

// a (m x k), b (k x n): the inputs; expected and actual: m x n.
LabCheck compare_matmul(const float* a, const float* b, const float* expected, const float* actual,
                        const MatmulShape& s, double factor, ThreadPool& pool);

}  // namespace ks::lab
