// The session as a document: what it loads, which request it holds, and that a bad request or file changes
// nothing. Runs on the CPU backend (the session is told not to use CUDA), so it runs everywhere.
#include <gtest/gtest.h>

#include <fstream>

#include "assets.hpp"
#include "core/error.hpp"
#include "cpu/session_support.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

using session_test::cpu_options;

ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::Internal;
}

TEST(SessionDocument, StartsOnTheCpuAndSaysWhyWhenCudaIsOff) {
  Session s(cpu_options());
  EXPECT_FALSE(s.device().cuda);
  EXPECT_NE(s.device().unavailable_reason.find("switched off"), std::string::npos);
  EXPECT_EQ(s.backend(), Backend::Cpu);
  EXPECT_EQ(s.device().cpu, "CPU (2 threads)");
  EXPECT_FALSE(s.has_input());
  EXPECT_EQ(kind_of([&] { s.set_backend(Backend::Cuda); }), ErrorKind::Device);
  EXPECT_EQ(s.backend(), Backend::Cpu);
  EXPECT_FALSE(s.launch_info().occupancy);
  EXPECT_NE(s.launch_info().problem.find("CPU backend"), std::string::npos);
}

TEST(SessionDocument, OpensTheSampleAsTheKernelsTakeIt) {
  Session s(cpu_options());
  s.open_sample();
  ASSERT_TRUE(s.has_input());
  EXPECT_EQ(s.input_name(), "embedded sample");
  EXPECT_TRUE(s.input_path().empty());
  // The sample file is 1024x768 RGB; kernels take 1 or 4 channels, so it runs as RGBA.
  EXPECT_EQ(s.loaded_shape(), (ImageShape{1024, 768, 3, ElemType::U8}));
  EXPECT_EQ(s.input()->shape(), (ImageShape{1024, 768, 4, ElemType::U8}));
  const ui::DisplayFrame f = s.display_frame();
  EXPECT_EQ(f.input, s.input());
  EXPECT_EQ(f.output, nullptr);
  EXPECT_EQ(f.input_generation, 1u);
}

TEST(SessionDocument, AFileThatFailsToLoadKeepsThePreviousImage) {
  test::TempDir dir;
  Session s(cpu_options());
  s.open_sample();
  const Image* before = s.input();
  EXPECT_EQ(kind_of([&] { s.open_image(dir / "missing.png"); }), ErrorKind::Io);
  std::ofstream(dir / "broken.png") << "\x89PNG\r\n\x1a\n this is not a png";
  EXPECT_EQ(kind_of([&] { s.open_image(dir / "broken.png"); }), ErrorKind::Io);
  EXPECT_EQ(s.input(), before);
  EXPECT_EQ(s.input_name(), "embedded sample");
  EXPECT_EQ(s.display_frame().input_generation, 1u);
}

TEST(SessionDocument, OpensAFileOfAnOddSize) {
  test::TempDir dir;
  const Image img = test::random_image(1023, 7, 1, ElemType::U8, 5);
  save_image(img, dir / "odd.png");
  Session s(cpu_options());
  s.open_image(dir / "odd.png");
  EXPECT_EQ(s.input_path(), dir / "odd.png");
  EXPECT_TRUE(test::images_match(*s.input(), img));
}

TEST(SessionDocument, BadParametersAreRefusedAndChangeNothing) {
  Session s(cpu_options());
  ASSERT_EQ(s.kernel().id, "box");
  s.set_param("radius", "3");
  EXPECT_EQ(kind_of([&] { s.set_param("radius", "0"); }), ErrorKind::Usage) << "below the range: not clamped";
  EXPECT_EQ(kind_of([&] { s.set_param("radius", "51"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { s.set_param("radius", "two"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { s.set_param("sigma", "1"); }), ErrorKind::Usage) << "box has no sigma";
  EXPECT_EQ(s.params().get_int("radius"), 3);
  EXPECT_EQ(kind_of([&] { s.select_kernel("blur9000"); }), ErrorKind::Usage);
  EXPECT_EQ(s.kernel().id, "box");
  EXPECT_EQ(kind_of([&] { s.set_variant("warp-specialised"); }), ErrorKind::Usage);
  EXPECT_EQ(s.effective_variant(), "cpu");
  EXPECT_EQ(kind_of([&] { s.set_variant("tiled"); }), ErrorKind::Device) << "a CUDA variant needs CUDA";
  EXPECT_EQ(s.backend(), Backend::Cpu);
  EXPECT_EQ(kind_of([&] { s.set_block(BlockShape{0, 8}); }), ErrorKind::Usage);
  EXPECT_FALSE(s.block());
}

TEST(SessionDocument, ChoosingAKernelResetsItsParametersToTheRegistryDefaults) {
  Session s(cpu_options());
  s.set_param("radius", "7");
  s.select_kernel("gaussian");
  EXPECT_EQ(s.kernel().id, "gaussian");
  EXPECT_DOUBLE_EQ(s.params().get_float("sigma"), 2.0);
  EXPECT_FALSE(s.params().was_set("sigma"));
  s.select_kernel("box");
  EXPECT_EQ(s.params().get_int("radius"), 1);
  s.set_param("border", "wrap");
  s.reset_params();
  EXPECT_EQ(s.params().get_choice("border"), "reflect101");
}

TEST(SessionDocument, TheRequestCarriesWhatWasChosen) {
  Session s(cpu_options());
  s.select_kernel("sobel");
  s.set_param("output", "dx");
  s.set_block(BlockShape{16, 16});  // kept for the CUDA backend, not sent to the CPU
  const StencilRequest r = s.request();
  EXPECT_EQ(r.kernel, "sobel");
  EXPECT_EQ(r.params.get_choice("output"), "dx");
  EXPECT_EQ(r.backend, Backend::Cpu);
  EXPECT_FALSE(r.block);
  EXPECT_EQ(r.repeat, 2);
  EXPECT_EQ(s.block(), (BlockShape{16, 16}));
}

TEST(SessionDocument, SignedOutputsAreTheDerivativesAndZeroSumMatrices) {
  const auto& reg = KernelRegistry::builtin();
  ParamSet sobel = reg.get("sobel").default_params();
  EXPECT_FALSE(produces_signed_output("sobel", sobel));
  sobel.set("output", "dy");
  EXPECT_TRUE(produces_signed_output("sobel", sobel));
  EXPECT_TRUE(produces_signed_output("laplacian", reg.get("laplacian").default_params()));
  EXPECT_FALSE(produces_signed_output("box", reg.get("box").default_params()));
  ParamSet conv = reg.get("convolve").default_params();
  EXPECT_FALSE(produces_signed_output("convolve", conv)) << "the default sharpening matrix sums to 1";
  conv.set("matrix", "-1,0,1; -2,0,2; -1,0,1");
  EXPECT_TRUE(produces_signed_output("convolve", conv));
}

}  // namespace
}  // namespace ks::app
