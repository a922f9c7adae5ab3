#pragma once
// The CPU sorts of the lab's `sort` kernel: `cpu` (std::sort, the reference) and `cpu_parallel`
// (tbb::parallel_sort from Debian's libtbb-dev, when the build found TBB).
//
// Key-value pairs are sorted as 64-bit words (key << 32 | value): by key, and equal keys by value. That order
// is unique, so both CPU variants give the same bytes; it is not stability (the input order of equal keys is
// not kept unless the values are the input positions, as make_positions gives them).
#include <cstdint>
#include <span>
#include <string>

namespace ks::lab {

// Empty when cpu_parallel can run; otherwise why not and how to get it.
std::string cpu_parallel_sort_unavailable_reason();

// Sorts keys (and values with them, when values is not empty: same length) in place.
void sort_cpu(std::span<std::uint32_t> keys, std::span<std::uint32_t> values, bool parallel);

}  // namespace ks::lab
