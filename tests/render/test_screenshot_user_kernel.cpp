// `kernelscope --screenshot --kernel-file FILE.cu` where no GPU is needed to say no: the options of your own kernel
// without --kernel-file, with --backend cpu, or with a --compare that names no built-in variant or contradicts
// --kernel are bad requests (exit 2), as are a kernel that does not compile (the compiler's error at the file's own
// line), an array kernel asked for a difference picture, a reference the kernel does not fit (a stencil kernel
// against a simulation, a step kernel against the other simulation, an array kernel against a lab kernel of other
// arrays); a file that cannot be read and a machine without a GPU (for each family) are runtime failures (exit 1),
// the latter in the app's words.
// Nothing is written in any of these. The frames with a GPU: gpu/test_screenshot_user_kernel_cuda.cpp.
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "screenshot_run.hpp"
#include "support/fake_worker.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_compiled.hpp"

namespace ks {
namespace {

const std::string kTemplates = std::string(KS_SOURCE_DIR) + "/assets/kernels/";

// The exit code and what went to standard error; `out` must not exist afterwards.
struct Refusal {
  int code = 0;
  std::string said;
};

Refusal refused(const std::filesystem::path& out, std::vector<std::string> args) {
  args.insert(args.begin(), {"--screenshot", out.string(), "--size", "320x200"});
  testing::internal::CaptureStderr();
  Refusal r;
  r.code = test::run_screenshot(std::move(args));
  r.said = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(std::filesystem::exists(out)) << "nothing is written for a request that fails";
  return r;
}

bool says(const Refusal& r, const std::string& words) { return r.said.find(words) != std::string::npos; }

// The worker as kernelscope-cli answers on a machine without a GPU ($KS_WORKER, as the app finds it), so that
// these behave alike on the GPU machine.
class NoGpuWorker {
 public:
  NoGpuWorker()
      : fake_(R"(echo '{"hello":{"ok":false,"device":"","arch":"","message":"there is no CUDA device here"}}')") {
    ::setenv("KS_WORKER", fake_.path().c_str(), 1);
  }
  ~NoGpuWorker() { ::unsetenv("KS_WORKER"); }

