// RuntimeLibrary: the toolkit libraries that only some features use (cuBLAS, NVRTC) are opened at run time, so
// that the programs start without them; a missing one must say what is missing and what to do.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "core/runtime_library.hpp"

namespace ks {
namespace {

TEST(RuntimeLibrary, AMissingLibraryIsADeviceErrorNamingItAndTheHint) {
  try {
    RuntimeLibrary library({"libkernelscope-no-such-library.so.7", "/nonexistent/libkernelscope-no-such.so.7"},
                           "cuFoo", "install cuFoo");
    FAIL() << "opened " << library.path();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Device);
    const std::string what = e.what();
    EXPECT_NE(what.find("cuFoo could not be loaded"), std::string::npos) << what;
    // Every candidate tried is named with the loader's reason.
    EXPECT_NE(what.find("libkernelscope-no-such-library.so.7"), std::string::npos) << what;
    EXPECT_NE(what.find("/nonexistent/libkernelscope-no-such.so.7"), std::string::npos) << what;
    EXPECT_EQ(e.hint(), "install cuFoo");
  }
}

TEST(RuntimeLibrary, TheFirstCandidateThatOpensIsUsedAndItsFunctionsWork) {
  // libm is on every Debian system; the first candidate does not exist.
  const RuntimeLibrary libm({"libkernelscope-no-such-library.so.7", "libm.so.6"}, "libm", "");
  EXPECT_EQ(libm.path(), "libm.so.6");
  const auto cosine = libm.function<double (*)(double)>("cos");
  EXPECT_DOUBLE_EQ(cosine(0.0), 1.0);
  EXPECT_NEAR(cosine(M_PI), -1.0, 1e-15);
}

TEST(RuntimeLibrary, AMissingFunctionIsADeviceErrorNamingIt) {
  const RuntimeLibrary libm({"libm.so.6"}, "libm", "a hint");
  try {
    libm.function<void (*)()>("kernelscope_no_such_function");
    FAIL() << "found a function that does not exist";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Device);
    EXPECT_NE(std::string(e.what()).find("kernelscope_no_such_function"), std::string::npos) << e.what();
    EXPECT_EQ(e.hint(), "a hint");
  }
}

TEST(RuntimeLibrary, ToolkitCandidatesAreTheSonameThenTheToolkitFolder) {
  EXPECT_EQ(toolkit_library_candidates("libnvrtc.so.13", "/usr/local/cuda/lib64"),
            (std::vector<std::string>{"libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.13"}));
  EXPECT_EQ(toolkit_library_candidates("libnvrtc.so.13", ""), (std::vector<std::string>{"libnvrtc.so.13"}));
}

}  // namespace
}  // namespace ks
