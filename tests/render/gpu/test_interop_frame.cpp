// The display's interop path, on the GPU machine: a CUDA result that never left the device reaches the GL texture
// through CUDA-GL interop (NVIDIA's EGL device platform) and the frame shows the CPU reference's values, pixel for
// pixel. Skipped without a CUDA device.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "headless/egl_context.hpp"
#include "registry/registry.hpp"
#include "render/interop/interop_target.hpp"
#include "render/value_range.hpp"
#include "render_test_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

struct Case {
  const char* kernel;
  const char* param;  // one "name=value", or empty
  ElemType type;
  int channels, width, height;
};

std::string case_name(const Case& c) {
  std::string s = std::string(c.kernel) + "_" + to_string(c.type) + "_" + std::to_string(c.channels) + "ch_" +
                  std::to_string(c.width) + "x" + std::to_string(c.height);
  return s;
}
void PrintTo(const Case& c, std::ostream* os) { *os << case_name(c); }

StencilRequest request_for(const Case& c, Backend backend) {
  StencilRequest req;
  req.kernel = c.kernel;
  req.params = KernelRegistry::builtin().get(c.kernel).default_params();
  if (*c.param) req.params.set_assignment(c.param);
  req.backend = backend;
  req.warmup = 0;
  req.repeat = 1;
  if (backend == Backend::Cuda) {
    req.keep_on_device = true;
    req.download = false;  // the only copy of the result is on the GPU: the screen can only get it by interop
  }
  return req;
}

Image opaque_input(const Case& c) {
  Image in = test::random_image(c.width, c.height, c.channels, c.type, 41);
  if (c.channels == 4)  // opaque, so that the frame shows the colour rather than a blend over the checkerboard
    for (int y = 0; y < c.height; ++y)
      for (int x = 0; x < c.width; ++x) {
        if (c.type == ElemType::U8) in.row<std::uint8_t>(y)[4 * x + 3] = 255;
        else in.row<float>(y)[4 * x + 3] = 1.0f;
      }
  return in;
}

// Every pixel of `frame` against the colour the CPU reference's value must show as (gray for one channel, the
// channels themselves for four), over `range`. u8 exact; f32 within one level (float rounding at level edges).
::testing::AssertionResult frame_shows(const Image& frame, const Image& expected, ui::ValueRange range) {
  const int tolerance = expected.type() == ElemType::U8 ? 0 : 1;
  int bad = 0;
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  for (int y = 0; y < expected.height(); ++y)
    for (int x = 0; x < expected.width(); ++x) {
      auto value = [&](int c) {
        return expected.type() == ElemType::U8 ? double(expected.row<std::uint8_t>(y)[expected.channels() * x + c])
                                               : double(expected.row<float>(y)[expected.channels() * x + c]);
      };
      test::Rgb want;
      for (int c = 0; c < 3; ++c) want[std::size_t(c)] = test::gray_of(value(expected.channels() == 1 ? 0 : c), range.min, range.max);
      if (auto ok = test::rgb_near(frame, x, y, want, tolerance); !ok && bad++ < 5) {
        if (result) result = ::testing::AssertionFailure();
        result << ok.message() << "\n";
      }
    }
  if (bad) result << bad << " pixels differ";
  return result;
}

class InteropFrame : public ::testing::TestWithParam<std::tuple<Case, ui::InteropWrite>> {};

TEST_P(InteropFrame, DeviceResultOnScreenMatchesTheCpuReference) {
  KS_REQUIRE_GPU();
  const auto& [c, method] = GetParam();
  const Image input = opaque_input(c);
  const StencilResult gpu = engine().run_stencil(input, request_for(c, Backend::Cuda));
  ASSERT_TRUE(gpu.output.empty()) << "download = false must leave no host copy";
  ASSERT_TRUE(gpu.output_device);
  const Image expected = engine().run_stencil(input, request_for(c, Backend::Cpu)).output;

  ui::FrameRenderer::Options options;
  options.interop_write = method;
  auto r = test::make_renderer(c.width, c.height, options);
  ASSERT_EQ(r.egl().platform_name(), "NVIDIA EGL device") << "on a GPU machine the NVIDIA EGL device is used";
  ui::DisplayFrame frame;
  frame.input = &input;
  frame.input_generation = 1;
  frame.output_device = gpu.output_device;
  frame.output_generation = 1;
  const ui::DisplayUpdate update = r.renderer().update(frame);
  ASSERT_TRUE(update.output_via_interop) << r.renderer().display_path();
  EXPECT_TRUE(r.renderer().interop_active());
  EXPECT_EQ(r.renderer().display_path(), std::string("CUDA-GL interop (") + ui::to_string(method) + ")");
  EXPECT_GT(update.output_ms, 0.0);

  ui::ViewState view = test::one_to_one_view(c.width, c.height);
  const ui::ValueRange range = ui::suggested_range(expected.shape(), c.type == ElemType::F32, &expected);
  view.range_min = range.min;
  view.range_max = range.max;
  EXPECT_TRUE(frame_shows(r.render(view, {}, 1), expected, range));
}

