#include "qt/viewport_widget.hpp"

#include <imgui.h>

#include <QFocusEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "imgui/imgui_layer.hpp"
#include "imgui/legend.hpp"
#include "panels/image_overlays.hpp"
#include "qt/imgui_bridge.hpp"
#include "qt/simulation_brush.hpp"
#include "render/frame_renderer.hpp"
#include "render/gl/gl_api.hpp"
#include "render/pixel_probe.hpp"
#include "session/session.hpp"

namespace ks::ui::qt {

namespace {

constexpr double kWheelZoomStep = 1.25;     // per notch
constexpr double kSplitGrabPoints = 6;      // how close to the split line a press grabs it
constexpr double kFramesAfterChangeS = 0.5;  // ImGui's layout, hover and click states settle over a few frames

}  // namespace

ViewportWidget::ViewportWidget(app::Session& session, PanelState& panels, QWidget* parent)
    : QOpenGLWidget(parent), session_(session), panels_(panels) {
  setMouseTracking(true);  // moves without a button: the pixel inspector and ImGui's hover
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(320, 240);
  panels_.view = &view_;
  clock_.start();
}

ViewportWidget::~ViewportWidget() {
  panels_.view = nullptr;
  release_gl();
}

void ViewportWidget::release_gl() {
  if (!renderer_ && !imgui_) return;
  // GL objects go with the context they were made in.
  makeCurrent();
  imgui_.reset();
  renderer_.reset();
  doneCurrent();
}

void ViewportWidget::initializeGL() {
  try {
    renderer_ = std::make_unique<FrameRenderer>();
    ImGuiLayer::Options options;
    options.appearance = appearance_;
    imgui_ = std::make_unique<ImGuiLayer>(options);
    install_key_map(imgui_->io());
    gl_renderer_ = gl::renderer_name();
    gl_version_ = gl::version_text();
  } catch (const Error& e) {
    renderer_.reset();
    imgui_.reset();
    last_error_ = e.full_message();
    emit render_error(QString::fromStdString("the viewport cannot draw: " + last_error_));
  }
  // The context can go away (the widget moves to another window): free our GL objects while it still exists.
  // initializeGL runs again for a new context, which needs its own connection.
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &ViewportWidget::release_gl);
}

Size2 ViewportWidget::framebuffer_size() const {
  const double r = devicePixelRatioF();
  return {int(std::lround(width() * r)), int(std::lround(height() * r))};
}

Vec2 ViewportWidget::to_screen(const QPointF& p) const {
  const double r = devicePixelRatioF();
  return {p.x() * r, p.y() * r};
}

bool ViewportWidget::panels_want_mouse() const { return imgui_ && imgui_->io().WantCaptureMouse; }

void ViewportWidget::keep_drawing() { last_change_s_ = double(clock_.nsecsElapsed()) * 1e-9; }

void ViewportWidget::note_input() {
  keep_drawing();
  update();
}

namespace {

Size2 shown_image_size(const DisplayFrame& f) {
  const ImageShape shape = shown_image_shape(f);
  return {shape.width, shape.height};
}

bool same_place(const ViewState& a, const ViewState& b) {
  return a.zoom == b.zoom && a.center_x == b.center_x && a.center_y == b.center_y;
}

}  // namespace

void ViewportWidget::fit() {
  const Size2 image = shown_image_size(session_.display_frame());
  if (image.width <= 0 || image.height <= 0) return;
  // The sidebar covers the right edge: fit the image into the area left of it.
  view_ = fit_beside_panels(view_, image, framebuffer_size(), panels_, devicePixelRatioF());
  fitted_image_ = image;
  fitted_view_ = view_;
  update();
}