 private:
  test::FakeWorker fake_;
};

TEST(ScreenshotUserKernel, ItsOptionsGoWithKernelFile) {
  test::TempDir dir;
  const auto out = dir / "shot.png";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--show-difference"}, {"--compare", "box:naive"}, {"--kernel-param", "strength=0.5"}}) {
    const Refusal r = refused(out, args);
    EXPECT_EQ(r.code, 2) << args[0];
    EXPECT_TRUE(says(r, args[0] + " goes with --kernel-file")) << r.said;
  }
}

TEST(ScreenshotUserKernel, TheCpuBackendIsRefusedSinceYourKernelRunsOnTheGpu) {
  test::TempDir dir;
  const Refusal r = refused(dir / "shot.png", {"--kernel-file", kTemplates + "smooth3x3.cu", "--backend", "cpu"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, "--kernel-file runs your kernel on the GPU, and --backend cpu says not to use CUDA")) << r.said;
  EXPECT_TRUE(says(r, "drop --backend cpu")) << r.said;
}

TEST(ScreenshotUserKernel, ACompareNamingNoVariantOrAnotherKernelThanKernelIsRefused) {
  test::TempDir dir;
  const auto out = dir / "shot.png";
  const std::string kernel = kTemplates + "smooth3x3.cu";
  Refusal r = refused(out, {"--kernel-file", kernel, "--compare", "box:fastest"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, "box has no variant 'fastest'")) << r.said;
  EXPECT_TRUE(says(r, "naive")) << "the message names the variants box has: " << r.said;
  r = refused(out, {"--kernel-file", kernel, "--kernel", "gaussian", "--compare", "box"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, "--kernel gaussian and --compare box name two kernels")) << r.said;
  r = refused(out, {"--kernel-file", kernel, "--compare", "nosuchkernel"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, "nosuchkernel")) << r.said;
}

TEST(ScreenshotUserKernel, AFileThatCannotBeReadIsARuntimeFailure) {
  test::TempDir dir;
  const Refusal r = refused(dir / "shot.png", {"--kernel-file", (dir / "missing.cu").string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(says(r, "cannot read " + (dir / "missing.cu").string())) << r.said;
}

TEST(ScreenshotUserKernel, AKernelThatDoesNotCompileIsRefusedWithTheErrorAtItsOwnLine) {
  KS_REQUIRE_NVRTC();
  test::TempDir dir;
  // The smoothing template with a name it never declares on its line 16 (`const float mean = sum / 9.f;`).
  std::string source = test::kernel_template("smooth3x3.cu");
  const std::string line16 = "const float mean = sum / 9.f;";
  ASSERT_NE(source.find(line16), std::string::npos);
  source.replace(source.find(line16), line16.size(), "const float mean = sum / count;");
  const auto file = dir / "smooth.cu";
  std::ofstream(file) << source;
  const Refusal r = refused(dir / "shot.png", {"--kernel-file", file.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, file.string() + " does not compile (1 error)")) << r.said;
  EXPECT_TRUE(says(r, file.string() + ":16: error: identifier \"count\" is undefined")) << r.said;
}

TEST(ScreenshotUserKernel, WithoutAGpuRunningItEndsInTheWordsTheAppShows) {
  KS_REQUIRE_NVRTC();
  NoGpuWorker worker;
  test::TempDir dir;
  // box:naive is a CUDA variant: without a GPU the refusal is still the one of your kernel, not of the backend.
  const Refusal r = refused(dir / "shot.png", {"--kernel-file", kTemplates + "smooth3x3.cu", "--compare", "box:naive",
                                               "--show-difference"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(says(r, "cannot run your kernel: there is no CUDA device here")) << r.said;
  EXPECT_TRUE(says(r, "running your own kernel needs an NVIDIA GPU")) << r.said;
}

TEST(ScreenshotUserKernel, WithoutAGpuArrayAndStepKernelsEndInTheWordsTheAppShowsToo) {
  KS_REQUIRE_NVRTC();
  NoGpuWorker worker;
  test::TempDir dir;
  for (const char* file : {"vecadd.cu", "life_step.cu"}) {
    const Refusal r = refused(dir / "shot.png", {"--kernel-file", kTemplates + file});
    EXPECT_EQ(r.code, 1) << file;
    EXPECT_TRUE(says(r, "cannot run your kernel: there is no CUDA device here")) << file << ": " << r.said;
    EXPECT_TRUE(says(r, "running your own kernel needs an NVIDIA GPU")) << file << ": " << r.said;
  }
}

TEST(ScreenshotUserKernel, AReferenceTheKernelDoesNotFitIsRefusedNamingOneItFits) {
  KS_REQUIRE_NVRTC();
  NoGpuWorker worker;  // on the GPU machine too, the refusal comes before any run
  test::TempDir dir;
  Refusal r = refused(dir / "shot.png", {"--kernel-file", kTemplates + "life_step.cu", "--compare", "heat"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, "heat keeps f32 cells, and your kernel keeps u8 cells. check it against life")) << r.said;
  r = refused(dir / "shot.png", {"--kernel-file", kTemplates + "vecadd.cu", "--compare", "reduce"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, "reduce takes 1 input array (x), your kernel 2")) << r.said;
  EXPECT_TRUE(says(r, "vecadd and saxpy fit your kernel")) << r.said;
}

TEST(ScreenshotUserKernel, AnArrayKernelHasNoDifferencePicture) {
  KS_REQUIRE_NVRTC();
  test::TempDir dir;
  const Refusal r = refused(dir / "shot.png", {"--kernel-file", kTemplates + "vecadd.cu", "--show-difference"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, "vecadd.cu is an array kernel: the Lab shows its check in words")) << r.said;
}

TEST(ScreenshotUserKernel, AStencilKernelIsNotCheckedAgainstASimulation) {
  KS_REQUIRE_NVRTC();
  NoGpuWorker worker;  // on the GPU machine too, the refusal comes before any run
  test::TempDir dir;
  const Refusal r = refused(dir / "shot.png", {"--kernel-file", kTemplates + "smooth3x3.cu", "--compare", "life"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, "smooth3x3.cu is a stencil kernel, and life is not an image stencil")) << r.said;
}

TEST(ScreenshotUserKernel, AParameterItDoesNotDeclareIsRefused) {
  KS_REQUIRE_NVRTC();
  test::TempDir dir;
  const Refusal r = refused(dir / "shot.png", {"--kernel-file", kTemplates + "smooth3x3.cu", "--kernel-param",
                                               "sharpness=2"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(says(r, "your kernel has no parameter `sharpness`")) << r.said;
  EXPECT_TRUE(says(r, "strength")) << "the message names the declared ones: " << r.said;
}

}  // namespace
}  // namespace ks
#endif
