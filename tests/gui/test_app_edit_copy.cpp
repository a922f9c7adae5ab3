// The Source panel's Edit a copy in the real app under Xvfb, through its --script runner: the copy of the
// gaussian's separable variant at sigma 1.5 on u8 opens in the kernel editor untitled, named after the variant,
// with the sidebar's sigma in its taps, and compiles (no GPU needed); the CPU reference variant has no button but
// says why, and a click on a missing button is an error of the script.
#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, EditACopyOpensTheVariantAsYourKernelCompiled) {
  const AppRun run = run_script("kernel gaussian\n"
                                "param sigma=1.5\n"
                                "type u8\n"
                                "source separable\n"
                                "click-button Edit a copy\n"
                                "editor print\n"
                                "editor find __global__ void gaussian_separable(ks::InImage<unsigned char>\n"
                                "editor find kRowWeights[11] = {2, 16, 74, 224, 436, 544, 436, 224, 74, 16, 2};\n"
                                "source cpu\n"
                                "click-button Edit a copy\n"
                                "expect-error\n"
                                "quit\n",
                                {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string state = line_starting(run.out, "editor name=");
  EXPECT_NE(state.find("name=gaussian_separable.cu file=none modified=no visible=yes errors=0"), std::string::npos)
      << state;
  EXPECT_NE(state.find("status=Compiles for sm_90: gaussian_separable, stencil family"), std::string::npos) << state;
  const std::vector<std::string> found = lines_starting(run.out, "editor found ");
  ASSERT_EQ(found.size(), 2u) << run.out;
  // Found, not "no match": the entry of the u8 contract, and the 11 taps of sigma 1.5 in 11-bit fixed point
  // (exp(-i^2 / 4.5) over i = -5..5, normalised to 2048: 2, 16, 74, 224, 436, 544).
  for (const std::string& f : found) EXPECT_NE(f.find(" 1 of 1"), std::string::npos) << f;
  EXPECT_NE(line_starting(run.out, "expected error: ").find("Edit a copy"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace ks::test
