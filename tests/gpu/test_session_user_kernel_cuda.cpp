// A user's own stencil kernel in the desktop app's document (GPU machine; skipped without a device): it runs in
// the worker process instead of the chosen built-in, its result is what the display shows and the CPU reference of
// the built-in checks it, its declared parameters change the result, and the way back gives the built-in's result
// again. (A fault: tests/gpu_faults/test_session_faults_cuda.cpp.)
#include <gtest/gtest.h>

#include <cstdlib>

#include "session/session.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "stencil/stencil_plan.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_compiled.hpp"
#include "support/user_kernel_sources.hpp"

namespace ks::app {
namespace {

UserStencilChoice user_choice(const std::string& name, const char* source, std::vector<double> params) {
  return {test::compiled_kernel(name, source), name, std::move(params)};
}

void wait_for_reference(Session& s) {
  for (int i = 0; i < 600 && !s.cpu_reference(); ++i) {
    s.poll();
    s.wait_idle();
  }
}

TEST(SessionUserKernelCuda, RunsInsteadOfTheBuiltInAndIsCheckedAgainstItsCpuReference) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  s.open_sample();
  s.set_element_type(ElemType::U8);
  s.set_backend(Backend::Cuda);
  s.select_kernel("box");
  s.set_param("radius", "1");
  s.use_user_kernel(user_choice("smooth_u8.cu", test::kSmoothU8WithBias, {0}));
  s.run_now();
  ASSERT_TRUE(s.stencil().last_report());
  EXPECT_EQ(s.stencil().last_report()->variant, "yours");
  EXPECT_EQ(s.stencil().last_report()->kernel, "smooth_u8.cu");
  ASSERT_NE(s.stencil().output(), nullptr);
  wait_for_reference(s);
  ASSERT_TRUE(s.cpu_reference());
  EXPECT_TRUE(s.cpu_reference()->identical) << s.cpu_reference()->max_abs_difference;

  // The declared parameter reaches the kernel: +3 everywhere below 253.
  s.stencil().set_user_param(0, 3);
  s.run_now();
  wait_for_reference(s);
  ASSERT_TRUE(s.cpu_reference());
  EXPECT_FALSE(s.cpu_reference()->identical);
  EXPECT_EQ(s.cpu_reference()->max_abs_difference, 3);
  ASSERT_TRUE(s.stencil().user_check());
  const usercode::Comparison& c = s.stencil().user_check()->comparison;
  EXPECT_FALSE(c.matches());
  EXPECT_EQ(c.max_abs_diff, 3);
  ASSERT_TRUE(c.first);
  EXPECT_EQ(c.first->got - c.first->expected, 3);
  // The difference in place of the result, with a generation of its own; and back. The heatmap is made when it
  // is asked for: until that check is back the result stays on screen.
  const std::uint64_t plain = s.display_frame().output_generation;
  EXPECT_FALSE(s.stencil().user_check()->heatmap) << "no heatmap is made while none is shown";
  s.stencil().set_show_difference(true);
  EXPECT_EQ(s.display_frame().output_generation, plain);
  wait_for_reference(s);
  const ui::DisplayFrame diff = s.display_frame();
  ASSERT_NE(diff.output, nullptr);
  EXPECT_EQ(diff.output->channels(), 4);
  EXPECT_EQ(diff.output->width(), s.stencil().output()->width());
  EXPECT_NE(diff.output_generation, plain);
  s.stencil().set_show_difference(false);
  EXPECT_EQ(s.display_frame().output_generation, plain);
  // A tolerance of 3 lets it match, compared again without a new run.
  s.stencil().set_user_tolerance({3, 0});
  wait_for_reference(s);
  ASSERT_TRUE(s.stencil().user_check());
  EXPECT_TRUE(s.stencil().user_check()->comparison.matches()) << usercode::comparison_summary(s.stencil().user_check()->comparison);
  EXPECT_THROW(s.stencil().set_user_param(0, 11), Error);  // outside [0, 10]: refused, never clamped

  // Back to the built-in: its own variant and result again.
  s.use_user_kernel(std::nullopt);
  s.run_now();
  EXPECT_NE(s.stencil().last_report()->variant, "yours");
}

}  // namespace
}  // namespace ks::app

#include "session/playlist/playlist.hpp"
#include "session/playlist/playlist_player.hpp"

