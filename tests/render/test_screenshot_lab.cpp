// The basics lab drawn headless through EGL: `--screenshot` of a lab kernel with its Lab, Timing and Roofline
// sections (the sweep's line in its variant's colour), kmeans' quantised image in the viewport, bad lab
// requests refused with exit 2; and the timeline and the roofline drawn from reports of their own (a CUDA
// timeline on a machine without a GPU).
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>
#include <imgui.h>

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "gui/screenshot.hpp"
#include "io/image_io.hpp"
#include "panels/lab/lab_sections.hpp"
#include "panels/log_log_plot.hpp"
#include "panels/lab/roofline_panel.hpp"
#include "render_test_support.hpp"
#include "screenshot_run.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

// screenshot_main over an argument list (screenshot_run.hpp).
const auto run = &test::run_screenshot;

test::Rgb rgb_of(ImU32 c) {
  return {int(c & 0xff), int((c >> 8) & 0xff), int((c >> 16) & 0xff)};
}

// Pixels of exactly this colour in the rectangle [x0, x1) x [y0, y1).
int count_colour(const Image& frame, test::Rgb colour, int x0, int y0, int x1, int y1) {
  int n = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x)
      if (test::rgb_at(frame, x, y) == colour) ++n;
  return n;
}

TEST(ScreenshotLab, TheLabSectionShowsTheRunAndTheSweep) {
  test::TempDir dir;
  const auto out = dir / "lab.png";
  ASSERT_EQ(
      run({"--screenshot", out.string(), "--kernel", "vecadd", "--lab-size", "2^14", "--lab-sweep",
           "--sections", "kernel,lab", "--size", "900x1400", "--sidebar-width", "500", "--backend", "cpu"}),
      0);
  const Image frame = convert_channels(load_image(out), 4);
  ASSERT_EQ(frame.width(), 900);
  // A kernel of arrays has no image: the viewport left of the sidebar shows the Lab's roofline instead, with the
  // run as a point (and its label) in the first kernel's colour, which nothing else there is drawn in.
  EXPECT_GT(count_colour(frame, rgb_of(ui::panels::series_colour(1)), 0, 0, 380, frame.height()), 5);
  // The sidebar holds the panels, and the sweep's line is drawn in the first variant's colour.
  EXPECT_GT(count_colour(frame, rgb_of(ui::panels::series_colour(0)), 400, 0, 900, frame.height()), 20);
}

TEST(ScreenshotLab, KmeansShowsTheQuantisedImage) {
  test::TempDir dir;
  const auto quantised = dir / "kmeans.png";
  const auto original = dir / "box.png";
  ASSERT_EQ(run({"--screenshot", quantised.string(), "--kernel", "kmeans", "--param", "k=4", "--no-panels",
                 "--split", "0", "--backend", "cpu"}),
            0);
  ASSERT_EQ(run({"--screenshot", original.string(), "--kernel", "box", "--param", "radius=1", "--no-panels",
                 "--split", "0", "--backend", "cpu"}),
            0);
  // Four colours (with the edges the scaled view blends) against the sample's many.
  const std::size_t k4 = test::distinct_colours(convert_channels(load_image(quantised), 4));
  const std::size_t many = test::distinct_colours(convert_channels(load_image(original), 4));
  EXPECT_LT(k4 * 4, many) << k4 << " colours against " << many;
}

TEST(ScreenshotLab, BadLabRequestsExitWithTwoAndWriteNothing) {
  test::TempDir dir;
  const auto out = dir / "bad.png";
  EXPECT_EQ(
      run({"--screenshot", out.string(), "--kernel", "vecadd", "--lab-size", "2^40", "--backend", "cpu"}), 2);
  EXPECT_EQ(run({"--screenshot", out.string(), "--kernel", "box", "--lab-size", "2^10", "--backend", "cpu"}),
            2);
  EXPECT_EQ(
      run({"--screenshot", out.string(), "--kernel", "vecadd", "--sections", "nonesuch", "--backend", "cpu"}),
      2);
  EXPECT_FALSE(std::filesystem::exists(out));
}

