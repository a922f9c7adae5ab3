#pragma once
// Lab requests at any size form (n, NxM, MxNxK) for the tests of reduce, integrate2d and matmul, and reading
// the facts of a result (its arrays: lab_support.hpp's array_named).
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "lab/lab.hpp"
#include "registry/registry.hpp"
#include "support/lab_support.hpp"

namespace ks::test {

// One run (no warm-up), the kernel's default parameters plus `params` ("name=value"), keeping `keep`.
inline lab::LabRequest sized_request(const std::string& kernel, const lab::LabSize& size, Backend backend,
                                     const std::string& variant, const std::vector<std::string>& params = {},
                                     std::vector<std::string> keep = {}) {
  lab::LabRequest r;
  r.kernel = kernel;
  r.size = size;
  r.params = KernelRegistry::builtin().get(kernel).default_params();
  for (const auto& p : params) r.params.set_assignment(p);
  r.backend = backend;
  r.variant = variant;
  r.keep = std::move(keep);
  r.warmup = 0;
  r.repeat = 1;
  return r;
}

// The number of the fact named `name`; an Internal error when the report has none.
inline double fact_number(const lab::LabReport& r, const std::string& name) {
  for (const auto& f : r.facts)
    if (f.name == name && f.number) return *f.number;
  throw Error(ErrorKind::Internal, "the report has no numeric fact '" + name + "'");
}

inline bool has_fact(const lab::LabReport& r, const std::string& name) {
  for (const auto& f : r.facts)
    if (f.name == name) return true;
  return false;
}

}  // namespace ks::test
