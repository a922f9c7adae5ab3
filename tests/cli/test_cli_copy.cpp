// `copy KERNEL`: the Source panel's Edit a copy on the command line. The copy written compiles as your own kernel
// (`compile`, no GPU) with the parameters given in its text; printed without -o; a variant with no copy, an
// unknown variant or a bad parameter exits 2 and writes nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

TEST(CliCopy, WritesACopyThatCompilesWithTheParametersGiven) {
  TempDir dir;
  CliResult r = run_cli({"copy", "gaussian", "--variant", "separable", "-p", "sigma=0.7", "--type", "u8", "-o",
                         "g.cu"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote g.cu (entry gaussian_separable, family stencil)"), std::string::npos) << r.out;
  const std::string text = read_file(dir / "g.cu");
  EXPECT_NE(text.find("sigma=0.7, radius=0"), std::string::npos);
  EXPECT_NE(text.find("constexpr int kRadiusX = 3, kRadiusY = 3;"), std::string::npos);  // ceil(3 * 0.7)
  EXPECT_NE(text.find("__global__ void gaussian_separable(ks::InImage<unsigned char> in"), std::string::npos);

  CliResult compiled = run_cli({"compile", "g.cu"}, dir.path());
  if (compiled.err.find("needs NVRTC") != std::string::npos) GTEST_SKIP() << "this build has no NVRTC";
  EXPECT_EQ(compiled.exit_code, 0) << compiled.err;
  EXPECT_NE(compiled.out.find("stencil family"), std::string::npos) << compiled.out;

  CliResult life = run_cli({"copy", "life", "-o", "life.cu"}, dir.path());
  ASSERT_EQ(life.exit_code, 0) << life.err;
  EXPECT_NE(life.out.find("family step): run it with `kernelscope-cli sim --kernel-file life.cu --steps 100`"),
            std::string::npos)
      << life.out;

  CliResult printed = run_cli({"copy", "median", "-p", "radius=2"}, dir.path());
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_NE(printed.out.find("constexpr int kRadius = 2;"), std::string::npos) << printed.out;
  EXPECT_NE(printed.out.find("ks::InImage<float> in"), std::string::npos) << printed.out;  // f32 by default
}

TEST(CliCopy, NoCopyAnUnknownVariantOrABadParameterExitTwoAndWriteNothing) {
  TempDir dir;
  CliResult cpu = run_cli({"copy", "box", "--variant", "cpu", "-o", "x.cu"}, dir.path());
  EXPECT_EQ(cpu.exit_code, 2);
  EXPECT_NE(cpu.err.find("box cpu has no copy: This variant runs on the CPU"), std::string::npos) << cpu.err;
  CliResult library = run_cli({"copy", "matmul", "--variant", "cublas", "-o", "x.cu"}, dir.path());
  EXPECT_EQ(library.exit_code, 2);
  EXPECT_NE(library.err.find("cuBLAS"), std::string::npos) << library.err;
  CliResult unknown = run_cli({"copy", "box", "--variant", "fast", "-o", "x.cu"}, dir.path());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("box has no variant `fast`"), std::string::npos) << unknown.err;
  CliResult bad = run_cli({"copy", "box", "-p", "radius=0", "-o", "x.cu"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.cu"));
}

}  // namespace
}  // namespace ks::test
