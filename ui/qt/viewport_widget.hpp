#pragma once
// The viewport: a QOpenGLWidget (GL 3.3 core) that draws the session's images with the Qt-free FrameRenderer and
// the ImGui panels over them. Input goes to ImGui when the pointer is over a panel (io.WantCaptureMouse /
// WantCaptureKeyboard of the last frame), to the image otherwise: drag to pan, wheel to zoom around the cursor,
// drag the split line, hover for the pixel inspector.
#include <QElapsedTimer>
#include <QImage>
#include <QOpenGLWidget>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "imgui/imgui_layer.hpp"
#include "imgui/legend.hpp"
#include "panels/panels.hpp"
#include "qt/imgui_bridge.hpp"
#include "session/display_frame.hpp"
#include "render/view_math.hpp"

namespace ks::app {
class Session;
}

namespace ks::ui {
class FrameRenderer;
}  // namespace ks::ui

namespace ks::ui::qt {

class ViewportWidget : public QOpenGLWidget {
  Q_OBJECT

 public:
  ViewportWidget(app::Session& session, PanelState& panels, QWidget* parent = nullptr);
  ~ViewportWidget() override;

  ViewState& view() noexcept { return view_; }
  // The panels' text size and theme (from the next frame; the sidebar widens with the text). Usage Error for a
  // size out of range, nothing changed.
  void set_appearance(const Appearance& a);
  const Appearance& appearance() const noexcept { return appearance_; }
  std::string panel_font_name() const;
  void fit();
  // Pixel for pixel, keeping the image point at the centre of the area the sidebar leaves free where it is.
  void one_to_one();
  // The sidebar was shown or hidden: a view that was fitted is fitted again to the new free area (one the user
  // zoomed or panned stays as it is).
  void panels_toggled(bool was_visible);
  void zoom_by(double factor);  // around the centre of the image area
  void set_split(bool on);
  void set_launch_grid(bool on);  // the launch overlay (ui/panels/launch/launch_overlay.hpp)

  // Draws a frame now and returns it at framebuffer size (logical size x device pixel ratio), with or without
  // the panels (the legend stays: it belongs to the image).
  QImage grab_viewport(bool with_panels);
  // The frame drawn last, as it stands on screen, without drawing a new one (what a person sees who does not
  // move the mouse).
  QImage last_frame();
  // Schedules a frame when something may have changed; true when one was scheduled.
  bool refresh_if_needed();

  // Where the legend stands (dragged there, or its own place) and whether the last frame drew it.
  const LegendPlacement& legend() const noexcept { return legend_; }
  // Where the last frame drew the split's "input" / "output" labels (both 0 when it did not).
  const SplitLabelBoxes& split_labels() const noexcept { return split_labels_; }
  // Frames painted so far (scripts wait for frames, not for time).
  std::uint64_t frames_drawn() const noexcept { return frames_drawn_; }
  std::string gl_renderer() const { return gl_renderer_; }
  std::string gl_version() const { return gl_version_; }
  std::string display_path() const;
  // Frames drawn per second over the last second; 0 when none was drawn in it (the viewport idles when nothing
  // changes).
  double display_fps() const;

 signals:
  // A failure of GL or of the display path; the viewport keeps running and shows the input or nothing.
  void render_error(const QString& message);

 protected:
  void initializeGL() override;
  void paintGL() override;
  bool event(QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;
  void focusInEvent(QFocusEvent* event) override;
  void focusOutEvent(QFocusEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  enum class Drag { None, Pan, Split, Paint };  // Paint: the simulation's brush (qt/simulation_brush.hpp)

  Size2 framebuffer_size() const;
  float free_width() const;  // framebuffer pixels left of the sidebar: the split's fraction is of this width
  Vec2 to_screen(const QPointF& logical) const;  // framebuffer pixels
  bool panels_want_mouse() const;
  void update_probe(const QPointF& logical);
  void fit_if_new_input();
  void keep_drawing();  // frames for a little while: ImGui settles over several
  void note_input();
  void release_gl();

  app::Session& session_;
  PanelState& panels_;
  ViewState view_;
  std::unique_ptr<FrameRenderer> renderer_;
  std::unique_ptr<ImGuiLayer> imgui_;
  LegendPlacement legend_;  // kept for the session: a legend dragged aside stays there
  SplitLabelBoxes split_labels_;
  Appearance appearance_;  // kept here too: the ImGui layer is made (and remade) with the GL context
  PendingReleases pending_;  // quick clicks and keys, held for ImGui's next frame
  std::string gl_renderer_, gl_version_;
  std::string last_error_;

  Drag drag_ = Drag::None;
  QPointF drag_last_;
  std::uint64_t fitted_generation_ = 0;
  Size2 fitted_image_{0, 0};           // the image size of the last fit: another size (a simulation's grid
                                       // after a photo, say) is fitted again
  std::optional<ViewState> fitted_view_;  // the view the last fit made, to tell whether the user moved since
  bool hide_panels_ = false;          // for one grab without panels
  QElapsedTimer clock_;
  double last_frame_s_ = 0;
  double last_change_s_ = -1;     // the last input or new image or result
  std::deque<double> frame_times_s_;  // of the last second's frames
  std::uint64_t frames_drawn_ = 0;
  std::uint64_t drawn_output_generation_ = 0;
  std::uint64_t drawn_input_generation_ = 0;
  std::uint64_t drawn_updates_ = 0;   // Session::updates_applied() when the last frame was drawn
  bool drawn_while_busy_ = false;     // the last frame showed a running job
};

}  // namespace ks::ui::qt
