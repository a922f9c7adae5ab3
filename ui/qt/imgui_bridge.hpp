#pragma once
// Qt's input events as Dear ImGui 1.86 wants them: mouse position and buttons, wheel, keys through io.KeysDown /
// io.KeyMap (1.86 predates io.AddKeyEvent), modifiers, typed text, focus. Positions stay in Qt's logical pixels,
// which is what ImGuiLayer::begin_frame gives ImGui as the display size; the device pixel ratio only scales the
// framebuffer. No widget here: the viewport forwards its events, the tests build events by hand.
#include <Qt>

#include <bitset>

struct ImGuiIO;
class QKeyEvent;
class QMouseEvent;
class QPointF;
class QWheelEvent;

namespace ks::ui::qt {

// The io.KeysDown index of a Qt key, or -1 for keys ImGui has no use for. The indices are ImGuiKey_* values,
// so io.KeyMap is the identity (see install_key_map).
int imgui_key_index(int qt_key);
// io.KeyMap[k] = k for every ImGuiKey_.
void install_key_map(ImGuiIO& io);
// 0 left, 1 right, 2 middle, 3 back, 4 forward (io.MouseDown's order), -1 for other buttons.
int imgui_mouse_button(Qt::MouseButton button);
// Qt reports wheels in eighths of a degree, 120 per notch; ImGui counts notches.
float wheel_notches(int angle_delta);

// ImGui 1.86 reads io.MouseDown and io.KeysDown once per frame (in NewFrame): a button or key pressed and
// released between two frames (a quick click, a tap on a touchpad, a fast key) would never be seen. Releases of
// presses no frame has seen yet wait here until one has (apply_pending_releases).
struct PendingReleases {
  std::bitset<5> mouse_unseen, mouse_release;
  std::bitset<512> key_unseen, key_release;
};

void feed_mouse_position(ImGuiIO& io, const QPointF& logical_position);
void feed_mouse_button(ImGuiIO& io, const QMouseEvent& event, bool pressed, PendingReleases& pending);
void feed_wheel(ImGuiIO& io, const QWheelEvent& event);
// Key state, modifiers and, on a press, the typed text (control characters are keys, not text).
void feed_key(ImGuiIO& io, const QKeyEvent& event, bool pressed, PendingReleases& pending);
// Call right after ImGui::NewFrame (ImGuiLayer::begin_frame): the presses are seen now, so the releases held for
// them apply and the next frame sees them. True when there were any: draw that next frame.
bool apply_pending_releases(ImGuiIO& io, PendingReleases& pending);
void feed_modifiers(ImGuiIO& io, Qt::KeyboardModifiers modifiers);
// The pointer left the widget: ImGui must not think it still hovers a panel.
void feed_mouse_left(ImGuiIO& io);
// Losing focus releases every key and button ImGui thinks is held (their releases go to another window).
void feed_focus(ImGuiIO& io, bool focused);

}  // namespace ks::ui::qt
