// sort and kmeans through the lab framework (run_lab) on the CPU backend: the inputs it fills, the variants,
// the check against the reference, repeats that sort the restored input again, user arrays, the quantised
// image, the facts and series, and requests refused before any memory is taken.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "lab/kmeans/kmeans_image.hpp"
#include "lab/sort/sort_cpu.hpp"
#include "lab/sort/sort_data.hpp"
#include "support/kmeans_images.hpp"
#include "support/lab_sort_kmeans_requests.hpp"
#include "support/sort_checks.hpp"
#include "support/test_support.hpp"

namespace ks::lab {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{2});
  return e;
}

std::vector<std::uint32_t> as_u32(const NdArray& a) {
  const auto s = a.as<std::uint32_t>();
  return {s.begin(), s.end()};
}

void expect_usage(const LabRequest& r, const std::string& words) {
  try {
    run_lab(engine(), r);
    FAIL() << "no error; expected: " << words;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    EXPECT_NE(e.full_message().find(words), std::string::npos) << e.full_message();
  }
}

TEST(LabSortRun, CpuVariantsSortTheSeededKeys) {
  const std::int64_t n = (1 << 20) + 3;
  for (const std::string variant : {"cpu", "cpu_parallel"}) {
    if (variant == "cpu_parallel" && !cpu_parallel_sort_unavailable_reason().empty()) continue;
    const LabResult r = run_lab(
        engine(), test::sort_request(n, Backend::Cpu, variant, {"distribution=few", "payload=pairs"}));
    const auto input = make_keys(std::size_t(n), KeyDistribution::FewDistinct, 1);  // seed 1: the request's
    const auto keys = as_u32(test::array_named(r, "keys")), values = as_u32(test::array_named(r, "values"));
    EXPECT_TRUE(test::is_sorted_permutation(input, keys)) << variant;
    EXPECT_TRUE(test::pairs_are_input_pairs(input, keys, values)) << variant;
    EXPECT_EQ(r.report.kernel_time.count, 2);
    if (variant == "cpu_parallel") {
      EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
    }
    ASSERT_FALSE(r.report.facts.empty());
    EXPECT_EQ(r.report.facts.back().value, "yes");  // "sorted"
  }
}

TEST(LabSortRun, SortsTheUsersKeys) {
  LabRequest req = test::sort_request(31, Backend::Cpu, "cpu");
  NdArray given;
  given.name = "keys";
  given.type = DType::U32;
  given.shape = {31};
  given.data.resize(31 * 4);
  auto k = given.as<std::uint32_t>();
  for (std::size_t i = 0; i < 31; ++i) k[i] = std::uint32_t((i * 17) % 31);  // a permutation of 0..30
  req.inputs.push_back(given);
  const auto keys = as_u32(test::array_named(run_lab(engine(), req), "keys"));
  for (std::uint32_t i = 0; i < 31; ++i) EXPECT_EQ(keys[i], i);
}

TEST(LabSortRun, RefusesWhatItCannotDo) {
  expect_usage(test::sort_request(std::int64_t(kMaxSortElements) + 1, Backend::Cpu, "cpu"), "268435456");
  expect_usage(test::sort_request(1025, Backend::Cpu, "bitonic"), "cuda");
  LabRequest streams = test::sort_request(1025, Backend::Cpu, "cpu");
  streams.streams = 4;
  expect_usage(streams, "cannot split");
  try {
    test::sort_request(10, Backend::Cpu, "cpu", {"distribution=gaussian"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
  }
}

TEST(LabKmeansRun, CpuQuantisesTheImage) {
  const auto colours = test::distinct_region_colours();
  const Image img = test::banded_image(61, 23, colours, 3, 7);
  const LabResult r =
      run_lab(engine(), test::kmeans_request(img, Backend::Cpu, "cpu", {"k=6", "tolerance=0"}));
  ASSERT_TRUE(r.image);
  ASSERT_EQ(r.image->channels(), 3);
  // Every pixel of the quantised image is within 1 level of its band's colour.
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const auto& c = colours[std::size_t(x * 6 / img.width())];
      const std::uint8_t* p = r.image->row<std::uint8_t>(y) + 3 * x;
      ASSERT_NEAR(p[0], c.r, 1);
      ASSERT_NEAR(p[1], c.g, 1);
      ASSERT_NEAR(p[2], c.b, 1);
    }
  ASSERT_EQ(r.report.series.size(), 1u);
  const auto& inertia = r.report.series[0].values;
  EXPECT_GE(inertia.size(), 2u);
  for (std::size_t i = 1; i < inertia.size(); ++i) EXPECT_LE(inertia[i], inertia[i - 1] * (1 + 1e-12));
  // The kept inertia array is the series, NaN after the last pass.
  const auto kept = test::array_named(r, "inertia").as<double>();
  ASSERT_EQ(kept.size(), 31u);  // iterations (30) + 1
  EXPECT_EQ(kept[inertia.size() - 1], inertia.back());
  if (inertia.size() < kept.size()) {
    EXPECT_TRUE(std::isnan(kept[inertia.size()]));
  }
}

TEST(LabKmeansRun, FloatImagesClusterAsTheir8BitColours) {
  const Image u8 = test::gradient_image(40, 30, 3);
  const Image f32 = convert_type(u8, ElemType::F32);  // what the framework may hand over
  const auto a = run_lab(engine(), test::kmeans_request(u8, Backend::Cpu, "cpu", {"k=5"}));
  const auto b = run_lab(engine(), test::kmeans_request(f32, Backend::Cpu, "cpu", {"k=5"}));
  EXPECT_EQ(test::array_named(a, "centroids").data, test::array_named(b, "centroids").data);
}

TEST(LabKmeansRun, RefusesWhatItCannotDo) {
  const Image small = test::random_image(31, 1, 3, ElemType::U8, 2);
  expect_usage(test::kmeans_request(small, Backend::Cpu, "cpu", {"k=32"}),
               "larger than the image's 31 pixels");
  LabRequest no_image = test::kmeans_request(small, Backend::Cpu, "cpu");
  no_image.image.reset();
  expect_usage(no_image, "-i IMAGE");
  LabRequest nan_start = test::kmeans_request(small, Backend::Cpu, "cpu", {"k=2"});
  NdArray start;
  start.name = "start";
  start.type = DType::F32;
  start.shape = {2, 3};
  start.data.resize(6 * sizeof(float));
  auto c = start.as<float>();
  std::fill(c.begin(), c.end(), 10.0f);
  c[4] = std::numeric_limits<float>::quiet_NaN();
  nan_start.inputs.push_back(start);
  expect_usage(nan_start, "start centroid 1 has a non-finite channel");
  try {
    test::kmeans_request(small, Backend::Cpu, "cpu", {"k=257"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
  }
}

}  // namespace
}  // namespace ks::lab
