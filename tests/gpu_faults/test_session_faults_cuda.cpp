// A user's kernel that faults in the desktop app's session: the session keeps running with the message, the next
// good kernel runs, and from then on the frames the session hands the display refuse CUDA-GL interop (after a GPU
// fault this driver draws interop frames black), so that the built-in's device result reaches the screen through
// the host, right. Only with KS_GPU_FAULT_TESTS=1 (KS_REQUIRE_GPU_FAULTS).
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "session/session.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_compiled.hpp"
#include "support/user_kernel_sources.hpp"

#ifdef KS_HAVE_HEADLESS
#include "render_test_support.hpp"
#endif

namespace ks::app {
namespace {

const char kFault[] = R"(// @family stencil
__global__ void fault(ks::InImage<unsigned char> in, ks::OutImage<unsigned char> out) {
  out.data[-(1ll << 40) + ks::global_x()] = 1;
}
)";

UserStencilChoice user_choice(const std::string& name, const char* source, std::vector<double> params) {
  return {test::compiled_kernel(name, source), name, std::move(params)};
}

TEST(SessionUserKernelFaultsCuda, AFaultLeavesTheSessionRunningAndLaterFramesGoThroughTheHost) {
  KS_REQUIRE_GPU_FAULTS();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  s.open_sample();
  s.set_element_type(ElemType::U8);
  s.set_backend(Backend::Cuda);
  s.select_kernel("box");
  s.set_param("radius", "1");
  s.run_now();
  ASSERT_TRUE(s.display_frame().output_device) << "the built-in's CUDA result stays on the GPU";
  EXPECT_TRUE(s.display_frame().interop_refused.empty());

  s.use_user_kernel(user_choice("fault.cu", kFault, {}));
  try {
    s.run_now();
    ADD_FAILURE() << "the fault came back as no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("illegal address"), std::string::npos) << e.what();
  }
  s.use_user_kernel(user_choice("smooth_u8.cu", test::kSmoothU8WithBias, {0}));
  s.run_now();
  EXPECT_EQ(s.stencil().last_report()->variant, "yours");

  s.use_user_kernel(std::nullopt);
  s.run_now();
  const ui::DisplayFrame frame = s.display_frame();
  ASSERT_TRUE(frame.output_device);
  EXPECT_NE(frame.interop_refused.find("your kernel"), std::string::npos) << frame.interop_refused;

#ifdef KS_HAVE_HEADLESS
  // The display takes the refusal: the device result comes down and up, and shows the built-in's pixels.
  const Image expected = s.output_on_host();
  auto r = test::make_renderer(expected.width(), expected.height());
  const ui::DisplayUpdate update = r.renderer().update(frame);
  EXPECT_FALSE(update.output_via_interop);
  EXPECT_NE(r.renderer().display_path().find("host upload (via a download): CUDA-GL interop is off"),
            std::string::npos)
      << r.renderer().display_path();
  ui::ViewState view = test::one_to_one_view(expected.width(), expected.height());
  view.range_min = 0;
  view.range_max = 255;
  const Image shown = r.render(view, {}, 1);
  int differing = 0;
  for (int y = 0; y < expected.height(); y += 7)
    for (int x = 0; x < expected.width(); x += 5) {
      const std::uint8_t* px = expected.row<std::uint8_t>(y) + expected.channels() * x;
      const test::Rgb want = expected.channels() == 1 ? test::Rgb{px[0], px[0], px[0]} : test::Rgb{px[0], px[1], px[2]};
      if (!test::rgb_near(shown, x, y, want)) ++differing;
    }
  EXPECT_EQ(differing, 0);
#endif
}

}  // namespace
}  // namespace ks::app
