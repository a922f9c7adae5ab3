// The Qt -> ImGui bridge (ui/qt/imgui_bridge): Qt's events, built by hand as the viewport receives them, reach
// ImGuiIO as ImGui 1.86 wants them, and ImGui acts on them: a click over a button presses it, a wheel over a
// panel scrolls it, typed text lands in a text field, a panel takes the mouse only while the pointer is over it,
// and at a device pixel ratio of 2 the positions stay in logical pixels. The frames run in a headless EGL
// context (Mesa in CI) with the app's ImGuiLayer; no window, no display.
#include <imgui.h>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <cfloat>
#include <functional>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "headless/egl_context.hpp"
#include "headless/offscreen_target.hpp"
#include "imgui/imgui_layer.hpp"
#include "qt/imgui_bridge.hpp"

namespace ks::ui::qt {
namespace {

QMouseEvent mouse(QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::KeyboardModifiers mods = {}) {
  const Qt::MouseButtons held = type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::MouseButtons(button);
  return QMouseEvent(type, pos, pos, pos, button, held, mods);
}

QWheelEvent wheel(QPointF pos, QPoint angle, QPoint pixels = {}) {
  return QWheelEvent(pos, pos, pixels, angle, Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
}

QKeyEvent key(QEvent::Type type, int k, Qt::KeyboardModifiers mods = {}, const QString& text = {}) {
  return QKeyEvent(type, k, mods, text);
}

// ---- the translation alone ----

TEST(ImGuiBridge, MapsQtKeysAndButtonsToImGuisIndices) {
  EXPECT_EQ(imgui_key_index(Qt::Key_Backspace), ImGuiKey_Backspace);
  EXPECT_EQ(imgui_key_index(Qt::Key_Return), ImGuiKey_Enter);
  EXPECT_EQ(imgui_key_index(Qt::Key_Enter), ImGuiKey_KeyPadEnter);
  EXPECT_EQ(imgui_key_index(Qt::Key_Left), ImGuiKey_LeftArrow);
  EXPECT_EQ(imgui_key_index(Qt::Key_A), ImGuiKey_A);
  EXPECT_EQ(imgui_key_index(Qt::Key_F), -1) << "keys ImGui has no use for stay the window's shortcuts";
  EXPECT_EQ(imgui_mouse_button(Qt::LeftButton), 0);
  EXPECT_EQ(imgui_mouse_button(Qt::RightButton), 1);
  EXPECT_EQ(imgui_mouse_button(Qt::MiddleButton), 2);
  EXPECT_EQ(imgui_mouse_button(Qt::ExtraButton5), -1);
  EXPECT_FLOAT_EQ(wheel_notches(120), 1.0f);
  EXPECT_FLOAT_EQ(wheel_notches(-60), -0.5f);
}

// ImGui's io without a frame: what each event leaves in it.
class BridgeIo : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = ImGui::CreateContext();
    install_key_map(io());
  }
  void TearDown() override { ImGui::DestroyContext(context_); }
  ImGuiIO& io() { return ImGui::GetIO(); }
  PendingReleases pending_;

