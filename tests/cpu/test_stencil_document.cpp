// The stencil document on its own, without a Session: an engine, a worker and the hooks are all it needs, which
// is the seam another document (a user's own kernel) will use. Its runs give the engine's pixels, advance the
// shared display generations, and are dropped when the owner says it does not take results.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "session/stencil/stencil_document.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

// A document with what a Session would lend it, counting the hooks' calls.
struct Fixture {
  Engine engine{Engine::Options{2}};
  Worker worker{[](const std::string&, std::exception_ptr) {}};
  DeviceStatus device;  // no CUDA: the CPU backend only
  DisplayGenerations generations;
  int inputs_changed = 0;
  std::vector<Notice> notices;
  bool takes_results = true;
  StencilDocument doc;

  Fixture() : doc(engine, worker, device, generations, options(), hooks()) {
    device.unavailable_reason = "switched off for the test";
  }

  static StencilDocument::Options options() {
    StencilDocument::Options o;
    o.repeat = 2;
    o.now = [] { return StencilDocument::Clock::now(); };
    o.started = StencilDocument::Clock::now();
    return o;
  }
  StencilDocument::Hooks hooks() {
    StencilDocument::Hooks h;
    h.notify = [this](Notice::Level level, Notice::Source source, std::string text) {
      notices.push_back({level, source, std::move(text)});
    };
    h.input_changed = [this] { ++inputs_changed; };
    h.takes_results = [this] { return takes_results; };
    return h;
  }
  // Chooses `kernel` on the CPU backend with its defaults but for `params`; returns the parameters chosen.
  ParamSet request(const std::string& kernel, const std::vector<std::string>& params) {
    KernelChoice c;
    c.kernel = &KernelRegistry::builtin().get(kernel);
    c.params = c.kernel->default_params();
    for (const auto& a : params) c.params.set_assignment(a);
    doc.set_request(c);
    return c.params;
  }
  // What Session::run_now does: start, wait, apply what the worker posted.
  void run() {
    const std::uint64_t ticket = doc.start_run();
    worker.wait_idle();
    for (auto& apply : worker.take_posted()) apply();
    doc.throw_if_failed(ticket);
  }
};

TEST(StencilDocument, RunsOnItsOwnWithTheEnginesPixelsAtOddSizes) {
  test::TempDir dir;
  for (auto [w, h] : {std::pair{1, 1}, std::pair{1023, 7}, std::pair{37, 129}}) {
    save_image(test::random_image(w, h, 3, ElemType::U8, std::uint32_t(w * 7 + h)), dir / "in.png");
    const Image loaded = load_image(dir / "in.png");
    Fixture f;
    f.doc.open_image(dir / "in.png");
    f.doc.set_element_type(ElemType::F32);
    EXPECT_EQ(f.inputs_changed, 2) << "the image, then its element type";
    EXPECT_EQ(f.generations.input, 2u);
    StencilRequest alone;  // what the engine alone makes of the same image and parameters
    alone.kernel = "sobel";
    alone.params = f.request("sobel", {"output=dy"});
    const Image expected = f.engine.run_stencil(prepare_stencil_input(loaded, ElemType::F32), alone).output;
    f.run();
    ASSERT_NE(f.doc.output(), nullptr);
    EXPECT_TRUE(test::images_match(*f.doc.output(), expected)) << w << "x" << h;
    EXPECT_TRUE(f.doc.output_signed()) << "an f32 derivative is signed";
    EXPECT_EQ(f.generations.output, 1u);
    EXPECT_EQ(f.doc.runs_applied(), 1u);
    ASSERT_EQ(f.doc.history().of("sobel").size(), 1u);
    ASSERT_TRUE(f.doc.cpu_reference());
    EXPECT_TRUE(f.doc.cpu_reference()->identical);
    EXPECT_EQ(f.doc.loaded_shape().width, w);
    EXPECT_TRUE(f.notices.empty());
  }
}

TEST(StencilDocument, ARunThatEndsWhileItsOwnerTakesNoResultsIsDropped) {
  Fixture f;
  f.doc.open_sample();
  f.request("box", {"radius=3"});
  f.takes_results = false;  // the Session's lab is chosen while the run goes
  f.run();
  EXPECT_FALSE(f.doc.has_output());
  EXPECT_EQ(f.doc.runs_applied(), 0u);
  EXPECT_TRUE(f.doc.history().empty());
  EXPECT_EQ(f.generations.output, 0u);
}

TEST(StencilDocument, WithoutAnImageARunIsRefusedAndTheLaunchSaysWhy) {
  Fixture f;
  f.request("box", {});
  try {
    f.doc.start_run();
    FAIL() << "a run without an image must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("no image"), std::string::npos) << e.full_message();
  }
  EXPECT_EQ(f.doc.launch_info().problem, "CPU backend in use: switched off for the test");
  EXPECT_THROW(f.doc.start_sweep(), Error);
}

}  // namespace
}  // namespace ks::app
