// Playing a playlist on a session on the CPU backend: each step leaves the session where steps 1..k together
// put it, going back included; CUDA variants fall back to the CPU with a note; a bad step reports and the
// next still applies.
#include <gtest/gtest.h>

#include "cpu/session_support.hpp"
#include "session/playlist/playlist.hpp"
#include "session/playlist/playlist_player.hpp"
#include "session/session.hpp"

namespace ks::app {
namespace {

using session_test::cpu_options;

Playlist parse(const std::string& steps) {
  return parse_playlist(R"({"schema": "kernelscope.playlist/1", "title": "T", "steps": )" + steps + "}", ".",
                        "test.json");
}

std::string param(const Session& s, const std::string& name) {
  for (const auto& [n, v] : s.params().as_text())
    if (n == name) return v;
  return {};
}

bool any_note_says(const PlaylistPlayer& p, const std::string& what) {
  for (const std::string& n : p.notes())
    if (n.find(what) != std::string::npos) return true;
  return false;
}

TEST(SessionPlaylist, StepsForwardAndBackAsTheStepsTogetherSay) {
  Session s(cpu_options());
  PlaylistPlayer player(parse(R"([
    {"open": "sample", "kernel": "box", "params": {"radius": 4}, "split": true, "caption": "one"},
    {"params": {"radius": 9}, "colormap": "magma"},
    {"kernel": "gaussian", "params": {"sigma": 3}, "type": "f32"}
  ])"));
  PlaylistViewChange view = player.go_to(s, 0);
  s.wait_idle();
  EXPECT_EQ(player.current(), 0);
  EXPECT_TRUE(s.has_input());
  EXPECT_EQ(s.kernel().id, "box");
  EXPECT_EQ(param(s, "radius"), "4");
  EXPECT_EQ(view.split, true);
  EXPECT_FALSE(view.colormap);
  EXPECT_TRUE(player.notes().empty());
  ASSERT_TRUE(s.has_output());

  ASSERT_TRUE(player.next(s, &view));
  EXPECT_EQ(param(s, "radius"), "9");
  EXPECT_EQ(view.colormap, "magma");
  EXPECT_EQ(view.split, true);  // still, from step 1
  ASSERT_TRUE(player.next(s, &view));
  EXPECT_EQ(s.kernel().id, "gaussian");
  EXPECT_EQ(param(s, "sigma"), "3");
  EXPECT_EQ(s.element_type(), ElemType::F32);
  EXPECT_FALSE(player.next(s, &view));  // the last step
  EXPECT_EQ(player.current(), 2);

  ASSERT_TRUE(player.previous(s, &view));
  EXPECT_EQ(s.kernel().id, "box");
  EXPECT_EQ(param(s, "radius"), "9");
  ASSERT_TRUE(player.previous(s, &view));
  EXPECT_EQ(param(s, "radius"), "4");  // what the audience saw at step 1
  EXPECT_FALSE(view.colormap);
  EXPECT_FALSE(player.previous(s, &view));
  s.wait_idle();
  EXPECT_FALSE(s.last_error());
}

TEST(SessionPlaylist, CudaVariantsFallBackToTheCpuWithANote) {
  Session s(cpu_options());
  PlaylistPlayer player(parse(R"([
    {"open": "sample", "kernel": "box", "variant": "tiled", "block": "16x16"},
    {"backend": "cuda"}
  ])"));
  player.go_to(s, 0);
  s.wait_idle();
  EXPECT_EQ(s.backend(), Backend::Cpu);
  EXPECT_TRUE(any_note_says(player, "the CPU backend shows this step; on a GPU it runs the 'tiled' variant"));
  EXPECT_TRUE(any_note_says(player, "the CPU backend ignores it"));
  EXPECT_TRUE(s.has_output());  // the show goes on
  player.next(s, nullptr);
  EXPECT_TRUE(any_note_says(player, "backend cuda: the CUDA backend is not available"));
  EXPECT_EQ(s.backend(), Backend::Cpu);
}

TEST(SessionPlaylist, ABadStepReportsAndTheNextStillApplies) {
  Session s(cpu_options());
  PlaylistPlayer player(parse(R"([
    {"open": "sample", "kernel": "box", "params": {"radius": 2}},
    {"params": {"radius": 500}, "caption": "too wide"},
    {"params": {"radius": 6}}
  ])"));
  player.go_to(s, 0);
  player.next(s, nullptr);
  ASSERT_EQ(player.notes().size(), 1u);
  EXPECT_NE(player.notes()[0].find("step 2 (\"too wide\"): "), std::string::npos) << player.notes()[0];
  EXPECT_EQ(param(s, "radius"), "2");  // the bad step applied nothing
  player.next(s, nullptr);
  EXPECT_TRUE(player.notes().empty());
  EXPECT_EQ(param(s, "radius"), "6");
  s.wait_idle();
  EXPECT_TRUE(s.has_output());
}

TEST(SessionPlaylist, LifePatternPlaysAndStepsRun) {
  Session s(cpu_options());
  PlaylistPlayer player(parse(R"([
    {"pattern": "gosper-gun", "play": false, "grid": "120x80"},
    {"variant": "bitpacked"},
    {"steps": 30}
  ])"));
  player.go_to(s, 0);
  s.run_now();
  s.wait_idle();
  EXPECT_EQ(s.kernel().id, "life");
  EXPECT_FALSE(s.simulation().playing());
  EXPECT_EQ(s.simulation().frame().shape().width, 120);
  EXPECT_EQ(s.simulation().frame().shape().height, 80);
  player.next(s, nullptr);
  EXPECT_TRUE(any_note_says(player, "'bitpacked'"));
  player.next(s, nullptr);
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 30);
  EXPECT_TRUE(s.simulation().stats().population.has_value());
}

// The shipped playlists run from end to end on the CPU backend with nothing but fallback notes.
TEST(SessionPlaylist, TheDemoPlaylistsRunOnTheCpu) {
  for (const std::string& name : demo_playlist_names()) {
    Session s(cpu_options());
    PlaylistPlayer player(load_playlist_or_demo(name));
    for (int i = 0; i < player.step_count(); ++i) {
      player.go_to(s, i);
      for (const std::string& note : player.notes())
        EXPECT_TRUE(note.starts_with("No CUDA here") || note.starts_with("The block"))
            << name << ": " << note;
      s.wait_idle();
      EXPECT_FALSE(s.last_error()) << name << " step " << i + 1 << ": " << s.last_error()->full_message();
      if (s.simulating()) s.simulation().set_playing(false);  // wait_idle does not wait for a playing one
    }
  }
}

}  // namespace
}  // namespace ks::app

