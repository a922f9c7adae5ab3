#pragma once
// The parameter sets the copies of the built-ins (Edit a copy, app/copies) are tested at: each stencil kernel's
// defaults, and the others that change a copy's shape (an odd or large radius, a large sigma, a window that does
// not separate, u8 weights in fixed point, the gradient's dx alone). The compile test (tests/usercode) and the GPU
// test (tests/gpu) both go through them.
#include <string>
#include <vector>

#include "registry/registry.hpp"

namespace ks::test {

struct CopyCase {
  std::string kernel;
  std::vector<std::string> params;  // NAME=VALUE over the kernel's defaults
  std::string label() const {
    std::string s = kernel;
    for (const std::string& p : params) s += " " + p;
    return s;
  }
  ParamSet param_set() const {
    ParamSet set = KernelRegistry::builtin().get(kernel).default_params();
    for (const std::string& p : params) set.set_assignment(p);
    return set;
  }
};

inline std::vector<CopyCase> copy_cases() {
  std::vector<CopyCase> cases;
  for (const KernelSpec& k : KernelRegistry::builtin().kernels())
    if (k.category == "stencil") cases.push_back({k.id, {}});
  for (CopyCase c : std::vector<CopyCase>{{"box", {"radius=3"}},
                                          {"gaussian", {"sigma=8"}},  // radius 24
                                          {"gaussian", {"sigma=0.7", "radius=5"}},
                                          {"sobel", {"output=dx"}},
                                          {"laplacian", {"neighbours=8"}},
                                          {"sharpen", {"amount=2.5", "sigma=3"}},
                                          {"median", {"radius=3"}},
                                          {"convolve", {"matrix=1,2,1;2,4,2;1,2,1", "normalize=true"}},
                                          {"convolve", {"matrix=0.5,0,-0.25,0,1;0,1,0,0,0;2,0,0,0,1.5", "normalize=false"}}})
    cases.push_back(std::move(c));
  return cases;
}

}  // namespace ks::test
