// The roofline chart as `bench --roofline` writes it: a PNG of the asked size whose roofs lie where log-log
// axes put them (computed here from the decades, independently of the chart's own mapping), with a point per
// run, and a missing font that fails cleanly.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/error.hpp"
#include "io/image_io.hpp"
#include "report/log_axis.hpp"
#include "report/roofline_chart.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

namespace fs = std::filesystem;
using report::Rgb;

// CPU-like: ridge at 10 op/B; GPU-like: ridge at 25 op/B.
std::vector<report::RooflineSeries> two_backends() {
  std::vector<report::RooflineSeries> s(2);
  s[0].peaks = {10.0, 100.0, "CPU (2 threads)"};
  s[0].points = {{"box cpu u8", 0.5, 3.0, 6.0}, {"median cpu u8", 30.0, 40.0, 1.3}};
  s[1].peaks = {200.0, 5000.0, "Some GPU"};
  s[1].points = {{"box tiled u8", 0.3, 40.0, 133.0},
                 {"matmul regtiled", 300.0, 3000.0, 10.0},
                 {"life naive", 0.0, 0.0, 50.0}};  // no operations: not drawable
  return s;
}

class RooflineChart : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(report::kDefaultFontPath))
      GTEST_SKIP() << report::kDefaultFontPath << " is missing: install " << report::kDefaultFontPackage;
  }
};

Rgb at(const Image& img, int x, int y) {
  const auto* p = img.row<std::uint8_t>(y) + 3 * std::size_t(x);
  return {p[0], p[1], p[2]};
}

// Whether a pixel within `radius` of (x, y) has exactly `color`.
bool has_color_near(const Image& img, double x, double y, Rgb color, int radius = 1) {
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) {
      const int px = int(std::floor(x)) + dx, py = int(std::floor(y)) + dy;
      if (px >= 0 && py >= 0 && px < img.width() && py < img.height() && at(img, px, py) == color)
        return true;
    }
  return false;
}

TEST(LogAxis, DecadesAndLabels) {
  int lo = 0, hi = 0;
  report::decades_around(0.5, 100.0, lo, hi);
  EXPECT_EQ(lo, -1);
  EXPECT_EQ(hi, 2);
  report::decades_around(10.0, 10.0, lo, hi);  // one value: still a decade
  EXPECT_EQ(lo, 1);
  EXPECT_EQ(hi, 2);
  EXPECT_EQ(report::decade_label(-2), "0.01");
  EXPECT_EQ(report::decade_label(-1), "0.1");
  EXPECT_EQ(report::decade_label(0), "1");
  EXPECT_EQ(report::decade_label(2), "100");
  EXPECT_EQ(report::decade_label(3), "1k");
  EXPECT_EQ(report::decade_label(4), "10k");
  EXPECT_EQ(report::decade_label(6), "1M");
}

TEST_F(RooflineChart, PngHasTheSizeTheRoofsAndAPointPerRun) {
  TempDir dir;
  report::RooflineChartOptions options;
  options.width = 1000;
  options.height = 700;
  const auto series = two_backends();
  report::write_roofline_chart(dir / "roof.png", series, options);
  const Image img = load_image(dir / "roof.png");
  ASSERT_EQ(img.width(), 1000);
  ASSERT_EQ(img.height(), 700);
  ASSERT_EQ(img.channels(), 3);

  // Decades: x holds the points (0.3 .. 300) and every ridge with a decade either side (1 .. 250): 0.1 ..
  // 1000. y holds the points, 1.5x the highest ceiling (7500) and the roofs at x = 0.1 (1 and 20): 1 .. 10^4.
  const report::RooflineLayout l = report::roofline_layout(series, options);
  EXPECT_EQ(l.x.first_decade, -1);
  EXPECT_EQ(l.x.last_decade, 3);
  EXPECT_EQ(l.y.first_decade, 0);
  EXPECT_EQ(l.y.last_decade, 4);
  EXPECT_EQ(l.undrawable_points, 1);
  const report::Rect plot = l.plot;
  ASSERT_GT(plot.w, 500);
  ASSERT_GT(plot.h, 300);
  auto px = [&](double intensity) { return plot.x + (std::log10(intensity) + 1) / 4 * plot.w; };
  auto py = [&](double gflops) { return plot.y + plot.h - std::log10(gflops) / 4 * plot.h; };

  for (std::size_t i = 0; i < series.size(); ++i) {
    const ComputePeaks& p = series[i].peaks;
    const Rgb color = report::roofline_color(i);
    const double ridge = p.fma_gflops / p.memory_gbps;
    // The memory slope below the ridge and the compute ceiling above it.
    for (double intensity : {0.15, 1.5, ridge * 0.7, ridge * 2, 120.0, 600.0}) {
      const double gflops = std::min(p.fma_gflops, intensity * p.memory_gbps);
      EXPECT_TRUE(has_color_near(img, px(intensity), py(gflops), color))
          << p.where << " roof at intensity " << intensity << " (pixel " << px(intensity) << ", "
          << py(gflops) << ")";
    }
    // Nothing of the roof's colour far above the ceiling (10x) where no label is.
    EXPECT_FALSE(
        has_color_near(img, px(5.0), py(p.fma_gflops * 10 > 9000 ? 9000 : p.fma_gflops * 10), color, 0));
    for (const auto& point : series[i].points) {
      if (point.gflops <= 0) continue;
      EXPECT_EQ(at(img, int(std::floor(px(point.intensity))), int(std::floor(py(point.gflops)))), color)
          << point.label;
    }
  }
}

TEST_F(RooflineChart, AMissingFontNamesThePackageAndWritesNothing) {
  TempDir dir;
  report::RooflineChartOptions options;
  options.font = dir / "no-such-font.ttf";
  try {
    report::write_roofline_chart(dir / "roof.png", two_backends(), options);
    FAIL() << "no error without a font";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(e.full_message().find("fonts-dejavu-core"), std::string::npos) << e.full_message();
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST_F(RooflineChart, AnUnwritablePathLeavesNoFile) {
  TempDir dir;
  EXPECT_THROW(report::write_roofline_chart(dir / "missing-folder" / "roof.png", two_backends()), Error);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST_F(RooflineChart, NoRunsStillDrawsTheRoofs) {
  std::vector<report::RooflineSeries> s(1);
  s[0].peaks = {10.0, 100.0, "CPU"};
  const report::Font font;
  const Image img = report::draw_roofline_chart(s, {}, font);
  EXPECT_EQ(img.width(), report::RooflineChartOptions{}.width);
  EXPECT_THROW(report::draw_roofline_chart(s, {100, 100, "tiny", report::kDefaultFontPath}, font), Error);
}

}  // namespace
}  // namespace ks::test