const Case kCases[] = {
    {"box", "radius=1", ElemType::U8, 1, 1, 1},
    {"box", "radius=2", ElemType::U8, 1, 1023, 7},
    {"gaussian", "sigma=2", ElemType::U8, 4, 641, 480},
    {"sobel", "output=dx", ElemType::F32, 1, 333, 222},  // signed: the range is symmetric about 0
    {"median", "radius=1", ElemType::F32, 4, 257, 129},
};

INSTANTIATE_TEST_SUITE_P(Gpu, InteropFrame,
                         ::testing::Combine(::testing::ValuesIn(kCases),
                                            ::testing::Values(ui::InteropWrite::ArrayCopy,
                                                              ui::InteropWrite::SurfaceWrite)),
                         [](const auto& info) {
                           return case_name(std::get<0>(info.param)) +
                                  (std::get<1>(info.param) == ui::InteropWrite::ArrayCopy ? "_copy" : "_surface");
                         });

TEST(InteropFrameTiles, EveryTileIsWrittenThroughInterop) {
  KS_REQUIRE_GPU();
  const Case c{"box", "radius=1", ElemType::U8, 4, 300, 200};
  const Image input = opaque_input(c);
  const StencilResult gpu = engine().run_stencil(input, request_for(c, Backend::Cuda));
  const Image expected = engine().run_stencil(input, request_for(c, Backend::Cpu)).output;
  for (ui::InteropWrite method : {ui::InteropWrite::ArrayCopy, ui::InteropWrite::SurfaceWrite}) {
    ui::FrameRenderer::Options options;
    options.max_texture_size = 128;  // 3 x 2 tiles, the last column and row partial
    options.interop_write = method;
    auto r = test::make_renderer(300, 200, options);
    ui::DisplayFrame frame;
    frame.output_device = gpu.output_device;
    frame.output_generation = 1;
    ASSERT_TRUE(r.renderer().update(frame).output_via_interop) << r.renderer().display_path();
    EXPECT_EQ(r.renderer().texture_count(), 6u);
    ui::ViewState view = test::one_to_one_view(300, 200);
    view.range_max = 255;  // u8 values shown as they are (the default range is that of f32 data, 0..1)
    EXPECT_TRUE(frame_shows(r.render(view, {}, 1), expected, {0, 255}));
  }
}

TEST(InteropFrameFallback, WithoutInteropTheDeviceResultIsDownloadedAndLooksTheSame) {
  KS_REQUIRE_GPU();
  const Case c{"sharpen", "", ElemType::U8, 1, 199, 101};
  const Image input = opaque_input(c);
  const StencilResult gpu = engine().run_stencil(input, request_for(c, Backend::Cuda));
  const Image expected = engine().run_stencil(input, request_for(c, Backend::Cpu)).output;
  ui::FrameRenderer::Options options;
  options.allow_interop = false;
  auto r = test::make_renderer(199, 101, options);
  ui::DisplayFrame frame;
  frame.output_device = gpu.output_device;
  frame.output_generation = 1;
  const ui::DisplayUpdate update = r.renderer().update(frame);
  EXPECT_FALSE(update.output_via_interop);
  EXPECT_EQ(r.renderer().display_path(), "host upload (via a download): CUDA-GL interop is turned off");
  ui::ViewState view = test::one_to_one_view(199, 101);
  view.range_max = 255;
  EXPECT_TRUE(frame_shows(r.render(view, {}, 1), expected, {0, 255}));
}

TEST(InteropFrameDevice, TheEglContextRunsOnTheCudaDevice) {
  KS_REQUIRE_GPU();
  ui::EglContext egl;
  EXPECT_EQ(egl.platform_name(), "NVIDIA EGL device");
  EXPECT_EQ(ui::interop_unavailable_reason(0), "") << egl.gl_renderer();
}

}  // namespace
}  // namespace ks
