// Exports of a live simulation: the frame as the view shows it with a sidecar, a numbered PNG sequence of the
// next N steps (complete files only, cancellable, progress on the way), and an animated GIF (all or nothing).
#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/image_io.hpp"
#include "session/session.hpp"
#include "cpu/session_sim_support.hpp"
#include "support/test_support.hpp"

#if KS_HAVE_GIF
#include "support/gif_decode.hpp"
#endif

namespace ks::app {
namespace {

using namespace std::chrono_literals;

using test_sim::cpu_options;
using test_sim::start_paused;

std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Until the running export has written something (or 20 s passed).
void wait_for_progress(Session& s) {
  const auto until = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < until) {
    s.poll();
    if (s.job_status().busy && s.job_status().fraction > 0) break;
    std::this_thread::sleep_for(5ms);
  }
}

TEST(SessionSimExport, ASequenceOfNStepsWritesNCompleteNumberedFiles) {
  test::TempDir tmp;
  Session s(cpu_options());
  start_paused(s, "life", 45, 31);
  s.simulation().step(2);
  s.wait_idle();
  const auto dir = tmp / "frames";
  s.simulation().export_sequence(dir, 6);
  EXPECT_THROW(s.simulation().export_sequence(dir, 3), Error) << "one sequence at a time";
  s.wait_idle();
  EXPECT_EQ(names_in(dir), (std::vector<std::string>{"frame_00000.png", "frame_00001.png", "frame_00002.png",
                                                     "frame_00003.png", "frame_00004.png", "frame_00005.png"}))
      << "N files and no temporary left behind";
  EXPECT_EQ(s.simulation().frames_written(), 6);
  EXPECT_EQ(s.simulation().generation(), 8) << "the sequence is the next N steps";
  // The last file is the state now, through the view's colormap (gray: live cells white).
  const Image last = load_image(dir / "frame_00005.png");
  ASSERT_EQ(last.width(), 45);
  ASSERT_EQ(last.height(), 31);
  const Image state = *s.display_frame().output;
  EXPECT_TRUE(test::images_match(last, colorize(state, s.simulation().picture())));
  // Each file is one step further: the first and the last differ on a random grid.
  EXPECT_FALSE(test::images_match(load_image(dir / "frame_00000.png"), last));
  bool info = false;
  for (const auto& n : s.take_notices()) info |= n.text.find("wrote 6 frames") != std::string::npos;
  EXPECT_TRUE(info);
  EXPECT_THROW(s.simulation().export_sequence(dir, 0), Error);
}

TEST(SessionSimExport, CancellingASequenceKeepsTheCompleteFilesOnly) {
  test::TempDir tmp;
  Session s(cpu_options());
  start_paused(s, "heat", 300, 200);
  const auto dir = tmp / "many";
  s.simulation().export_sequence(dir, 100000);
  wait_for_progress(s);
  ASSERT_TRUE(s.simulation().exporting());
  EXPECT_FALSE(s.job_status().label.empty()) << "the job indicator shows the export";
  s.cancel();
  s.wait_idle();
  EXPECT_FALSE(s.simulation().exporting());
  const long long written = s.simulation().frames_written();
  EXPECT_GT(written, 0);
  EXPECT_LT(written, 100000);
  EXPECT_EQ(names_in(dir).size(), std::size_t(written));
  for (const auto& name : names_in(dir)) EXPECT_EQ(load_image(dir / name).width(), 300) << name;
}

TEST(SessionSimExport, TheFrameAsShownWithASidecar) {
  test::TempDir tmp;
  Session s(cpu_options());
  start_paused(s, "grayscott", 64, 48);
  s.simulation().step(10);
  s.wait_idle();
  const auto path = tmp / "gs.png";
  s.export_result(path);
  const Image saved = load_image(path);
  EXPECT_EQ(saved.channels(), 3);
  EXPECT_TRUE(test::images_match(saved, colorize(*s.display_frame().output, s.simulation().picture())));
  std::ifstream in(sidecar_path_for(path));
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["kernel"], "grayscott");
  EXPECT_EQ(j["steps"], 10);
  EXPECT_EQ(j["picture"]["colormap"], "viridis");
  EXPECT_EQ(j["file"], "gs.png");
  // A folder that is a file: an Io error, nothing written.
  EXPECT_THROW(s.export_result(tmp / "gs.png" / "x.png"), Error);
}

