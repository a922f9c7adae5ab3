#include "lab/sort/sort_cpu.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"

#if defined(KS_HAVE_TBB)
#include <tbb/parallel_sort.h>
#endif

namespace ks::lab {

namespace {

template <class It>
void sort_range(It begin, It end, bool parallel) {
#if defined(KS_HAVE_TBB)
  if (parallel) {
    tbb::parallel_sort(begin, end);
    return;
  }
#endif
  std::sort(begin, end);
}

void check_parallel(bool parallel) {
  if (parallel && !cpu_parallel_sort_unavailable_reason().empty())
    throw Error(ErrorKind::Usage, cpu_parallel_sort_unavailable_reason(), "use --variant cpu");
}

}  // namespace

std::string cpu_parallel_sort_unavailable_reason() {
#if defined(KS_HAVE_TBB)
  return {};
#else
  return "this build has no TBB for cpu_parallel (install libtbb-dev and reconfigure)";
#endif
}

void sort_cpu(std::span<std::uint32_t> keys, std::span<std::uint32_t> values, bool parallel) {
  check_parallel(parallel);
  if (!values.empty() && values.size() != keys.size())
    throw Error(ErrorKind::Internal, "sort_cpu: keys and values differ in length");
  if (values.empty()) {
    sort_range(keys.begin(), keys.end(), parallel);
    return;
  }
  std::vector<std::uint64_t> packed(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) packed[i] = (std::uint64_t(keys[i]) << 32) | values[i];
  sort_range(packed.begin(), packed.end(), parallel);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    keys[i] = std::uint32_t(packed[i] >> 32);
    values[i] = std::uint32_t(packed[i]);
  }
}

}  // namespace ks::lab
