#pragma once
// A stencil kernel of the registry with parameter assignments, as the parameterised stencil tests list them
// (CPU SIMD against the reference, CUDA against the CPU), and how gtest and CTest name it.
#include <cctype>
#include <ostream>
#include <string>
#include <vector>

namespace ks::test {

struct StencilCase {
  const char* kernel;
  std::vector<const char*> params;  // "name=value"
};

// "gaussian_sigma_1_5": the kernel and its assignments, with every other character an underscore.
inline std::string case_name(const StencilCase& c) {
  std::string s = c.kernel;
  for (const char* p : c.params) s += std::string("_") + p;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

// How gtest (and so CTest's test list) prints a case: its name, not its bytes.
inline void PrintTo(const StencilCase& c, std::ostream* os) {
  *os << case_name(c);
}

}  // namespace ks::test
