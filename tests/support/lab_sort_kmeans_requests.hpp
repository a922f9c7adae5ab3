#pragma once
// Lab requests for sort and kmeans in tests (tests/cpu/test_lab_sort_kmeans_run.cpp and the GPU tests).
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/image.hpp"
#include "core/ndarray.hpp"
#include "lab/lab.hpp"
#include "registry/registry.hpp"

namespace ks::test {

inline lab::LabRequest sort_request(std::int64_t n, Backend backend, const std::string& variant,
                                    const std::vector<std::string>& params = {}) {
  lab::LabRequest r;
  r.kernel = "sort";
  r.size = lab::LabSize::elements(n);
  r.params = KernelRegistry::builtin().get("sort").default_params();
  for (const auto& p : params) r.params.set_assignment(p);
  r.backend = backend;
  r.variant = variant;
  r.keep = {"keys"};
  if (r.params.get_choice("payload") == "pairs") r.keep.push_back("values");
  r.warmup = 0;
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

inline const NdArray& kept_array(const lab::LabResult& r, const std::string& name) {
  for (const auto& a : r.arrays)
    if (a.name == name) return a;
  throw Error(ErrorKind::Internal, "the result holds no array '" + name + "'");
}

}  // namespace ks::test