void ViewportWidget::set_appearance(const Appearance& a) {
  check_appearance(a);
  if (imgui_) {
    makeCurrent();
    imgui_->set_appearance(a);
    doneCurrent();
  }
  const bool was_fitted = fitted_view_ && fitted_view_->zoom == view_.zoom &&
                          fitted_view_->center_x == view_.center_x && fitted_view_->center_y == view_.center_y;
  appearance_ = a;
  panels_.text_scale = a.font_size / Appearance::kDefaultFontSize;
  if (was_fitted) fit();  // the sidebar's width changed with the text
  update();
}

std::string ViewportWidget::panel_font_name() const { return imgui_ ? imgui_->font_name() : std::string(); }

void ViewportWidget::one_to_one() {
  // Around the centre of the free area, as zoom_by does: ui::one_to_one keeps the centre of the whole viewport,
  // which lies under the sidebar.
  if (view_.zoom > 0) zoom_by(1.0 / double(view_.zoom));
  view_.zoom = 1.0f;  // exactly, whatever the rounding of the factor
  update();
}

void ViewportWidget::panels_toggled(bool was_visible) {
  const bool was_fitted = fitted_view_ && same_place(*fitted_view_, view_);
  if (was_fitted && was_visible != panels_.visible) fit();
  update();
}

void ViewportWidget::zoom_by(double factor) {
  const Size2 fb = framebuffer_size();
  const double covered = panels_width(panels_, float(width())) * devicePixelRatioF();
  view_ = zoom_around(view_, fb, factor, {(fb.width - covered) / 2, fb.height / 2.0});
  update();
}

void ViewportWidget::set_launch_grid(bool on) {
  view_.show_launch_grid = on;
  update();
}

void ViewportWidget::set_split(bool on) {
  // Turned on, the line starts in the middle of the part of the viewport the sidebar leaves free.
  if (on && !view_.split) view_.split_position = 0.5f;
  view_.split = on;
  update();
}

float ViewportWidget::free_width() const {
  const float logical = std::max(0.0f, float(width()) - panels_width(panels_, float(width())));
  return logical * float(devicePixelRatioF());
}

void ViewportWidget::fit_if_new_input() {
  const DisplayFrame f = session_.display_frame();
  const std::uint64_t g = f.input_generation;
  const Size2 image = shown_image_size(f);
  const bool new_input = g != fitted_generation_ && g != 0;
  const bool new_size = image.width > 0 && (image.width != fitted_image_.width || image.height != fitted_image_.height);
  if (!new_input && !new_size) return;
  if (g != 0) fitted_generation_ = g;
  fit();
}

void ViewportWidget::update_probe(const QPointF& logical) {
  if (panels_want_mouse()) {
    panels_.probe.reset();
    return;
  }
  try {
    panels_.probe = probe_pixel(session_.display_frame(), view_, framebuffer_size(), to_screen(logical));
  } catch (const Error& e) {
    panels_.probe.reset();
    emit render_error(QString::fromStdString(e.full_message()));
  }
}

