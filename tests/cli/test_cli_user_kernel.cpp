// `run`, `lab` and `sim --kernel-file`: a user's own kernel from the command line. Without a GPU the compile
// path still answers (errors at the file's lines, bad parameters: exit 2) and running says it needs one (exit 1,
// nothing written); with a GPU the kernels run in the worker, results are checked against values computed here
// (a fault or an endless loop: tests/gpu_faults).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "io/npy.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_sources.hpp"

namespace ks::test {
namespace {

const std::filesystem::path kTemplates = std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels";

void copy_template(const TempDir& dir, const char* name) {
  std::filesystem::copy_file(kTemplates / name, dir / name);
}

TEST(CliUserKernel, AKernelThatDoesNotCompileOrABadParameterIsExitTwoWithNothingWritten) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  write_file(dir / "broken.cu",
             "// @family stencil\n"
             "__global__ void k(ks::InImage<float> in, ks::OutImage<float> out) {\n"
             "  out.set(0, 0, 0, undeclared);\n"
             "}\n");
  CliResult r = run_cli({"run", "--kernel-file", "broken.cu", "-i", "sample", "-o", "out.png"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("broken.cu:3: error: identifier \"undeclared\" is undefined"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));

  copy_template(dir, "smooth3x3.cu");
  r = run_cli({"run", "--kernel-file", "smooth3x3.cu", "-i", "sample", "-o", "out.png", "-p", "strength=3"},
              dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("`strength` = 3 is outside its declared range [0, 1]"), std::string::npos) << r.err;
  r = run_cli({"run", "box", "--kernel-file", "smooth3x3.cu", "-i", "sample", "-o", "out.png"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_cli({"run", "--kernel-file", "smooth3x3.cu", "-i", "sample", "-o", "out.png", "--block", "64x32"},
              dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("2048 threads; a CUDA block has at most 1024"), std::string::npos) << r.err;
  copy_template(dir, "vecadd.cu");
  r = run_cli({"sim", "--kernel-file", "vecadd.cu", "--steps", "3"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("declares the family array"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
}

TEST(CliUserKernel, TheSmoothingTemplateRunsOnTheGpuOrSaysItNeedsOne) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  copy_template(dir, "smooth3x3.cu");
  const CliResult r = run_cli({"run", "--kernel-file", "smooth3x3.cu", "-i", "sample", "-o", "out.png", "--json",
                               "run.json", "-p", "strength=0.5", "-p", "border=wrap"},
                              dir.path());
  if (!gpu_available()) {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("needs an NVIDIA GPU"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
    EXPECT_FALSE(std::filesystem::exists(dir / "run.json"));
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "out.png"));
  EXPECT_NE(r.out.find("variant yours"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "run.json"));
  EXPECT_EQ(j["variant"], "yours");
  EXPECT_EQ(j["backend"], "cuda");
  EXPECT_EQ(j["timings_ms"]["kernel"]["count"], 5);
  EXPECT_GT(j["timings_ms"]["kernel"]["median"].get<double>(), 0);
  EXPECT_EQ(j["user_kernel"]["entry"], "smooth3x3");
  EXPECT_EQ(j["params"]["strength"], "0.5");
  EXPECT_EQ(j["params"]["border"], "wrap");
}

// --counters with --kernel-file is no longer refused: the worker reads them (with a GPU:
// tests/gpu/test_cli_user_counters_cuda.cpp); without one, the run says it needs a GPU as any run of yours does.
TEST(CliUserKernel, CountersOfYourKernelAreAskedOfTheWorkerNotRefused) {
  KS_REQUIRE_CLI_NVRTC();
  if (gpu_available()) GTEST_SKIP() << "with a GPU: tests/gpu/test_cli_user_counters_cuda.cpp";
  TempDir dir;
  copy_template(dir, "smooth3x3.cu");
  copy_template(dir, "vecadd.cu");
  copy_template(dir, "life_step.cu");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--kernel-file", "smooth3x3.cu", "-i", "sample", "-o", "out.png"},
        std::vector<std::string>{"lab", "--kernel-file", "vecadd.cu", "--size", "1001"},
        std::vector<std::string>{"sim", "--kernel-file", "life_step.cu", "--steps", "3", "--size", "33x17"}}) {
    std::vector<std::string> with_counters = args;
    with_counters.push_back("--counters");
    const CliResult r = run_cli(with_counters, dir.path());
    SCOPED_TRACE(args[0]);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("needs an NVIDIA GPU"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
}

TEST(CliUserKernel, VecaddFromNpyInputsAndLifeStepsRunOrSayTheyNeedAGpu) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  copy_template(dir, "vecadd.cu");
  copy_template(dir, "life_step.cu");
  NdArray a, b;
  a.type = b.type = DType::F32;
  a.shape = b.shape = {1001};
  a.data.resize(1001 * 4);
  b.data.resize(1001 * 4);
  for (int i = 0; i < 1001; ++i) {
    a.as<float>()[static_cast<std::size_t>(i)] = static_cast<float>(i);
    b.as<float>()[static_cast<std::size_t>(i)] = 0.5f * static_cast<float>(i % 7);
  }
  write_npy(dir / "a.npy", a);
  write_npy(dir / "b.npy", b);
  const CliResult lab = run_cli({"lab", "--kernel-file", "vecadd.cu", "--in", "in1=a.npy", "--in", "in2=b.npy",
                                 "-p", "scale=-2", "--block", "96", "--out", "out=out.npy", "--json", "lab.json"},
                                dir.path());
  const CliResult sim = run_cli({"sim", "--kernel-file", "life_step.cu", "--steps", "7", "--size", "33x17", "-o",
                                 "life.png", "--json", "sim.json"},
                                dir.path());
  if (!gpu_available()) {
    for (const CliResult* r : {&lab, &sim}) {
      EXPECT_EQ(r->exit_code, 1) << r->err;
      EXPECT_NE(r->err.find("needs an NVIDIA GPU"), std::string::npos) << r->err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "out.npy"));
    EXPECT_FALSE(std::filesystem::exists(dir / "life.png"));
    return;
  }
  ASSERT_EQ(lab.exit_code, 0) << lab.err;
  NdArray out = read_npy(dir / "out.npy");
  ASSERT_EQ(out.count(), 1001);
  int wrong = 0;
  for (std::size_t i = 0; i < 1001; ++i) wrong += out.as<float>()[i] != a.as<float>()[i] - 2.f * b.as<float>()[i];
  EXPECT_EQ(wrong, 0);
  const auto lj = nlohmann::json::parse(read_file(dir / "lab.json"));
  EXPECT_EQ(lj["n"], 1001);
  EXPECT_EQ(lj["grid"], 11);  // ceil(1001 / 96)
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "life.png"));
  const auto sj = nlohmann::json::parse(read_file(dir / "sim.json"));
  EXPECT_EQ(sj["timings_ms"]["step"]["count"], 7);
}

}  // namespace
}  // namespace ks::test