#if KS_HAVE_GIF
// The GIF's frames are the state shown, then every K-th step, as levels of the view's picture; its palette is the
// view's colormap; the simulation ends N-1 times K steps further on.
TEST(SessionSimExport, AnAnimationHoldsTheStateShownThenEveryKthStep) {
  test::TempDir tmp;
  Session s(cpu_options());
  start_paused(s, "grayscott", 40, 30);
  s.simulation().step(5);
  s.wait_idle();
  const Image shown = *s.display_frame().output;
  const auto path = tmp / "gs.gif";
  s.simulation().export_animation(path, 4, 3, 6);
  EXPECT_THROW(s.simulation().export_animation(path, 2, 1, 4), Error) << "one export at a time";
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 5 + 3 * 3);
  EXPECT_EQ(names_in(tmp.path()), std::vector<std::string>{"gs.gif"}) << "no temporary left behind";

  const test::DecodedGif gif = test::decode_gif(path);
  ASSERT_EQ(gif.frames.size(), 4u);
  EXPECT_EQ(gif.delays_cs[0], 6);
  EXPECT_TRUE(gif.loops);
  const SimPicture& picture = s.simulation().picture();
  // Frame k's indices through the GIF's palette are the PNG export (colorize) of `state`.
  auto expect_frame_shows = [&](std::size_t k, const Image& state) {
    SCOPED_TRACE(testing::Message() << "frame " << k);
    const Image rgb = colorize(state, picture);
    const auto want = rgb.elements<std::uint8_t>();
    ASSERT_EQ(gif.frames[k].size() * 3, want.size());
    for (std::size_t i = 0; i < gif.frames[k].size(); ++i)
      for (std::size_t c = 0; c < 3; ++c) ASSERT_EQ(gif.palette[gif.frames[k][i]][c], want[3 * i + c]) << i;
  };
  // The palette is the view's colormap: colour i of the GIF is what the PNG export paints level i with.
  Image ramp(256, 1, 1, ElemType::F32);
  for (int i = 0; i < 256; ++i)
    ramp.row<float>(0)[i] = picture.range_min + (picture.range_max - picture.range_min) * float(i) / 255.0f;
  const Image ramp_rgb = colorize(ramp, picture);
  for (std::size_t i = 0; i < 256; ++i)
    for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(gif.palette[i][c], ramp_rgb.elements<std::uint8_t>()[3 * i + c]);
  expect_frame_shows(3, *s.display_frame().output);  // the last frame is the state now
  expect_frame_shows(0, shown);                        // the first is the state shown before, not one step on
  bool info = false;
  for (const auto& n : s.take_notices()) info |= n.text.find("(4 frames, one every 3 steps)") != std::string::npos;
  EXPECT_TRUE(info);

  EXPECT_THROW(s.simulation().export_animation(path, 0, 1, 4), Error);
  EXPECT_THROW(s.simulation().export_animation(path, 3, 0, 4), Error);
  EXPECT_THROW(s.simulation().export_animation(path, 3, 1, 0), Error);
}

TEST(SessionSimExport, CancellingAnAnimationWritesNothing) {
  test::TempDir tmp;
  Session s(cpu_options());
  start_paused(s, "heat", 300, 200);
  const auto path = tmp / "long.gif";
  s.simulation().export_animation(path, 100000, 1, 4);
  wait_for_progress(s);
  ASSERT_TRUE(s.simulation().exporting());
  s.cancel();
  s.wait_idle();
  EXPECT_FALSE(s.simulation().exporting());
  EXPECT_GT(s.simulation().frames_written(), 0);
  EXPECT_TRUE(names_in(tmp.path()).empty()) << "no GIF and no temporary";
  bool cancelled = false;
  for (const auto& n : s.take_notices()) cancelled |= n.text.find("nothing written") != std::string::npos;
  EXPECT_TRUE(cancelled);
}
#endif

}  // namespace
}  // namespace ks::app
