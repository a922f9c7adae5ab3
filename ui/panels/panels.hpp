#pragma once
// The ImGui panels of the app, drawn from the kernel registry and the session. Qt-free: the Qt window and the
// headless --screenshot path both call draw_panels between ImGuiLayer::begin_frame and end_frame_and_render.
// The panels change the session through its methods only; what they cannot accept they say in red, and the
// session's state stays as it was.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "session/display_frame.hpp"
#include "session/why_cache.hpp"
#include "render/pixel_probe.hpp"
#include "render/view_math.hpp"
#include "panels/named_buttons.hpp"
#include "panels/save_request.hpp"
#include "panels/source/source_panel_state.hpp"
#include "panels/topology/topology_panel.hpp"

namespace ks::app {
class Session;         // app/session/session.hpp
class PlaylistPlayer;  // app/session/playlist/playlist_player.hpp
}

namespace ks::ui {

struct PanelState {
  bool visible = true;          // View > Panels; false draws only the job indicator and the pixel inspector
  float sidebar_width = 380;    // logical pixels at the default text size, at the viewport's right edge
  float text_scale = 1;         // the panels' text size over the default (13 points): the sidebar widens with it
  // Which sections are open (the app keeps them in its settings).
  bool user_kernel_open = true, kernel_open = true, launch_open = true, timing_open = true, device_open = false, view_open = false;

  // The viewport's view: the View section edits its colormap, range, legend and split. Null: no View section.
  ViewState* view = nullptr;
  // Follow each new result: a diverging colormap for signed outputs, the range suggested_range() picks.
  bool auto_range = true;
  // The pixel under the cursor (the viewport fills it from probe_pixel); shown by the inspector.
  std::optional<PixelProbe> probe;
  double display_fps = 0;       // frames the viewport drew per second, lately (0: unknown, e.g. headless)
  TopologyPanelState topology;  // the Topology window (View > Topology), beside the sidebar
  // The demo playlist being shown (its caption and step list, drawn even without the sidebar); null: none.
  const app::PlaylistPlayer* playlist = nullptr;
  std::optional<int> playlist_clicked;  // a step clicked in its list (0-based), until the window goes there
  std::optional<EditCopyRequest> edit_copy;  // the Source panel's Edit a copy, until the window opens it
  // Export buttons' requests for a file or folder, until the window asks for one (panels/save_request.hpp).
  std::vector<SaveRequest> save_requests;
  NamedButtons buttons;  // the sidebar's buttons a --script clicks by label (panels/named_buttons.hpp)
  // Where the last frame drew the pixel inspector, a playlist's caption and step list, and the launch overlay's
  // header and hover text (logical pixels: min x, min y, max x, max y; all 0 when not drawn), so that a script can
  // tell they do not overlap.
  std::array<float, 4> inspector_rect{}, caption_rect{}, playlist_list_rect{}, launch_header_rect{},
      launch_hover_rect{};
  // Where the roofline a lab kernel of arrays shows in place of an image was drawn, and how many runs it placed.
  std::array<float, 4> lab_view_rect{};
  int lab_view_points = 0;

  // Widgets' transient state.
  std::map<std::string, std::string> text_edits;  // matrix parameters being typed, by "kernel/param"
  std::string error;                              // the last refused change, until the next accepted one
  std::uint64_t followed_generation = 0;          // the output generation auto_range last adjusted to
  bool simulation_open = true;                    // the Simulation section (while a simulation is selected)
  bool lab_open = true, roofline_open = true;     // the Lab and Roofline sections (while a lab kernel is chosen)
  std::string lab_size_text;                      // the Lab section's typed size, until Enter
  std::string lab_size_shown;                     // the size lab_size_text was last reset to
  std::uint64_t followed_simulation = 0;          // the fresh simulation whose colormap and range were applied
  bool source_open = false;                       // the Source section (the running kernel's own code)
  bool why_open = true;                           // the Why section (the pitfalls of the kernel's last run)
  app::WhyCache why;                              // its explanation, worked out once per run
  SourcePanelState source;
};

// Draws every panel (Kernel, Launch, Timing, Device, View, Source, Why), the job indicator and the pixel
// inspector.
// Calls follow_output first.
void draw_panels(app::Session& session, PanelState& state);

// While state.auto_range is on, sets the view's range and colormap for each new result (once per generation).
// The viewport calls it before it draws the image, so a new result shows in its range on its first frame.
void follow_output(app::Session& session, PanelState& state);

// A simulation shown through its density view (a Life world past 2^30 cells): asks it for the window `view` shows
// on a framebuffer of that size (render/world_window.hpp), so the next frame reads those cells at the screen's
// resolution. The viewport and --screenshot call it before each frame; nothing for other frames.
void follow_view_window(app::Session& session, const ViewState& view, Size2 framebuffer);

// The width (logical pixels) the sidebar covers at the right edge of a viewport `viewport_width` wide: 0 when
// hidden, at most 60% of the viewport. The viewport fits the image beside it.
float panels_width(const PanelState& state, float viewport_width);

// `view` fitted to show the whole image in the part of the framebuffer the sidebar leaves free (all of it when
// the sidebar would leave less than a third), centred there. `device_pixel_ratio`: framebuffer pixels per
// logical pixel. Colormap, range and split stay as they were.
ViewState fit_beside_panels(const ViewState& view, Size2 image, Size2 framebuffer, const PanelState& state,
                            double device_pixel_ratio);

}  // namespace ks::ui