void ViewportWidget::paintGL() {
  ++frames_drawn_;
  const double now = double(clock_.nsecsElapsed()) * 1e-9;
  frame_times_s_.push_back(now);
  while (!frame_times_s_.empty() && frame_times_s_.front() < now - 1.0) frame_times_s_.pop_front();
  const float dt = last_frame_s_ > 0 ? float(now - last_frame_s_) : 1.0f / 60.0f;
  last_frame_s_ = now;
  if (!renderer_ || !imgui_) {
    glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    return;
  }
  fit_if_new_input();
  view_.free_width = free_width();  // the sidebar's width follows the text size and the window
  const Size2 fb = framebuffer_size();
  try {
    follow_view_window(session_, view_, fb);  // a world past 2^30 cells: the window now on screen, next
    DisplayFrame frame = session_.display_frame();
    frame.input_shown = view_shows_input(frame, view_);
    const DisplayUpdate u = renderer_->update(frame);
    if (u.output_changed) session_.note_display(frame.output_generation, u.output_ms, renderer_->display_path());
    if (frame.input_generation != drawn_input_generation_ || frame.output_generation != drawn_output_generation_ ||
        session_.updates_applied() != drawn_updates_)
      keep_drawing();  // ImGui lays out what changed with the result (new rows, new widths) over a few frames
    drawn_input_generation_ = frame.input_generation;
    drawn_output_generation_ = frame.output_generation;
    follow_output(session_, panels_);  // a new result shows in its range on its first frame
    renderer_->draw(fb.width, fb.height, view_);
  } catch (const Error& e) {
    if (e.full_message() != last_error_) {
      last_error_ = e.full_message();
      emit render_error(QString::fromStdString(last_error_));
    }
  }
  panels_.display_fps = display_fps();
  imgui_->begin_frame(float(width()), float(height()), float(devicePixelRatioF()), dt);
  if (apply_pending_releases(imgui_->io(), pending_)) note_input();
  try {
    draw_image_overlays(session_, panels_);  // first: under the legend and the panels
    legend_.free_width = panels_width(panels_, float(width()));
    draw_legend(*renderer_, view_, legend_);
    split_labels_ = draw_split_labels(*renderer_, view_);
    if (!hide_panels_) draw_panels(session_, panels_);
  } catch (const std::exception& e) {
    // A panel that throws (a bug: the panels catch the session's refusals themselves) must not take the window
    // down, as an exception through Qt's event loop would: close what it left open, say what happened, go on.
    imgui_->recover_after_error();
    const Error* error = dynamic_cast<const Error*>(&e);
    emit render_error(QString::fromStdString("a panel failed: " + (error ? error->full_message() : e.what())));
  }
  imgui_->end_frame_and_render();
  drawn_updates_ = session_.updates_applied();
  drawn_while_busy_ = session_.job_status().busy;
}

bool ViewportWidget::refresh_if_needed() {
  const DisplayFrame f = session_.display_frame();
  const double now = double(clock_.nsecsElapsed()) * 1e-9;
  // A job's end changes no image when it is a lab run, an export or a failure: what the workers posted counts,
  // and so does a frame drawn while one was busy (its job box and "Running..." must go).
  const bool needed = f.output_generation != drawn_output_generation_ ||
                      f.input_generation != drawn_input_generation_ || session_.job_status().busy ||
                      drawn_while_busy_ || session_.updates_applied() != drawn_updates_ ||
                      (last_change_s_ >= 0 && now - last_change_s_ < kFramesAfterChangeS);
  if (needed) update();
  return needed;
}