 private:
  ImGuiContext* context_ = nullptr;
};

TEST_F(BridgeIo, MouseButtonsAndPositionFollowPressAndRelease) {
  const auto press = mouse(QEvent::MouseButtonPress, {12.5, 40.25}, Qt::RightButton, Qt::ShiftModifier);
  feed_mouse_button(io(), press, true, pending_);
  EXPECT_FLOAT_EQ(io().MousePos.x, 12.5f);
  EXPECT_FLOAT_EQ(io().MousePos.y, 40.25f);
  EXPECT_TRUE(io().MouseDown[1]);
  EXPECT_FALSE(io().MouseDown[0]);
  EXPECT_TRUE(io().KeyShift);
  apply_pending_releases(io(), pending_);  // a frame saw the press
  feed_mouse_button(io(), mouse(QEvent::MouseButtonRelease, {13, 41}, Qt::RightButton), false, pending_);
  EXPECT_FALSE(io().MouseDown[1]);
  EXPECT_FALSE(io().KeyShift);
  EXPECT_FLOAT_EQ(io().MousePos.x, 13.0f);
}

TEST_F(BridgeIo, AReleaseBeforeAnyFrameSawThePressWaitsForOne) {
  feed_mouse_button(io(), mouse(QEvent::MouseButtonPress, {3, 3}, Qt::LeftButton), true, pending_);
  feed_mouse_button(io(), mouse(QEvent::MouseButtonRelease, {3, 3}, Qt::LeftButton), false, pending_);
  feed_key(io(), key(QEvent::KeyPress, Qt::Key_Return), true, pending_);
  feed_key(io(), key(QEvent::KeyRelease, Qt::Key_Return), false, pending_);
  EXPECT_TRUE(io().MouseDown[0]) << "the next frame must see the press";
  EXPECT_TRUE(io().KeysDown[ImGuiKey_Enter]);
  EXPECT_TRUE(apply_pending_releases(io(), pending_));  // what the viewport does after NewFrame
  EXPECT_FALSE(io().MouseDown[0]);
  EXPECT_FALSE(io().KeysDown[ImGuiKey_Enter]);
  EXPECT_FALSE(apply_pending_releases(io(), pending_)) << "nothing left to release";
  // A press a frame has seen is released at once.
  feed_mouse_button(io(), mouse(QEvent::MouseButtonPress, {3, 3}, Qt::LeftButton), true, pending_);
  apply_pending_releases(io(), pending_);
  feed_mouse_button(io(), mouse(QEvent::MouseButtonRelease, {3, 3}, Qt::LeftButton), false, pending_);
  EXPECT_FALSE(io().MouseDown[0]);
}

TEST_F(BridgeIo, WheelCountsNotchesOrPixelsAndAddsUp) {
  feed_wheel(io(), wheel({5, 5}, {0, 240}));
  feed_wheel(io(), wheel({5, 5}, {0, -120}));
  EXPECT_FLOAT_EQ(io().MouseWheel, 1.0f);
  feed_wheel(io(), wheel({5, 5}, {120, 0}));
  EXPECT_FLOAT_EQ(io().MouseWheelH, 1.0f);
  // A touchpad that reports only pixels: about 40 of them per notch.
  feed_wheel(io(), wheel({5, 5}, {}, {0, 80}));
  EXPECT_FLOAT_EQ(io().MouseWheel, 3.0f);
}

TEST_F(BridgeIo, KeysSetTheirStateAndOnlyPrintableTextIsQueued) {
  feed_key(io(), key(QEvent::KeyPress, Qt::Key_Backspace, {}, "\b"), true, pending_);
  EXPECT_TRUE(io().KeysDown[ImGuiKey_Backspace]);
  EXPECT_EQ(io().InputQueueCharacters.Size, 0) << "Backspace is a key, not text";
  apply_pending_releases(io(), pending_);
  feed_key(io(), key(QEvent::KeyRelease, Qt::Key_Backspace), false, pending_);
  EXPECT_FALSE(io().KeysDown[ImGuiKey_Backspace]);

  feed_key(io(), key(QEvent::KeyPress, Qt::Key_A, Qt::ControlModifier, "\x01"), true, pending_);
  EXPECT_TRUE(io().KeyCtrl);
  EXPECT_TRUE(io().KeysDown[ImGuiKey_A]);
  EXPECT_EQ(io().InputQueueCharacters.Size, 0) << "Ctrl+A selects; it types nothing";
  feed_key(io(), key(QEvent::KeyRelease, Qt::Key_A), false, pending_);

  feed_key(io(), key(QEvent::KeyPress, Qt::Key_Eacute, {}, QString::fromUtf8("\xc3\xa9")), true, pending_);
  ASSERT_EQ(io().InputQueueCharacters.Size, 1);
  EXPECT_EQ(io().InputQueueCharacters[0], ImWchar(0xe9));
  EXPECT_FALSE(io().KeyCtrl);
}

TEST_F(BridgeIo, LosingFocusReleasesEverythingAndLeavingHidesThePointer) {
  feed_mouse_button(io(), mouse(QEvent::MouseButtonPress, {1, 1}, Qt::LeftButton, Qt::AltModifier), true, pending_);
  feed_key(io(), key(QEvent::KeyPress, Qt::Key_Left, Qt::AltModifier), true, pending_);
  feed_focus(io(), false);
  EXPECT_FALSE(io().MouseDown[0]);
  EXPECT_FALSE(io().KeysDown[ImGuiKey_LeftArrow]);
  EXPECT_FALSE(io().KeyAlt);
  feed_mouse_left(io());
  EXPECT_EQ(io().MousePos.x, -FLT_MAX);
}

// ---- events through ImGui frames ----

// One ImGui frame per call, in a headless GL context, with a panel of fixed place and size: a window at
// (100, 50) logical pixels, 200 x 150, holding a button, a text field and enough lines to scroll.
class BridgeFrames : public ::testing::Test {
 protected:
  static constexpr float kWidth = 640, kHeight = 400;

  void SetUp() override {
    try {
      EglContext::Options o;
      o.platform = egl_platform_from_environment();
      egl_ = std::make_unique<EglContext>(o);
    } catch (const std::exception& e) {
      GTEST_SKIP() << "no headless GL context: " << e.what();
    }
  }
  void TearDown() override {
    layer_.reset();
    target_.reset();
    egl_.reset();
  }

  // Starts the layer for a device pixel ratio: the framebuffer is the logical size times it.
  void start(float ratio) {
    ratio_ = ratio;
    target_ = std::make_unique<OffscreenTarget>(int(kWidth * ratio), int(kHeight * ratio));
    layer_ = std::make_unique<ImGuiLayer>();
    install_key_map(layer_->io());
    frame();  // ImGui places and sizes a new window over its first frames
    frame();
  }