namespace ks::app {
namespace {

TEST(SessionPlaylist, AUserKernelStepWithoutAGpuLeavesTheBuiltInWithANote) {
  Session s(cpu_options());
  const Playlist p = parse_playlist(
      R"({"schema": "kernelscope.playlist/1", "title": "T", "steps": [
        {"open": "sample", "kernel": "box"},
        {"kernel_file": "assets/kernels/smooth3x3.cu", "caption": "the smoothing we wrote together"}]})",
      KS_SOURCE_DIR, "test.json");
  ASSERT_EQ(p.error_count(), 0) << p.steps[1].error;
  PlaylistPlayer player(p);
  player.go_to(s, 1);
  s.wait_idle();
  EXPECT_TRUE(any_note_says(player, "No CUDA here: on a GPU this step runs smooth3x3.cu instead of the built-in"));
  EXPECT_FALSE(s.stencil().user_kernel());
  EXPECT_TRUE(s.has_output());  // the built-in shows
}

}  // namespace
}  // namespace ks::app

namespace ks::app {
namespace {

// Without a GPU an array or step kernel of the user's is not run: the step says what it would run, the built-in
// lab kernel / simulation shows; a later step choosing a kernel of another kind ends the user's kernel (no note
// there any more), and going back to its step names it again.
TEST(SessionPlaylist, ArrayAndStepKernelStepsWithoutAGpuLeaveTheBuiltInsWithANoteUntilAnotherKindIsChosen) {
  Session s(cpu_options());
  const Playlist p = parse_playlist(
      R"({"schema": "kernelscope.playlist/1", "title": "T", "steps": [
        {"kernel": "vecadd", "kernel_file": "assets/kernels/vecadd.cu", "kernel_params": {"scale": 2}},
        {"kernel": "saxpy"},
        {"kernel": "life", "kernel_file": "assets/kernels/life_step.cu", "play": false},
        {"open": "sample", "kernel": "box"}]})",
      KS_SOURCE_DIR, "test.json");
  ASSERT_EQ(p.error_count(), 0) << p.steps[0].error << p.steps[2].error;
  PlaylistPlayer player(p);
  player.go_to(s, 0);
  s.wait_idle();
  EXPECT_TRUE(any_note_says(player, "No CUDA here: on a GPU this step runs vecadd.cu instead of the built-in"));
  EXPECT_EQ(s.kernel().id, "vecadd");
  EXPECT_FALSE(s.user_array_kernel());
  player.go_to(s, 1);  // saxpy is a lab kernel too: still vecadd.cu
  s.wait_idle();
  EXPECT_TRUE(any_note_says(player, "this step runs vecadd.cu"));
  player.go_to(s, 2);
  s.wait_idle();
  EXPECT_TRUE(any_note_says(player, "this step runs life_step.cu"));
  EXPECT_TRUE(s.simulating());
  EXPECT_FALSE(s.simulation().user_step());
  player.go_to(s, 3);  // box: an image kernel, which a step kernel does not fit
  s.wait_idle();
  EXPECT_TRUE(player.notes().empty()) << player.notes()[0];
  EXPECT_TRUE(s.has_output());
  player.go_to(s, 1);
  EXPECT_TRUE(any_note_says(player, "this step runs vecadd.cu"));
  EXPECT_EQ(s.kernel().id, "saxpy");
}

TEST(SessionPlaylist, SectionsOfAStepHoldUntilAnotherStepNamesThem) {
  Session s(session_test::cpu_options());
  PlaylistPlayer player(parse(R"([
    {"open": "sample", "kernel": "box", "caption": "no sections named"},
    {"variant": "cpu", "sections": ["kernel", "why"]},
    {"params": {"radius": 3}},
    {"sections": ["timing"]}
  ])"));
  EXPECT_FALSE(player.go_to(s, 0).sections);
  EXPECT_EQ(player.go_to(s, 1).sections, (std::vector<std::string>{"kernel", "why"}));
  EXPECT_EQ(player.go_to(s, 2).sections, (std::vector<std::string>{"kernel", "why"}));
  EXPECT_EQ(player.go_to(s, 3).sections, (std::vector<std::string>{"timing"}));
  EXPECT_EQ(player.go_to(s, 1).sections, (std::vector<std::string>{"kernel", "why"})) << "going back";
  s.wait_idle();
}

}  // namespace
}  // namespace ks::app
