#pragma once
// Lab requests for sort and kmeans in tests (tests/cpu/test_lab_sort_kmeans_run.cpp and the GPU tests); their
// arrays by name: lab_support.hpp's array_named.
#include <string>
#include <vector>

#include "core/image.hpp"
#include "lab/lab.hpp"
#include "registry/registry.hpp"
#include "support/lab_support.hpp"

namespace ks::test {

inline lab::LabRequest sort_request(std::int64_t n, Backend backend, const std::string& variant,
                                    const std::vector<std::string>& params = {}) {
  lab::LabRequest r = lab_request("sort", n, backend, variant, {"keys"});
  for (const auto& p : params) r.params.set_assignment(p);
  if (r.params.get_choice("payload") == "pairs") r.keep.push_back("values");
  r.repeat = 2;  // the second run must sort the input again, not the sorted output of the first
  return r;
}

inline lab::LabRequest kmeans_request(const Image& image, Backend backend, const std::string& variant,
                                      const std::vector<std::string>& params = {}) {
  lab::LabRequest r;
  r.kernel = "kmeans";
  r.image = image;
  r.params = KernelRegistry::builtin().get("kmeans").default_params();
  for (const auto& p : params) r.params.set_assignment(p);
  r.backend = backend;
  r.variant = variant;
  r.keep = {"centroids", "labels", "inertia"};
  r.warmup = 0;
  r.repeat = 1;
  return r;
}

}  // namespace ks::test
