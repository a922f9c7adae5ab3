// A lab run that does not fit in the GPU's free memory is refused before anything is allocated, with how much
// it needs and how much is free (a usage error: exit 2), and --host mapped (no device copies) still runs.
#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "lab/lab.hpp"
#include "support/lab_support.hpp"
#include "support/memory_ballast.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

TEST(LabMemory, ASizeBeyondFreeDeviceMemoryIsRefusedWithTheFigures) {
  KS_REQUIRE_GPU();
#ifdef KS_HAVE_CUDA
  Engine engine;
  auto req = test::lab_request("vecadd", std::int64_t(1) << 26, Backend::Cuda, "vector4");  // 805 MB of arrays
  MemoryBallast ballast(256u << 20);
  ASSERT_TRUE(ballast.holds());
  try {
    lab::run_lab(engine, req);
    FAIL() << "805 MB of arrays ran in 256 MB";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    EXPECT_NE(e.full_message().find("of device memory"), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("is free"), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("--host mapped"), std::string::npos) << e.full_message();
  }
  req.host = lab::HostMode::Mapped;  // the kernel reads host memory: nothing but the reserve on the device
  req.keep = {"c"};
  const auto r = lab::run_lab(engine, req);
  EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
#endif
}

}  // namespace
}  // namespace ks