// A window filling the frame, drawing `body`.
Image draw_in_window(int width, int height, const std::function<void()>& body) {
  ui::HeadlessRenderer renderer = test::make_renderer(width, height);
  return renderer.render(test::one_to_one_view(width, height), [&] {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(float(width), float(height)));
    ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
    body();
    ImGui::End();
  });
}

TEST(LabDrawing, TheTimelineDrawsTheSerialAndTheStreamedLanesByStream) {
  lab::LabReport r;
  r.backend = Backend::Cuda;
  r.host = lab::HostMode::Pinned;
  r.streams = 2;
  r.chunks = 4;
  r.serial_timeline = {{"upload", 0, 0, 0.0, 4.0, 1 << 20},
                       {"kernel", 0, 0, 4.0, 5.0, 0},
                       {"download", 0, 0, 5.0, 7.0, 1 << 19}};
  for (int c = 0; c < 4; ++c) {
    const double t = c * 1.0;
    r.timeline.push_back({"upload", c % 2, c, t, t + 1.0, 1 << 18});
    r.timeline.push_back({"kernel", c % 2, c, t + 1.0, t + 1.25, 0});
    r.timeline.push_back({"download", c % 2, c, t + 1.25, t + 1.75, 1 << 17});
  }
  const Image frame = draw_in_window(600, 300, [&] { ui::panels::draw_lab_timeline(r); });
  const int stream0 = count_colour(frame, rgb_of(ui::panels::series_colour(0)), 0, 0, 600, 300);
  const int stream1 = count_colour(frame, rgb_of(ui::panels::series_colour(1)), 0, 0, 600, 300);
  EXPECT_GT(stream0, 500) << "the serial run and chunks 0, 2";
  EXPECT_GT(stream1, 200) << "chunks 1, 3";
  EXPECT_GT(stream0, stream1) << "the serial run is all stream 0";
}

TEST(LabDrawing, TheTimelineOfARunWithoutCopiesIsANote) {
  lab::LabReport r;  // the CPU backend: no bars
  const Image frame = draw_in_window(400, 120, [&] { ui::panels::draw_lab_timeline(r); });
  EXPECT_EQ(count_colour(frame, rgb_of(ui::panels::series_colour(0)), 0, 0, 400, 120), 0);
  EXPECT_GT(test::distinct_colours(frame), 2u) << "the note's text";
}

TEST(LabDrawing, TheRooflineDrawsTheRoofsAndThePoints) {
  ui::panels::peaks::ComputePeaks machine;
  machine.memory_gbps = 3000;
  machine.fma_gflops = 50000;
  machine.where = "test";
  EXPECT_DOUBLE_EQ(ui::panels::peaks::attainable_gflops(machine, 1), 3000);
  EXPECT_DOUBLE_EQ(ui::panels::peaks::attainable_gflops(machine, 1000), 50000);
  const std::vector<ui::panels::peaks::RooflinePoint> points = {{"vecadd vector4", 1.0 / 12, 250, 3000},
                                                                {"matmul regtiled", 600, 37800, 63}};
  int drawn = 0;
  const Image frame = draw_in_window(500, 320, [&] { drawn = ui::panels::draw_roofline(machine, points); });
  EXPECT_EQ(drawn, 2);
  EXPECT_GT(count_colour(frame, rgb_of(ui::panels::series_colour(1)), 0, 0, 500, 320), 20) << "the points";
  // Without peaks the points still show, and what is missing is said.
  const Image bare = draw_in_window(500, 320, [&] { drawn = ui::panels::draw_roofline({}, points); });
  EXPECT_EQ(drawn, 2);
  EXPECT_GT(count_colour(bare, rgb_of(ui::panels::series_colour(1)), 0, 0, 500, 320), 20);
}

