// The lab's CUDA k-means against the CPU backend from the same k-means++ start: naive and blocked, on odd
// image sizes (1x1, 7x13, 31x1, 1025x3, 1031x1017, (2^20 + 3)x1) and k from 1 to 256, several blocks: the
// same iterations, centroids (identical, so within the 1e-4), inertia and labels. Then run_lab end to
// end (check, quantised image) and the blocks it refuses.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "engine/engine.hpp"
#include "lab/kmeans/cuda/kmeans_cuda.hpp"
#include "lab/kmeans/kmeans_cpu.hpp"
#include "lab/kmeans/kmeans_image.hpp"
#include "lab/kmeans/kmeans_seed.hpp"
#include "support/kmeans_images.hpp"
#include "support/lab_sort_kmeans_requests.hpp"
#include "support/test_support.hpp"

namespace ks::lab {
namespace {

using cuda::KmeansVariant;

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

struct Case {
  int width, height, k, block;
};

const Case kCases[] = {{1, 1, 1, 256},        {7, 13, 5, 256},     {31, 1, 31, 32},    {1025, 3, 16, 1024},
                       {1031, 1017, 16, 256}, {1048579, 1, 8, 96}, {64, 64, 256, 256}, {333, 77, 7, 64}};

const char* name(KmeansVariant v) {
  return v == KmeansVariant::Naive ? "naive" : "blocked";
}

class LabKmeansCuda : public ::testing::TestWithParam<std::tuple<KmeansVariant, Case>> {};

TEST_P(LabKmeansCuda, SameAsTheCpu) {
  KS_REQUIRE_GPU();
  const auto [variant, c] = GetParam();
  const Image img = test::gradient_image(c.width, c.height, std::uint32_t(c.width + c.height));
  const std::vector<std::uint32_t> px = kmeans_pixels(img);
  KmeansParams p;
  p.k = c.k;
  p.max_iterations = 12;
  p.tolerance = 0;
  ThreadPool& pool = engine().pool();
  const std::vector<float> start = kmeanspp_centres(px, p.k, 17, pool);

  std::vector<std::uint32_t> cpu_labels(px.size());
  auto cpu = make_cpu_kmeans(px, cpu_labels, pool);
  const KmeansResult expected = run_lloyd(*cpu, start, p);
  // naive takes any block; blocked whole warps: an odd block for naive.
  const int block = variant == KmeansVariant::Naive ? c.block - 1 : c.block;
  const cuda::GpuKmeans got = cuda::kmeans_on_gpu(engine().cuda(), px, start, p, variant, block);

  SCOPED_TRACE(::testing::Message() << name(variant) << " " << c.width << "x" << c.height << " k=" << c.k);
  EXPECT_EQ(got.result.iterations, expected.iterations);
  ASSERT_EQ(got.result.centroids.size(), expected.centroids.size());
  for (std::size_t i = 0; i < expected.centroids.size(); ++i)
    EXPECT_NEAR(got.result.centroids[i], expected.centroids[i], 1e-4) << i;
  EXPECT_EQ(got.result.centroids, expected.centroids);  // the design makes them identical
  EXPECT_EQ(got.result.inertia, expected.inertia);
  EXPECT_EQ(got.result.cluster_sizes, expected.cluster_sizes);
  EXPECT_EQ(got.labels, cpu_labels);
}

INSTANTIATE_TEST_SUITE_P(All, LabKmeansCuda,
                         ::testing::Combine(::testing::Values(KmeansVariant::Naive, KmeansVariant::Blocked),
                                            ::testing::ValuesIn(kCases)));

TEST(LabKmeansCudaRun, FrameworkRunAgreesAndQuantises) {
  KS_REQUIRE_GPU();
  const Image img = test::banded_image(517, 211, test::distinct_region_colours(), 4, 3);
  const LabResult cpu = run_lab(engine(), test::kmeans_request(img, Backend::Cpu, "cpu", {"k=6"}));
  for (const std::string variant : {"naive", "blocked"})
    for (HostMode host : {HostMode::Pageable, HostMode::Mapped}) {
      LabRequest req = test::kmeans_request(img, Backend::Cuda, variant, {"k=6"});
      req.host = host;
      req.repeat = 2;
      const LabResult r = run_lab(engine(), req);
      EXPECT_TRUE(r.report.check.agrees) << variant << ": " << r.report.check.detail;
      ASSERT_TRUE(r.image && cpu.image);
      EXPECT_TRUE(test::images_match(*r.image, *cpu.image)) << variant;
      ASSERT_TRUE(r.report.launch);
      EXPECT_EQ(r.report.launch->work_items, 517 * 211);
    }
}

TEST(LabKmeansCudaRun, RefusesBlocksItCannotUse) {
  KS_REQUIRE_GPU();
  const Image img = test::random_image(40, 40, 3, ElemType::U8, 1);
  const std::pair<std::string, int> bad[] = {{"blocked", 48}, {"blocked", 2048}, {"naive", 2048}};
  for (const auto& [variant, threads] : bad) {
    LabRequest req = test::kmeans_request(img, Backend::Cuda, variant);
    req.block = BlockShape{threads, 1};
    try {
      run_lab(engine(), req);
      FAIL() << variant << " " << threads;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    }
  }
}

}  // namespace
}  // namespace ks::lab
