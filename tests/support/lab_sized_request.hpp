#pragma once
// Lab requests at any size form (n, NxM, MxNxK) for the tests of reduce, integrate2d and matmul, and reading
// the facts of a result (its arrays: lab_support.hpp's array_named).
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "lab/lab.hpp"
#include "support/lab_support.hpp"

namespace ks::test {

// lab_support.hpp's lab_request (one run, no warm-up, default parameters) at any size form, with `params`
// ("name=value") set.
inline lab::LabRequest sized_request(const std::string& kernel, const lab::LabSize& size, Backend backend,
                                     const std::string& variant, const std::vector<std::string>& params = {},
                                     std::vector<std::string> keep = {}) {
  lab::LabRequest r = lab_request(kernel, size.n(), backend, variant, std::move(keep));
  r.size = size;
  for (const auto& p : params) r.params.set_assignment(p);
  return r;
}

// The number of the fact named `name`; an Internal error when the report has none.
inline double fact_number(const lab::LabReport& r, const std::string& name) {
  for (const auto& f : r.facts)
    if (f.name == name && f.number) return *f.number;
  throw Error(ErrorKind::Internal, "the report has no numeric fact '" + name + "'");
}

// The fact named `name` (its text and number); an Internal error when the report has none.
inline const lab::LabFact& fact_named(const lab::LabReport& r, const std::string& name) {
  for (const auto& f : r.facts)
    if (f.name == name) return f;
  throw Error(ErrorKind::Internal, "the report has no fact '" + name + "'");
}

inline bool has_fact(const lab::LabReport& r, const std::string& name) {
  for (const auto& f : r.facts)
    if (f.name == name) return true;
  return false;
}

}  // namespace ks::test
