// Users' kernels that fault or never end, alone on the GPU (a binary of its own, run serially, and only with
// KS_GPU_FAULT_TESTS=1: after a fault the driver draws interop frames black, see KS_REQUIRE_GPU_FAULTS).
// Each fault comes back as a message, leaves the caller running, and the next good kernel runs; from the CLI a
// fault or an endless loop is an exit 1 with its message and no output file.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "cli/cli_runner.hpp"
#include "stencil/border.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_runs.hpp"
#include "usercode/run/user_stencil.hpp"

namespace ks::usercode {
namespace {

using namespace test::user_kernels;

struct Fault {
  const char* name;
  const char* body;
  RunOutcome outcome;
  const char* words;
};

TEST(UserKernelFaultsCuda, IllegalAddressTrapAndEndlessLoopLeaveTheCallerRunningWithAMessage) {
  KS_REQUIRE_GPU_FAULTS();
  const Fault faults[] = {
      {"illegal_address", "out.data[-(1ll << 40) + x] = 1.f;", RunOutcome::Fault, "illegal address"},
      {"trap", "if (x == 3 && y == 2) __trap(); out.set(x, y, 0, 1.f);", RunOutcome::Fault, "your kernel"},
      {"endless", "for (;;) if (clock64() < 0) break;  out.set(x, y, 0, 1.f);", RunOutcome::TimedOut,
       "the kernel did not finish"},
  };
  const CompiledKernel good = compile_template("smooth3x3.cu");
  const Image input = test::random_image(128, 64, 1, ElemType::F32, 9);
  for (const Fault& f : faults) {
    SCOPED_TRACE(f.name);
    const std::string source = std::string("// @family stencil\n__global__ void ") + f.name +
                               "(ks::InImage<float> in, ks::OutImage<float> out) {\n"
                               "  const int x = ks::global_x(), y = ks::global_y();\n"
                               "  if (!out.contains(x, y)) return;\n  " +
                               f.body + "\n}\n";
    const CompiledKernel bad = compile(std::string(f.name) + ".cu", source, worker().hello().arch);
    ASSERT_TRUE(bad.ok());
    const auto t0 = std::chrono::steady_clock::now();
    const UserStencilRun run = run_user_stencil(worker(), bad, input, 0, 0, launch({32, 8}));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 20.0);
    EXPECT_EQ(run.reply.outcome, f.outcome) << run.reply.message;
    EXPECT_NE(run.reply.message.find(f.words), std::string::npos) << run.reply.message;
    EXPECT_TRUE(run.output.empty());
    EXPECT_FALSE(worker().running());  // the poisoned worker has gone

    const UserStencilRun next = run_user_stencil(worker(), good, input, 0, 0, launch({32, 8}, {1.0}));
    ASSERT_EQ(next.reply.outcome, RunOutcome::Ok) << next.reply.message;
    EXPECT_TRUE(test::images_match(next.output, box3x3_reference(input, "replicate", "0"), 1e-5));
  }
}

}  // namespace
}  // namespace ks::usercode

namespace ks::test {
namespace {

TEST(UserKernelFaultsCuda, FromTheCliAFaultOrAnEndlessLoopIsExitOneWithItsMessageAndNoOutput) {
  KS_REQUIRE_GPU_FAULTS();
  TempDir dir;
  write_file(dir / "oob.cu",
             "// @family stencil\n"
             "__global__ void oob(ks::InImage<float> in, ks::OutImage<float> out) {\n"
             "  out.data[-(1ll << 40) + ks::global_x()] = 1.f;\n"
             "}\n");
  write_file(dir / "spin.cu",
             "// @family stencil\n"
             "__global__ void spin(ks::InImage<float> in, ks::OutImage<float> out) {\n"
             "  for (;;) if (clock64() < 0) break;\n"
             "}\n");
  CliResult r = run_cli({"run", "--kernel-file", "oob.cu", "-i", "sample", "-o", "out.png"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("illegal address"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--checked"), std::string::npos) << r.err;
  r = run_cli({"run", "--kernel-file", "spin.cu", "-i", "sample", "-o", "out.png", "--timeout", "0.5"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("stopped after 0.5 s: the kernel did not finish"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
}

}  // namespace
}  // namespace ks::test