namespace ks::app {
namespace {

TEST(SessionUserKernelCuda, APlaylistStepRunsTheUsersKernelAndALaterOneGoesBack) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  const Playlist p = parse_playlist(
      R"({"schema": "kernelscope.playlist/1", "title": "T", "steps": [
        {"open": "sample", "kernel": "box", "params": {"radius": 1}, "backend": "cuda", "type": "f32"},
        {"kernel_file": "assets/kernels/smooth3x3.cu", "kernel_params": {"strength": 1}},
        {"kernel_file": null}]})",
      KS_SOURCE_DIR, "test.json");
  ASSERT_EQ(p.error_count(), 0);
  PlaylistPlayer player(p);
  player.go_to(s, 1);
  s.run_now();
  ASSERT_TRUE(s.stencil().user_kernel()) << (player.notes().empty() ? "" : player.notes()[0]);
  EXPECT_EQ(s.stencil().last_report()->variant, "yours");
  wait_for_reference(s);
  ASSERT_TRUE(s.cpu_reference());
  EXPECT_LE(s.cpu_reference()->max_abs_difference, 1e-5);  // the 3x3 mean is box radius 1
  player.go_to(s, 2);
  s.run_now();
  EXPECT_FALSE(s.stencil().user_kernel());
  EXPECT_NE(s.stencil().last_report()->variant, "yours");
  player.go_to(s, 1);  // going back puts it in place again
  s.run_now();
  EXPECT_EQ(s.stencil().last_report()->variant, "yours");
}

}  // namespace
}  // namespace ks::app

#include "session/lab/lab_document.hpp"

namespace ks::app {
namespace {

bool a_note_says(const PlaylistPlayer& player, const std::string& what) {
  for (const std::string& n : player.notes())
    if (n.find(what) != std::string::npos) return true;
  return false;
}

std::string all_notes(const PlaylistPlayer& player) {
  std::string text;
  for (const std::string& n : player.notes()) text += n + "\n";
  return text;
}

// An array kernel's step runs it in the Lab (checked against the lab kernel's CPU reference), a step kernel's
// steps the simulation (checked against the built-in's steps); a lab kernel or simulation chosen later that the
// kernel does not fit gets the refusal in words as a note, "kernel_file": null goes back, and going back to the
// kernel's step puts it in place again.
TEST(SessionUserKernelCuda, PlaylistStepsRunTheUsersArrayAndStepKernelsAndSayWhereTheyDoNotFit) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  const Playlist p = parse_playlist(
      R"({"schema": "kernelscope.playlist/1", "title": "T", "steps": [
        {"kernel": "vecadd", "backend": "cuda", "kernel_file": "assets/kernels/vecadd.cu",
         "kernel_params": {"scale": 1}},
        {"kernel": "reduce"},
        {"kernel": "life", "kernel_file": "assets/kernels/life_step.cu", "play": false},
        {"kernel": "heat"},
        {"kernel": "life", "kernel_file": null}]})",
      KS_SOURCE_DIR, "test.json");
  ASSERT_EQ(p.error_count(), 0);
  PlaylistPlayer player(p);

  player.go_to(s, 0);
  s.wait_idle();
  ASSERT_TRUE(s.user_array_kernel()) << all_notes(player);
  EXPECT_EQ(s.user_array_kernel()->file_name, "vecadd.cu");
  ASSERT_TRUE(s.lab().user_check()) << all_notes(player);
  EXPECT_TRUE(s.lab().user_check()->comparison.matches())
      << usercode::comparison_summary(s.lab().user_check()->comparison);
  EXPECT_EQ(s.lab().last_run()->report.variant, "vecadd.cu");

  player.go_to(s, 1);  // reduce takes one array to a scalar; vecadd.cu two arrays to an array
  s.wait_idle();
  EXPECT_EQ(s.kernel().id, "reduce");
  EXPECT_FALSE(s.user_array_kernel());
  EXPECT_TRUE(a_note_says(player, "kernel_file: ")) << all_notes(player);
  EXPECT_TRUE(a_note_says(player, "reduce")) << all_notes(player);

  player.go_to(s, 2);
  s.wait_idle();
  ASSERT_TRUE(s.simulation().user_step()) << all_notes(player);
  s.simulation().check_user_steps(4);
  s.wait_idle();
  ASSERT_TRUE(s.simulation().user_check());
  EXPECT_TRUE(s.simulation().user_check()->comparison.matches());

  player.go_to(s, 3);  // heat keeps f32 temperatures; life_step.cu u8 cells
  s.wait_idle();
  EXPECT_EQ(s.kernel().id, "heat");
  EXPECT_FALSE(s.simulation().user_step());
  EXPECT_TRUE(a_note_says(player, "life")) << all_notes(player);

  player.go_to(s, 4);
  s.wait_idle();
  EXPECT_EQ(s.kernel().id, "life");
  EXPECT_FALSE(s.simulation().user_step());

  player.go_to(s, 0);  // back to the first step: vecadd.cu again
  s.wait_idle();
  ASSERT_TRUE(s.user_array_kernel()) << all_notes(player);
}

}  // namespace
}  // namespace ks::app
