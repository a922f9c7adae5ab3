#pragma once
// Helpers shared by the test binaries: random images, comparisons with useful failure messages, the usage Error a
// call throws, temp folders.
#include <filesystem>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/image.hpp"

namespace ks::test {

// Uniform random image (U8: 0..255, F32: 0..1) from a fixed seed; never zeros.
Image random_image(int width, int height, int channels, ElemType type, std::uint32_t seed);

// Exact equality for integer images; for F32, |a - b| <= rel_tol * max(|b|, 1). Reports the first mismatches.
::testing::AssertionResult images_match(const Image& actual, const Image& expected, double rel_tol = 1e-5);

// The usage Error `f` throws, with its message and hint together; a test failure when it throws none.
template <class F>
std::string usage_error(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    return e.full_message();
  }
  ADD_FAILURE() << "no error";
  return {};
}

// A fresh, empty folder under the system temp dir, removed when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// True when a CUDA device is usable; GPU tests call GTEST_SKIP() otherwise (see KS_REQUIRE_GPU).
bool gpu_available();
// KS_GPU_FAULT_TESTS=1 (see KS_REQUIRE_GPU_FAULTS).
bool gpu_fault_tests_enabled();

}  // namespace ks::test

#define KS_REQUIRE_GPU()                                                  \
  do {                                                                    \
    if (!::ks::test::gpu_available()) GTEST_SKIP() << "no CUDA device"; \
  } while (0)

// Tests that fault the GPU on purpose (users' kernels with an illegal address, a trap, an endless loop) run only
// when KS_GPU_FAULT_TESTS=1, which scripts/gpu-check sets for its last step: after such a fault, the NVIDIA driver
// measured draws every later CUDA-GL interop frame of the machine black, in any process (docs/PERF.md, "A fault
// and the display"), so run among the other GPU tests they broke the frame tests that came after them.
#define KS_REQUIRE_GPU_FAULTS()                                                                          \
  do {                                                                                                   \
    KS_REQUIRE_GPU();                                                                                    \
    if (!::ks::test::gpu_fault_tests_enabled())                                                          \
      GTEST_SKIP() << "faults the GPU, after which interop frames come out black: set KS_GPU_FAULT_TESTS=1 " \
                      "(scripts/gpu-check runs these last)";                                             \
  } while (0)
