// `lab --kernel-file FILE.cu --compare KERNEL[:VARIANT]`: a user's array kernel on a lab kernel's inputs, checked
// against it. Without a GPU every usage error still answers (exit 2, nothing written): a kernel that is not a lab
// kernel, one that does not fit (naming the ones that do), a bad variant, a size past the lab kernel's limits, a
// .npy of another type, the tolerances without --compare. With a GPU (skipped without one) a right vecadd and
// reduce match and wrong ones differ where they are wrong (exit 1, the JSON's comparison says where), at sizes
// that are no multiple of the block.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "io/npy.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_compiled.hpp"
#include "support/user_kernel_sources.hpp"

namespace ks::test {
namespace {

NdArray npy_of(DType type, std::int64_t n, double value) {
  NdArray a;
  a.type = type;
  a.shape = {n};
  a.data.resize(std::size_t(n) * dtype_size(type));
  for (std::int64_t i = 0; i < n; ++i) {
    if (type == DType::F64) a.as<double>()[std::size_t(i)] = value;
    else a.as<float>()[std::size_t(i)] = float(value);
  }
  return a;
}

TEST(CliUserArrayCompare, UsageErrorsAreExitTwoBeforeAnythingRuns) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  write_file(dir / "add.cu", kVecaddRight);
  write_file(dir / "sum.cu", kernel_template("reduce_sum.cu"));
  struct Case {
    std::vector<std::string> args;
    const char* words;
  };
  write_npy(dir / "wide.npy", npy_of(DType::F64, 100, 1));
  const Case cases[] = {
      {{"lab", "--kernel-file", "add.cu", "--compare", "box"},
       "--compare box: an array kernel of yours is checked against a lab kernel, and box is a stencil kernel. lab "
       "kernels that fit yours: vecadd, saxpy"},
      {{"lab", "--kernel-file", "add.cu", "--compare", "matmul"},
       "matmul takes matrices (MxNxK), not arrays of n elements; of the lab kernels, vecadd and saxpy fit your "
       "kernel (2 float inputs to an array of n)"},
      {{"lab", "--kernel-file", "sum.cu", "--compare", "vecadd"},
       "vecadd takes 2 input arrays (a, b), your kernel 1; of the lab kernels, reduce fits your kernel (1 float "
       "input to a scalar)"},
      {{"lab", "--kernel-file", "sum.cu", "--compare", "integrate2d"}, "integrate2d takes an NxM grid"},
      {{"lab", "--kernel-file", "add.cu", "--compare", "vecadd:shiny"}, "vecadd has no variant `shiny`"},
      {{"lab", "--kernel-file", "add.cu", "--compare", "saxpy", "--compare-param", "beta=2"}, "beta"},
      {{"lab", "--kernel-file", "add.cu", "--abs-tol", "1"},
       "--compare-param, --abs-tol and --rel-tol go with --compare KERNEL[:VARIANT]"},
      {{"lab", "vecadd", "--compare", "vecadd"}, "go with --kernel-file (your own kernel)"},
      {{"lab", "vecadd", "--kernel-file", "add.cu"}, "--compare vecadd checks your kernel against it"},
      {{"lab", "--kernel-file", "add.cu", "--compare", "vecadd", "--in", "in1=wide.npy"},
       "wide.npy holds a 1-D f64 array; in1 is vecadd's `a`, a 1-D f32 array"},
      {{"lab", "--kernel-file", "sum.cu", "--compare", "reduce", "--size", "2^31-1"}, "reduce"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--json", "out.json"});
    const CliResult r = run_cli(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[2] << " " << r.err;
    EXPECT_NE(r.err.find(c.words), std::string::npos) << c.words << "\n" << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
  }
}

TEST(CliUserArrayCompare, VecaddMatchesAndATailThatForgetsBDiffersAtTheLastElement) {
  KS_REQUIRE_CLI_NVRTC();
  KS_REQUIRE_GPU();
  TempDir dir;
  write_file(dir / "right.cu", kVecaddRight);
  write_file(dir / "tail.cu", kVecaddForgetsTheTail);
  for (const char* n : {"1", "1023", "2^20+3"}) {
    SCOPED_TRACE(n);
    CliResult r = run_cli({"lab", "--kernel-file", "right.cu", "--compare", "vecadd", "--size", n, "--json", "r.json"},
                          dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("check against vecadd:cpu: matches"), std::string::npos) << r.out;
    auto j = nlohmann::json::parse(read_file(dir / "r.json"));
    EXPECT_EQ(j["comparison"]["matches"], true);
    EXPECT_EQ(j["comparison"]["reference"], "vecadd:cpu");
    EXPECT_EQ(j["comparison"]["inputs"], nlohmann::json::array({"a", "b"}));
    EXPECT_EQ(j["comparison"]["output"], "c");
    const std::int64_t count = j["n"].get<std::int64_t>();
    EXPECT_EQ(j["comparison"]["compared"].get<std::int64_t>(), count);

    // Against a CUDA variant too; the wrong kernel differs at n - 1 only, and that is exit 1.
    r = run_cli({"lab", "--kernel-file", "tail.cu", "--compare", "vecadd:naive", "--size", n, "--json", "r.json"},
                dir.path());
    EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
    EXPECT_NE(r.out.find("check against vecadd:naive: differs"), std::string::npos) << r.out;
    j = nlohmann::json::parse(read_file(dir / "r.json"));
    EXPECT_EQ(j["comparison"]["matches"], false);
    EXPECT_EQ(j["comparison"]["differing"], 1);
    EXPECT_EQ(j["comparison"]["first"]["index"].get<std::int64_t>(), count - 1);
  }
}

TEST(CliUserArrayCompare, AReduceOfGivenValuesMatchesExactlyAndOnePaddingWithOnesIsOffByThePadding) {
  KS_REQUIRE_CLI_NVRTC();
  KS_REQUIRE_GPU();
  TempDir dir;
  write_file(dir / "sum.cu", kernel_template("reduce_sum.cu"));
  write_file(dir / "pads.cu", kReducePadsWithOne);
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1023}, (std::int64_t{1} << 20) + 3}) {
    SCOPED_TRACE(n);
    write_npy(dir / "x.npy", npy_of(DType::F32, n, 0.5));  // sums of halves below 2^24 are exact in float
    CliResult r = run_cli({"lab", "--kernel-file", "sum.cu", "--compare", "reduce", "--in", "in1=x.npy", "--abs-tol",
                           "0", "--rel-tol", "0", "--json", "r.json"},
                          dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    auto j = nlohmann::json::parse(read_file(dir / "r.json"));
    EXPECT_EQ(j["comparison"]["matches"], true);
    EXPECT_EQ(j["comparison"]["compared"], 1);
    EXPECT_EQ(j["comparison"]["output"], "sum");
    EXPECT_EQ(std::stod(j["scalar"].get<std::string>()), 0.5 * double(n));

    r = run_cli({"lab", "--kernel-file", "pads.cu", "--compare", "reduce", "--in", "in1=x.npy", "--block", "128",
                 "--abs-tol", "0", "--rel-tol", "0", "--json", "r.json"},
                dir.path());
    const std::int64_t padding = (n + 127) / 128 * 128 - n;
    EXPECT_EQ(r.exit_code, padding ? 1 : 0) << r.err << r.out;
    j = nlohmann::json::parse(read_file(dir / "r.json"));
    EXPECT_EQ(j["comparison"]["max_abs_diff"].get<double>(), double(padding));
    EXPECT_EQ(j["comparison"]["first"]["got"].get<double>() - j["comparison"]["first"]["expected"].get<double>(),
              double(padding));
  }
}

}  // namespace
}  // namespace ks::test
