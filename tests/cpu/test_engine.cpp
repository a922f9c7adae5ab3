// The engine validates a request before any work starts and reports what it measured.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

StencilRequest request(const std::string& kernel) {
  StencilRequest r;
  r.kernel = kernel;
  r.params = KernelRegistry::builtin().get(kernel).default_params();
  r.repeat = 2;
  return r;
}

ErrorKind kind_of(Engine& e, const Image& img, const StencilRequest& r) {
  try {
    e.run_stencil(img, r);
  } catch (const Error& err) {
    return err.kind();
  }
  return ErrorKind::Internal;
}

TEST(Engine, RunsOnTheCpuAndReports) {
  Engine engine(Engine::Options{2});
  Image img = test::random_image(37, 21, 1, ElemType::U8, 7);
  StencilResult res = engine.run_stencil(img, request("box"));
  EXPECT_EQ(res.output.shape(), img.shape());
  EXPECT_EQ(res.report.kernel, "box");
  EXPECT_EQ(res.report.variant, "cpu");
  EXPECT_EQ(res.report.kernel_time.count, 2);
  EXPECT_GT(res.report.kernel_time.median_ms, 0);
  EXPECT_EQ(res.report.cost.bytes, 2u * 37 * 21);
  EXPECT_GT(res.report.gbps, 0);
  EXPECT_EQ(res.report.percent_of_copy, 0) << "no copy bandwidth on the CPU";
  EXPECT_NE(res.report.device.find("2 threads"), std::string::npos);
}

TEST(Engine, RefusesBadRequestsAsUsageErrors) {
  Engine engine(Engine::Options{1});
  Image img = test::random_image(8, 8, 1, ElemType::U8, 1);
  StencilRequest r = request("box");
  r.variant = "tiled";  // a CUDA variant on the CPU backend
  EXPECT_EQ(kind_of(engine, img, r), ErrorKind::Usage);
  r = request("box");
  r.variant = "warp-specialised";
  EXPECT_EQ(kind_of(engine, img, r), ErrorKind::Usage);
  r = request("box");
  r.block = BlockShape{16, 16};
  EXPECT_EQ(kind_of(engine, img, r), ErrorKind::Usage) << "a block shape means nothing on the CPU";
  r = request("box");
  r.repeat = 0;
  EXPECT_EQ(kind_of(engine, img, r), ErrorKind::Usage);
  r = request("laplacian");
  r.backend = Backend::Cuda;
  r.variant = "separable";
  EXPECT_EQ(kind_of(engine, img, r), ErrorKind::Usage);
  EXPECT_EQ(kind_of(engine, test::random_image(8, 8, 3, ElemType::U8, 1), request("box")), ErrorKind::Usage);
  EXPECT_EQ(kind_of(engine, test::random_image(8, 8, 1, ElemType::U16, 1), request("box")), ErrorKind::Usage);
  EXPECT_EQ(kind_of(engine, Image(), request("box")), ErrorKind::Usage);
}

TEST(Engine, CudaWithoutADeviceSuggestsTheCpuBackend) {
  if (test::gpu_available()) GTEST_SKIP() << "a CUDA device is present";
  Engine engine(Engine::Options{1});
  StencilRequest r = request("box");
  r.backend = Backend::Cuda;
  try {
    engine.run_stencil(test::random_image(8, 8, 1, ElemType::U8, 1), r);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Device);
    EXPECT_NE(e.full_message().find("--backend cpu"), std::string::npos) << e.full_message();
  }
  EXPECT_FALSE(engine.cuda_available());
  EXPECT_FALSE(engine.cuda_unavailable_reason().empty());
}

TEST(Engine, AlphaPassesThroughUnlessAskedOtherwise) {
  Engine engine(Engine::Options{1});
  Image rgba = test::random_image(9, 6, 4, ElemType::U8, 5);
  StencilRequest r = request("sobel");
  StencilResult kept = engine.run_stencil(rgba, r);
  r.keep_alpha = false;
  StencilResult filtered = engine.run_stencil(rgba, r);
  int alpha_differs = 0;
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 9; ++x) {
      EXPECT_EQ(kept.output.row<std::uint8_t>(y)[4 * x + 3], rgba.row<std::uint8_t>(y)[4 * x + 3]);
      for (int c = 0; c < 3; ++c)
        EXPECT_EQ(kept.output.row<std::uint8_t>(y)[4 * x + c], filtered.output.row<std::uint8_t>(y)[4 * x + c]);
      alpha_differs += filtered.output.row<std::uint8_t>(y)[4 * x + 3] != rgba.row<std::uint8_t>(y)[4 * x + 3];
    }
  EXPECT_GT(alpha_differs, 0) << "with keep_alpha=false the alpha channel is filtered too";
}

TEST(Engine, DefaultCudaVariantPrefersSeparable) {
  const auto& reg = KernelRegistry::builtin();
  EXPECT_EQ(Engine::default_cuda_variant(reg.get("gaussian"), reg.get("gaussian").default_params()), "separable");
  EXPECT_EQ(Engine::default_cuda_variant(reg.get("median"), reg.get("median").default_params()), "tiled");
}

TEST(Engine, PrepareInputAndRestoreChannels) {
  Image rgb = test::random_image(5, 4, 3, ElemType::U8, 3);
  Image prepared = prepare_stencil_input(rgb, std::nullopt);
  EXPECT_EQ(prepared.channels(), 4);
  EXPECT_EQ(prepared.type(), ElemType::U8);
  Image back = restore_channels(prepared, 3);
  EXPECT_TRUE(test::images_match(back, rgb));
  Image wide = test::random_image(5, 4, 1, ElemType::U16, 3);
  EXPECT_EQ(prepare_stencil_input(wide, std::nullopt).type(), ElemType::F32);
  EXPECT_EQ(prepare_stencil_input(rgb, ElemType::F32).type(), ElemType::F32);
  EXPECT_THROW(prepare_stencil_input(rgb, ElemType::U16), Error);
}

}  // namespace
}  // namespace ks
