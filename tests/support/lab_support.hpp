#pragma once
// Building lab requests in tests, and reading a result's arrays by name.
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/ndarray.hpp"
#include "lab/lab.hpp"
#include "registry/registry.hpp"

namespace ks::test {

// A request for `kernel` at element count n (its default parameters), keeping every named array.
inline lab::LabRequest lab_request(const std::string& kernel, std::int64_t n, Backend backend,
                                   const std::string& variant, std::vector<std::string> keep = {}) {
  lab::LabRequest r;
  r.kernel = kernel;
  r.size = lab::LabSize::elements(n);
  r.params = KernelRegistry::builtin().get(kernel).default_params();
  r.backend = backend;
  r.variant = variant;
  r.keep = std::move(keep);
  r.warmup = 0;
  r.repeat = 1;
  return r;
}

// `name` as a C string: GCC 13 warns of a dangling reference when a temporary std::string is bound to an
// argument of a function that returns a reference (a false positive here: the array lives in `r`).
inline const NdArray& array_named(const lab::LabResult& r, const char* name) {
  for (const auto& a : r.arrays)
    if (a.name == name) return a;
  throw Error(ErrorKind::Internal, std::string("the result holds no array '") + name + "'");
}

}  // namespace ks::test