QImage ViewportWidget::last_frame() {
  if (!renderer_) return {};
  makeCurrent();
  const Size2 fb = framebuffer_size();
  QImage image(fb.width, fb.height, QImage::Format_RGBX8888);  // the alpha means nothing on screen
  glBindFramebuffer(GL_READ_FRAMEBUFFER, defaultFramebufferObject());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glReadPixels(0, 0, fb.width, fb.height, GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
  doneCurrent();
  return image.mirrored();  // GL's rows start at the bottom
}

QImage ViewportWidget::grab_viewport(bool with_panels) {
  hide_panels_ = !with_panels;
  QImage image = grabFramebuffer();
  hide_panels_ = false;
  return image;
}

std::string ViewportWidget::display_path() const { return renderer_ ? renderer_->display_path() : last_error_; }

double ViewportWidget::display_fps() const {
  if (frame_times_s_.size() < 2) return 0;
  const double now = double(clock_.nsecsElapsed()) * 1e-9;
  if (now - frame_times_s_.back() > 1.0) return 0;
  return double(frame_times_s_.size() - 1) / std::max(frame_times_s_.back() - frame_times_s_.front(), 1e-3);
}

// ---- input ----

bool ViewportWidget::event(QEvent* e) {
  // While a panel's text field has the keyboard, typed letters ("f", "1") are text, not the window's shortcuts.
  if (e->type() == QEvent::ShortcutOverride && imgui_ && imgui_->io().WantTextInput) {
    e->accept();
    return true;
  }
  return QOpenGLWidget::event(e);
}

void ViewportWidget::mousePressEvent(QMouseEvent* e) {
  if (imgui_) feed_mouse_button(imgui_->io(), *e, true, pending_);
  note_input();
  if (panels_want_mouse()) return;
  view_.free_width = free_width();
  const bool near_split =
      view_.split && std::abs(to_screen(e->position()).x - split_screen_x(view_, framebuffer_size())) <=
                         kSplitGrabPoints * devicePixelRatioF();
  if (e->button() == Qt::LeftButton && near_split) {
    drag_ = Drag::Split;
  } else if (e->button() == Qt::LeftButton && brush_active(session_)) {
    drag_ = Drag::Paint;
    setCursor(Qt::CrossCursor);
    const Vec2 p = to_screen(e->position());
    paint_stroke(session_, view_, framebuffer_size(), p, p);
  } else if (e->button() == Qt::LeftButton || e->button() == Qt::MiddleButton) {
    drag_ = Drag::Pan;
    setCursor(Qt::ClosedHandCursor);
  }
  drag_last_ = e->position();
}

void ViewportWidget::mouseReleaseEvent(QMouseEvent* e) {
  if (imgui_) feed_mouse_button(imgui_->io(), *e, false, pending_);
  if (drag_ != Drag::None) unsetCursor();
  drag_ = Drag::None;
  note_input();
}

void ViewportWidget::mouseMoveEvent(QMouseEvent* e) {
  if (imgui_) {
    feed_mouse_position(imgui_->io(), e->position());
    feed_modifiers(imgui_->io(), e->modifiers());
  }
  switch (drag_) {
    case Drag::Pan: {
      const Vec2 a = to_screen(drag_last_), b = to_screen(e->position());
      view_ = pan(view_, {b.x - a.x, b.y - a.y});
      break;
    }
    case Drag::Split:
      view_.split_position = float(std::clamp(to_screen(e->position()).x / std::max(1.0f, free_width()), 0.0, 1.0));
      break;
    case Drag::Paint:
      paint_stroke(session_, view_, framebuffer_size(), to_screen(drag_last_), to_screen(e->position()));
      break;
    case Drag::None: break;
  }
  drag_last_ = e->position();
  update_probe(e->position());
  note_input();
}

void ViewportWidget::wheelEvent(QWheelEvent* e) {
  if (imgui_) feed_wheel(imgui_->io(), *e);
  note_input();
  if (panels_want_mouse()) return;
  const double notches = wheel_notches(e->angleDelta().y());
  if (notches == 0) return;
  view_ = zoom_around(view_, framebuffer_size(), std::pow(kWheelZoomStep, notches), to_screen(e->position()));
  update_probe(e->position());
  e->accept();
}

void ViewportWidget::keyPressEvent(QKeyEvent* e) {
  if (imgui_) feed_key(imgui_->io(), *e, true, pending_);
  note_input();
  if (imgui_ && imgui_->io().WantCaptureKeyboard) return;
  QOpenGLWidget::keyPressEvent(e);
}

void ViewportWidget::keyReleaseEvent(QKeyEvent* e) {
  if (imgui_) feed_key(imgui_->io(), *e, false, pending_);
  note_input();
  QOpenGLWidget::keyReleaseEvent(e);
}

void ViewportWidget::focusInEvent(QFocusEvent* e) {
  if (imgui_) feed_focus(imgui_->io(), true);
  QOpenGLWidget::focusInEvent(e);
}

void ViewportWidget::focusOutEvent(QFocusEvent* e) {
  if (imgui_) feed_focus(imgui_->io(), false);
  drag_ = Drag::None;
  QOpenGLWidget::focusOutEvent(e);
}

void ViewportWidget::leaveEvent(QEvent* e) {
  if (imgui_) feed_mouse_left(imgui_->io());
  panels_.probe.reset();
  note_input();
  QOpenGLWidget::leaveEvent(e);
}

}  // namespace ks::ui::qt