namespace ks::test {
namespace {

TEST(CliUserKernel, CompareWithABuiltInMatchesOrSaysWhereItDiffersWithAHeatmap) {
  KS_REQUIRE_CLI_NVRTC();
  KS_REQUIRE_GPU();
  TempDir dir;
  write_file(dir / "smooth_u8.cu", kSmoothU8WithBias);
  CliResult r = run_cli({"run", "--kernel-file", "smooth_u8.cu", "-i", "sample", "-o", "out.png", "--type", "u8",
                         "--compare", "box:cpu", "--compare-param", "radius=1", "-p", "border=replicate", "--json",
                         "r.json"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("check against box:cpu: matches"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  EXPECT_EQ(j["comparison"]["matches"], true);
  EXPECT_EQ(j["comparison"]["reference"], "box:cpu");

  r = run_cli({"run", "--kernel-file", "smooth_u8.cu", "-i", "sample", "-o", "out.png", "--compare", "box:naive",
               "--compare-param", "radius=1", "-p", "bias=2", "--diff", "diff.png", "--json", "r.json"},
              dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;  // differs: a failure of the kernel, the files still written
  EXPECT_NE(r.out.find("check against box:naive: differs"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "diff.png"));
  j = nlohmann::json::parse(read_file(dir / "r.json"));
  EXPECT_EQ(j["comparison"]["matches"], false);
  EXPECT_LE(j["comparison"]["max_abs_diff"].get<double>(), 2);
  EXPECT_GT(j["comparison"]["differing"].get<double>(), 0);

  r = run_cli({"run", "--kernel-file", "smooth_u8.cu", "-i", "sample", "-o", "out.png", "--compare", "box:shiny"},
              dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("box has no variant `shiny`"), std::string::npos) << r.err;
}

TEST(CliUserKernel, CheckedModeNamesTheFirstAccessOutsideTheImageAndWritesNothing) {
  KS_REQUIRE_CLI_NVRTC();
  KS_REQUIRE_GPU();
  TempDir dir;
  // One column too far, above the last row: without checks that writes into the next row (no fault, only a wrong
  // image); the last row is left alone, as its extra pixel would lie past the buffer and fault.
  write_file(dir / "shift.cu",
             "// @family stencil\n"
             "__global__ void shift(ks::InImage<float> in, ks::OutImage<float> out) {\n"
             "  const int x = ks::global_x(), y = ks::global_y();\n"
             "  if (!out.contains(x, y)) return;\n"
             "  if (y < out.height - 1) out.set(x + 1, y, 0, in.at(x, y));\n"
             "}\n");
  CliResult r = run_cli({"run", "--kernel-file", "shift.cu", "-i", "sample", "-o", "out.png"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::filesystem::remove(dir / "out.png");
  r = run_cli({"run", "--kernel-file", "shift.cu", "-i", "sample", "-o", "out.png", "--checked"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("went outside its images"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("out.set("), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
}

}  // namespace
}  // namespace ks::test
