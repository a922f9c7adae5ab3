// The kernel editor in the real app under Xvfb, through its --script runner: Kernel > Edit kernel... opens the
// smoothing template, compiled (facts, occupancy on the H100 model without a GPU, the declared parameter); a .cu
// dropped on the window opens in the editor with its errors at their lines; a bad file is refused with the text
// kept; closing with changes asks first; `--edit-kernel FILE` opens FILE at start; the menus hold the entries.
#include <cstdio>
#include <fstream>

#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

TEST_F(GuiApp, EditKernelOpensTheSmoothingTemplateCompiled) {
  const AppRun run = run_script("menu Kernel/Edit kernel...\neditor print\nprint-menus\nquit\n", {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string state = line_starting(run.out, "editor name=");
  EXPECT_NE(state.find("name=smooth3x3.cu file=none modified=no visible=yes errors=0"), std::string::npos) << state;
  EXPECT_NE(state.find("status=Compiles for sm_90: smooth3x3, stencil family"), std::string::npos) << state;
  const std::string registers = line_starting(run.out, "editor fact registers / thread=");
  EXPECT_FALSE(registers.empty()) << run.out;
  EXPECT_NE(line_starting(run.out, "editor occupancy ").find("% occupancy, limited by"), std::string::npos) << run.out;
  EXPECT_EQ(line_starting(run.out, "editor param "), "editor param strength float [0, 1] = 1");
  EXPECT_EQ(line_starting(run.out, "editor run ").rfind("editor run enabled Run the kernel on the image instead", 0), 0u)
      << line_starting(run.out, "editor run ");
  for (const char* entry : {"menu File/New kernel/3x3 smoothing (stencil) - smooth3x3.cu",
                            "menu File/New kernel/Vector add (array) - vecadd.cu", "menu File/Open kernel...",
                            "menu File/Save kernel", "menu File/Save kernel as...", "menu Kernel/Edit kernel...",
                            "menu Kernel/Undo [Ctrl+Z]", "menu Kernel/Find... [Ctrl+F]", "menu Kernel/Find next [F3]"})
    EXPECT_NE(run.out.find(entry), std::string::npos) << entry << "\n" << run.out;
}

TEST_F(GuiApp, ADroppedKernelOpensInTheEditorWithItsErrorsAndABadFileIsRefused) {
  const auto kernel = path("broken.cu");
  std::ofstream(kernel) << "// @family array\n"
                           "__global__ void k(const float* a, float* out, int n) {\n"
                           "  out[0] = a[0] + nothing;\n"
                           "}\n";
  const auto empty = path("empty.cu");
  std::ofstream(empty) << "";
  const AppRun run = run_script("drop " + kernel.string() + "\neditor print\neditor click-problem 1\n"
                                "editor open " + empty.string() + "\nexpect-error\neditor print\nprint-menus\nquit\n",
                                {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::vector<std::string> states = lines_starting(run.out, "editor name=");
  ASSERT_EQ(states.size(), 2u) << run.out;
  EXPECT_NE(states[0].find("name=broken.cu file=" + kernel.string()), std::string::npos) << states[0];
  EXPECT_NE(states[0].find("errors=1"), std::string::npos) << states[0];
  EXPECT_EQ(line_starting(run.out, "editor marker "), "editor marker 3 error");
  EXPECT_NE(line_starting(run.out, "editor problem ").find("editor problem error 3:19 identifier \"nothing\""),
            std::string::npos)
      << run.out;
  const std::string error = line_starting(run.out, "expected error: ");
  EXPECT_NE(error.find("Open kernel"), std::string::npos) << error;
  EXPECT_NE(error.find("empty"), std::string::npos) << error;
  // The refused file left the dropped one in the editor, the cursor where the click put it.
  EXPECT_NE(states[1].find("name=broken.cu"), std::string::npos) << states[1];
  EXPECT_NE(states[1].find("cursor=3:19"), std::string::npos) << states[1];
  // The dropped file is a recent kernel; the refused one is not.
  EXPECT_NE(run.out.find("menu File/Open recent kernel/" + kernel.string()), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("menu File/Open recent kernel/" + empty.string()), std::string::npos) << run.out;
}

TEST_F(GuiApp, ClosingWithChangesAsksAndEditKernelOpensAFileAtStart) {
  const auto kernel = path("mine.cu");
  std::ofstream(kernel) << "__global__ void k(float* out) { out[0] = 1.f; }\n";
  const AppRun run = run_script("editor go-to 1 1\neditor type // changed\\n\neditor print\neditor answer save\nquit\n",
                                {"--backend", "cpu", "--edit-kernel", kernel.string()});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_NE(line_starting(run.out, "editor name=").find("name=mine.cu file=" + kernel.string() + " modified=yes"),
            std::string::npos)
      << run.out;
  std::ifstream saved(kernel);
  const std::string text((std::istreambuf_iterator<char>(saved)), {});
  EXPECT_EQ(text, "// changed\n__global__ void k(float* out) { out[0] = 1.f; }\n") << "Save was the answer";
}

// A classroom projector's 1024x700 screen: the editor opens beside the image, not over it, and leaves the viewport
// (with its sidebar) more than half of the window.
class GuiAppEditorSmallScreen : public GuiApp {
 protected:
  std::pair<int, int> screen_size() const override { return {1024, 700}; }
};

TEST_F(GuiAppEditorSmallScreen, TheEditorOpensBesideTheViewportAndLeavesItMoreThanHalf) {
  const AppRun run = run_script("editor show\neditor print\nprint-status\nquit\n", {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string layout = line_starting(run.out, "editor layout ");
  int window_w = 0, window_h = 0, dock_w = 0, dock_h = 0, view_w = 0, view_h = 0;
  char floating[8] = {};
  ASSERT_EQ(std::sscanf(layout.c_str(), "editor layout window=%dx%d dock=%dx%d floating=%7s viewport=%dx%d", &window_w,
                        &window_h, &dock_w, &dock_h, floating, &view_w, &view_h),
            7)
      << layout;
  EXPECT_LE(window_w, 1024);
  EXPECT_LE(window_h, 700);
  EXPECT_STREQ(floating, "no");
  EXPECT_GE(dock_w, 300) << "room for code";
  EXPECT_GT(view_w, window_w / 2) << layout;
  EXPECT_GE(dock_w + view_w, window_w - 16) << "side by side: " << layout;
  EXPECT_NE(line_starting(run.out, "status ").find("panels=on"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace ks::test
