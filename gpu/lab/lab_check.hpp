#pragma once
// Comparisons of a run's outputs with the CPU reference's, for LabKernel::compare: each gives a LabCheck with
// the largest errors, the bound used and a one-line detail. Threaded over the pool (2^30 elements).
#include <cstdint>
#include <span>
#include <string>

#include "lab/lab_kernel.hpp"

namespace ks::lab {

// Bit-for-bit equality of integers (sort's keys, kmeans' labels): the detail names the first difference.
LabCheck compare_exact(std::span<const std::uint32_t> expected, std::span<const std::uint32_t> actual,
                       const std::string& what, ThreadPool& pool);
// Elementwise floats: |actual - expected| <= rel_tol * |expected| for every element (0 only by 0; NaN only by
// NaN). The relative error of the worst element is reported with its index.
LabCheck compare_relative(std::span<const float> expected, std::span<const float> actual, double rel_tol,
                          const std::string& what, ThreadPool& pool);
// One value against another within an absolute bound the kernel derived (a sum's rounding error bound).
LabCheck compare_within(double expected, double actual, double bound, const std::string& what);
// Both must agree; the larger errors and both details.
LabCheck merge_checks(const LabCheck& a, const LabCheck& b);

}  // namespace ks::lab
