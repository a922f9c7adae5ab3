#include "qt/imgui_bridge.hpp"

#include <imgui.h>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <cfloat>

namespace ks::ui::qt {

int imgui_key_index(int qt_key) {
  switch (qt_key) {
    case Qt::Key_Tab: return ImGuiKey_Tab;
    case Qt::Key_Left: return ImGuiKey_LeftArrow;
    case Qt::Key_Right: return ImGuiKey_RightArrow;
    case Qt::Key_Up: return ImGuiKey_UpArrow;
    case Qt::Key_Down: return ImGuiKey_DownArrow;
    case Qt::Key_PageUp: return ImGuiKey_PageUp;
    case Qt::Key_PageDown: return ImGuiKey_PageDown;
    case Qt::Key_Home: return ImGuiKey_Home;
    case Qt::Key_End: return ImGuiKey_End;
    case Qt::Key_Insert: return ImGuiKey_Insert;
    case Qt::Key_Delete: return ImGuiKey_Delete;
    case Qt::Key_Backspace: return ImGuiKey_Backspace;
    case Qt::Key_Space: return ImGuiKey_Space;
    case Qt::Key_Return: return ImGuiKey_Enter;
    case Qt::Key_Escape: return ImGuiKey_Escape;
    case Qt::Key_Enter: return ImGuiKey_KeyPadEnter;  // Qt's Key_Enter is the keypad's
    // Letters for ImGui's text editing shortcuts (Ctrl+A, C, V, X, Y, Z).
    case Qt::Key_A: return ImGuiKey_A;
    case Qt::Key_C: return ImGuiKey_C;
    case Qt::Key_V: return ImGuiKey_V;
    case Qt::Key_X: return ImGuiKey_X;
    case Qt::Key_Y: return ImGuiKey_Y;
    case Qt::Key_Z: return ImGuiKey_Z;
    default: return -1;
  }
}

void install_key_map(ImGuiIO& io) {
  for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;
}

int imgui_mouse_button(Qt::MouseButton button) {
  switch (button) {
    case Qt::LeftButton: return 0;
    case Qt::RightButton: return 1;
    case Qt::MiddleButton: return 2;
    case Qt::BackButton: return 3;
    case Qt::ForwardButton: return 4;
    default: return -1;
  }
}

float wheel_notches(int angle_delta) { return float(angle_delta) / 120.0f; }

void feed_mouse_position(ImGuiIO& io, const QPointF& p) { io.MousePos = ImVec2(float(p.x()), float(p.y())); }

namespace {

// A press is down at once; its release waits while no frame has seen the press.
template <std::size_t N>
void press_or_release(bool& down, std::size_t i, bool pressed, std::bitset<N>& unseen, std::bitset<N>& release) {
  if (pressed) {
    down = true;
    unseen.set(i);
    release.reset(i);
  } else if (unseen.test(i)) {
    release.set(i);
  } else {
    down = false;
  }
}

}  // namespace

void feed_mouse_button(ImGuiIO& io, const QMouseEvent& e, bool pressed, PendingReleases& pending) {
  feed_mouse_position(io, e.position());
  feed_modifiers(io, e.modifiers());
  const int b = imgui_mouse_button(e.button());
  if (b >= 0) press_or_release(io.MouseDown[b], std::size_t(b), pressed, pending.mouse_unseen, pending.mouse_release);
}

bool apply_pending_releases(ImGuiIO& io, PendingReleases& pending) {
  const bool any = pending.mouse_release.any() || pending.key_release.any();
  for (std::size_t b = 0; b < pending.mouse_release.size(); ++b)
    if (pending.mouse_release.test(b)) io.MouseDown[b] = false;
  for (std::size_t k = 0; k < pending.key_release.size(); ++k)
    if (pending.key_release.test(k)) io.KeysDown[k] = false;
  pending = PendingReleases{};
  return any;
}

void feed_wheel(ImGuiIO& io, const QWheelEvent& e) {
  feed_mouse_position(io, e.position());
  const QPoint angle = e.angleDelta();
  if (!angle.isNull()) {
    io.MouseWheel += wheel_notches(angle.y());
    io.MouseWheelH += wheel_notches(angle.x());
  } else {
    // Touchpads without angle deltas report pixels; about 40 of them feel like one notch.
    io.MouseWheel += float(e.pixelDelta().y()) / 40.0f;
    io.MouseWheelH += float(e.pixelDelta().x()) / 40.0f;
  }
}

void feed_modifiers(ImGuiIO& io, Qt::KeyboardModifiers m) {
  io.KeyCtrl = m.testFlag(Qt::ControlModifier);
  io.KeyShift = m.testFlag(Qt::ShiftModifier);
  io.KeyAlt = m.testFlag(Qt::AltModifier);
  io.KeySuper = m.testFlag(Qt::MetaModifier);
}

void feed_key(ImGuiIO& io, const QKeyEvent& e, bool pressed, PendingReleases& pending) {
  feed_modifiers(io, e.modifiers());
  const int k = imgui_key_index(e.key());
  if (k >= 0) press_or_release(io.KeysDown[k], std::size_t(k), pressed, pending.key_unseen, pending.key_release);
  if (!pressed) return;
  // Backspace, Enter, Tab and Ctrl+letter arrive with control characters as text: they are keys.
  const QString text = e.text();
  for (QChar c : text)
    if (c.unicode() < 0x20 || c.unicode() == 0x7f) return;
  if (!text.isEmpty()) io.AddInputCharactersUTF8(text.toUtf8().constData());
}

void feed_mouse_left(ImGuiIO& io) { io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX); }

void feed_focus(ImGuiIO& io, bool focused) {
  io.AddFocusEvent(focused);
  if (focused) return;
  for (bool& k : io.KeysDown) k = false;
  for (bool& b : io.MouseDown) b = false;
  io.KeyCtrl = io.KeyShift = io.KeyAlt = io.KeySuper = false;
}

}  // namespace ks::ui::qt