  void frame() {
    target_->bind();
    layer_->begin_frame(kWidth, kHeight, ratio_, 1.0f / 60.0f);
    apply_pending_releases(io(), pending_);
    ImGui::SetNextWindowPos(ImVec2(100, 50), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(200, 150), ImGuiCond_Always);
    ImGui::Begin("panel", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove);
    if (ImGui::Button("press", ImVec2(120, 30))) ++clicks_;
    button_min_ = ImGui::GetItemRectMin();
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s", text_.c_str());
    if (ImGui::InputText("##text", buffer, sizeof buffer)) text_ = buffer;
    text_min_ = ImGui::GetItemRectMin();
    for (int i = 0; i < 40; ++i) ImGui::Text("line %d", i);
    scroll_y_ = ImGui::GetScrollY();
    ImGui::End();
    wants_mouse_ = layer_->io().WantCaptureMouse;
    wants_text_ = layer_->io().WantTextInput;
    layer_->end_frame_and_render();
  }

  // A click as the viewport forwards it: move, press, (a frame), release, (a frame).
  void click(QPointF pos) {
    feed_mouse_position(io(), pos);
    frame();
    feed_mouse_button(io(), mouse(QEvent::MouseButtonPress, pos, Qt::LeftButton), true, pending_);
    frame();
    feed_mouse_button(io(), mouse(QEvent::MouseButtonRelease, pos, Qt::LeftButton), false, pending_);
    frame();
  }

  ImGuiIO& io() { return layer_->io(); }

  PendingReleases pending_;
  std::unique_ptr<EglContext> egl_;
  std::unique_ptr<OffscreenTarget> target_;
  std::unique_ptr<ImGuiLayer> layer_;
  float ratio_ = 1;
  int clicks_ = 0;
  std::string text_;
  float scroll_y_ = 0;
  bool wants_mouse_ = false, wants_text_ = false;
  ImVec2 button_min_, text_min_;
};

TEST_F(BridgeFrames, AClickOverAButtonPressesItAndOnlyThePanelTakesTheMouse) {
  start(1.0f);
  click({button_min_.x + 10, button_min_.y + 10});
  EXPECT_EQ(clicks_, 1);
  EXPECT_TRUE(wants_mouse_) << "the pointer is over the panel";
  click({20, 20});  // the image, outside the panel
  EXPECT_EQ(clicks_, 1);
  EXPECT_FALSE(wants_mouse_) << "outside the panel the viewport pans and zooms";
}

TEST_F(BridgeFrames, AQuickClickBetweenTwoFramesStillPressesTheButton) {
  start(1.0f);
  const QPointF at(button_min_.x + 10, button_min_.y + 10);
  feed_mouse_position(io(), at);
  frame();
  feed_mouse_button(io(), mouse(QEvent::MouseButtonPress, at, Qt::LeftButton), true, pending_);
  feed_mouse_button(io(), mouse(QEvent::MouseButtonRelease, at, Qt::LeftButton), false, pending_);
  frame();  // sees the press
  frame();  // sees the release: a click
  EXPECT_EQ(clicks_, 1);
}

TEST_F(BridgeFrames, AtDevicePixelRatioTwoPositionsStayLogical) {
  start(2.0f);
  EXPECT_FLOAT_EQ(button_min_.x, 108.0f) << "laid out in logical pixels: the window's x plus its padding";
  click({button_min_.x + 110, button_min_.y + 25});  // inside the 120 x 30 button only in logical pixels
  EXPECT_EQ(clicks_, 1);
  EXPECT_EQ(io().DisplayFramebufferScale.x, 2.0f);
  click({(button_min_.x + 110) * 2, (button_min_.y + 25) * 2});  // framebuffer pixels would miss the panel
  EXPECT_EQ(clicks_, 1);
}

TEST_F(BridgeFrames, TheWheelOverAPanelScrollsIt) {
  start(1.0f);
  feed_mouse_position(io(), {200, 150});
  frame();
  feed_wheel(io(), wheel({200, 150}, {0, -240}));  // two notches down
  frame();
  frame();
  EXPECT_GT(scroll_y_, 0.0f);
}

TEST_F(BridgeFrames, TypedTextGoesIntoTheFocusedFieldAndBackspaceErasesIt) {
  start(1.0f);
  click({text_min_.x + 5, text_min_.y + 5});
  EXPECT_TRUE(wants_text_) << "the field has the keyboard: the window's shortcuts must not fire";
  for (const char* c : {"4", "2", "x"}) {
    feed_key(io(), key(QEvent::KeyPress, QChar(c[0]).toUpper().unicode(), {}, c), true, pending_);
    frame();
    feed_key(io(), key(QEvent::KeyRelease, QChar(c[0]).toUpper().unicode()), false, pending_);
    frame();
  }
  EXPECT_EQ(text_, "42x");
  feed_key(io(), key(QEvent::KeyPress, Qt::Key_Backspace, {}, "\b"), true, pending_);
  frame();
  feed_key(io(), key(QEvent::KeyRelease, Qt::Key_Backspace), false, pending_);
  frame();
  EXPECT_EQ(text_, "42");
}

}  // namespace
}  // namespace ks::ui::qt