// Points held against ceilings of their own (issue 25: a u8 kernel's integer ceiling, a cached copy) are drawn
// under their own roofs, and the sentence under the chart names the newest run's ceilings.
TEST(LabDrawing, TheRooflineSaysWhichCeilingApplies) {
  ui::panels::peaks::ComputePeaks machine(10, 100, "test");
  machine.u8_gops = 400;
  machine.cached_copies = {{2 << 20, 50.0}};
  lab::LabReport r;
  r.kernel = "vecadd";
  r.variant = "cpu";
  // 1e6 lone f32 adds over 12e6 bytes in 1 ms: 1 GOP/s at 1/12 op/B, under min(50, 50 / 12) = 4.17: 24%.
  r.roofline = roofline_figures(OpMix::of(OpKind::F32One, 1e6), 12'000'000, 1.0, machine);
  const std::string sentence = ui::panels::ceiling_sentence(r);
  EXPECT_NE(sentence.find("vecadd cpu"), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("f32 add/mul (50 GOP/s)"), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("copy of 2 MiB (cached) (50 GB/s)"), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("memory-bound"), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("24% of that roof"), std::string::npos) << sentence;
  EXPECT_TRUE(ui::panels::ceiling_sentence(lab::LabReport{}).empty()) << "no ceiling, no sentence";
  const RooflineFigures u8 = roofline_figures(OpMix::of(OpKind::U8, 4e8), 2'000'000, 1.0, machine);
  const std::vector<ui::panels::peaks::RooflinePoint> points = {
      {"vecadd cpu", r.roofline.intensity, r.roofline.gflops, r.roofline.gbps, r.roofline.ceiling, r.roofline.memory},
      {"median cpu", u8.intensity, u8.gflops, u8.gbps, u8.ceiling, u8.memory}};
  int drawn = 0;
  const Image frame = draw_in_window(500, 320, [&] { drawn = ui::panels::draw_roofline(machine, points); });
  EXPECT_EQ(drawn, 2);
  EXPECT_GT(count_colour(frame, rgb_of(ui::panels::series_colour(1)), 0, 0, 500, 320), 20) << "the points";
}

bool boxes_overlap(const std::array<float, 4>& a, const std::array<float, 4>& b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

// Points of different kernels close together (the Roofline's vecadd and reduce on the CPU, both labelled "cpu")
// and one under the legend: their labels stand apart, clear of the legend, instead of printing over each other
// ("cpcpu" at 1024x700).
TEST(LabDrawing, PointLabelsDoNotCoverEachOtherOrTheLegend) {
  ui::panels::LogLogPlot plot;
  plot.x_title = "FLOP per byte";
  plot.y_title = "GFLOP/s";
  plot.x_range = ImVec2(1e-3f, 1e9f);
  plot.y_range = ImVec2(1e-2f, 1e4f);
  const std::vector<std::pair<std::string, ImVec2>> points = {
      {"vecadd", {0.083f, 0.8f}}, {"reduce", {0.25f, 1.3f}}, {"integrate2d", {0.2f, 0.9f}}, {"matmul", {0.002f, 3000}}};
  for (std::size_t i = 0; i < points.size(); ++i) {
    ui::panels::LogLogSeries s;
    s.name = points[i].first;
    s.colour = ui::panels::series_colour(int(i) + 1);
    s.line = false;
    s.points = {points[i].second};
    s.labels = {"cpu"};
    plot.series.push_back(std::move(s));
  }
  ui::panels::LogLogFrame frame;
  draw_in_window(360, 260, [&] { frame = ui::panels::draw_log_log_plot(plot, "labels"); });
  ASSERT_TRUE(frame.valid);
  ASSERT_GE(frame.label_boxes.size(), 3u) << "the labels that fit are drawn";
  for (std::size_t i = 0; i < frame.label_boxes.size(); ++i) {
    EXPECT_FALSE(boxes_overlap(frame.label_boxes[i], frame.legend_box)) << "label " << i << " covers the legend";
    for (std::size_t j = i + 1; j < frame.label_boxes.size(); ++j)
      EXPECT_FALSE(boxes_overlap(frame.label_boxes[i], frame.label_boxes[j])) << "labels " << i << " and " << j;
  }
}

TEST(LabDrawing, DecadeLabels) {
  EXPECT_EQ(ui::panels::decade_label(0), "1");
  EXPECT_EQ(ui::panels::decade_label(1), "10");
  EXPECT_EQ(ui::panels::decade_label(3), "1k");
  EXPECT_EQ(ui::panels::decade_label(7), "10M");
  EXPECT_EQ(ui::panels::decade_label(-2), "0.01");
}

}  // namespace
}  // namespace ks
#endif
