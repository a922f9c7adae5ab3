// take_screenshot: the session set up as the request says, the frame drawn through EGL and written.
#include "gui/screenshot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "core/error.hpp"
#include "gui/screenshot_user_kernel.hpp"
#include "headless/headless_renderer.hpp"
#include "io/image_io.hpp"
#include "panels/image_overlays.hpp"
#include "panels/panels.hpp"
#include "panels/section_names.hpp"
#include "session/display_frame.hpp"
#include "render/pixel_probe.hpp"
#include "render/view_math.hpp"
#include "session/lab/lab_document.hpp"
#include "session/simulation/life_pattern_files.hpp"
#include "session/playlist/playlist.hpp"
#include "session/playlist/playlist_player.hpp"
#include "session/session.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::app {

namespace {

void check_request(const ScreenshotRequest& r) {
  std::string ext = r.out.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext != ".png" && ext != ".jpg" && ext != ".jpeg" && ext != ".bmp" && ext != ".tga")
    throw_usage("cannot write a screenshot to '" + r.out.string() + "'", "name it .png (or .jpg, .bmp, .tga)");
  if (r.width < 1 || r.height < 1)
    throw_usage(fmt::format("a screenshot of {}x{} pixels is impossible", r.width, r.height),
                "give --size WxH with positive sizes, e.g. 1280x800");
  if (r.split && !(*r.split >= 0.0f && *r.split <= 1.0f))
    throw_usage(fmt::format("--split {} lies outside 0..1", *r.split), "0.5 splits the view in the middle");
  if (!r.backend.empty() && r.backend != "cpu" && r.backend != "cuda")
    throw_usage("unknown backend '" + r.backend + "'", "use --backend cpu or --backend cuda");
  check_user_kernel_options(r);
}

// The session, set up as asked and with its result (and the work it starts afterwards: the CPU reference, the
// bandwidth probe, a kernel of the user's and its check) finished, so the panels show what a window would show
// once it settles.
void prepare_session(Session& session, const ScreenshotRequest& r) {
  if (r.input) session.open_image(*r.input);
  else session.open_sample();
  if (r.backend == "cuda") session.set_backend(Backend::Cuda);
  // Compiled before anything runs: a kernel that does not compile is refused (exit 2), with or without a GPU.
  const std::optional<ScreenshotUserKernel> user =
      r.kernel_file ? std::optional(compile_screenshot_kernel(session, r)) : std::nullopt;
  const std::string& kernel = user ? user->kernel : r.kernel;
  const std::string& variant = user ? user->variant : r.variant;
  if (!r.type.empty()) session.set_element_type(elem_type_from_string(r.type));  // a usage Error names the types
  // Runs of other lab kernels first ("--lab-also reduce:cpu"), at their default sizes: points on the Roofline.
  for (const std::string& item : r.lab_also) {
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos) continue;
    session.select_kernel(item.substr(0, colon));
    if (!session.in_lab()) throw_usage("--lab-also " + item + ": not a lab kernel", "e.g. --lab-also reduce:cpu");
    session.set_variant(item.substr(colon + 1));
    session.run_now();
  }
  if (!kernel.empty()) session.select_kernel(kernel);
  // Without a GPU the app's Run ends in the worker's words ("cannot run your kernel: ..."): said before a CUDA
  // variant or block of the request is refused in other words.
  if (user && !session.device().cuda) run_screenshot_kernel(session, r, *user);
  for (const std::string& p : r.params) {
    const std::size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0)
      throw_usage("--param '" + p + "' is not name=value", "e.g. --param radius=3");
    session.set_param(p.substr(0, eq), p.substr(eq + 1));
  }
  if (!r.lab_size.empty() || !r.lab_also.empty() || r.lab_sweep || !r.lab_host.empty() || r.lab_streams != 1) {
    if (!session.in_lab())
      throw_usage("--lab-size, --lab-host, --lab-streams, --lab-also and --lab-sweep apply to lab kernels",
                  "use e.g. --kernel vecadd");
    if (!r.lab_size.empty()) session.lab().set_size_text(r.lab_size);
    if (!r.lab_host.empty()) session.lab().set_host(lab::host_mode_from_string(r.lab_host));
    if (r.lab_streams != 1) session.lab().set_streams(r.lab_streams);
    for (const std::string& v : r.lab_also) {  // earlier runs of this kernel's variants: points on the Roofline
      if (v.find(':') != std::string::npos) continue;
      session.set_variant(v);
      session.run_now();
    }
  }
  if (!r.device_model.empty()) session.set_device_model(r.device_model);
  if (!variant.empty()) {
    const VariantSpec* v = session.kernel().find_variant(variant);
    // Without a GPU a CUDA variant is pictured on the device model rather than run.
    if (v && v->backend == Backend::Cuda && session.backend() == Backend::Cpu && !r.device_model.empty())
      session.set_modelled_variant(variant);
    else
      session.set_variant(variant);
  }
  if (!r.block.empty()) session.set_block(parse_block_shape(r.block));
  if (!r.pattern.empty()) {
    if (!kernel.empty() && kernel != "life")
      throw_usage("--pattern gives a Life pattern, and the kernel is '" + kernel + "'", "use --kernel life");
    use_life_pattern(session, r.pattern);
  }
  if (r.grid) {
    if (!session.simulating()) throw_usage("--grid applies to simulation kernels", "use --kernel life, heat or grayscott");
    session.simulation().set_grid_size(r.grid->first, r.grid->second);
  }
  if (r.steps < 0) throw_usage("--steps must be >= 0", "e.g. --steps 100");
  if (r.steps > 0 && !session.simulating())
    throw_usage("--steps applies to simulation kernels", "use --kernel life, heat or grayscott");
  if (session.simulating()) session.simulation().set_playing(false);  // the frame shows exactly --steps steps
  if (r.counters) {  // the Timing section's switch and its choice, before the run they read
    session.set_counter_set(r.counter_set);
    session.set_counters(true);
  }
  if (user) run_screenshot_kernel(session, r, *user);  // in place of the built-in, run and checked
  else session.run_now();
  if (r.steps > 0) session.simulation().step(r.steps);
  if (r.lab_sweep) session.lab().start_sweep();
  session.wait_idle();
}

// Opens only the named sections of the sidebar (a usage Error names the known ones).
void open_sections(ui::PanelState& panels, const std::vector<std::string>& names) {
  if (names.empty()) return;
  try {
    ui::open_only_sections(panels, names);
  } catch (const Error& e) {
    throw_usage(std::string("--sections: ") + e.what(), e.hint());
  }
}

// The Source section's choice of variants; a name the kernel does not have is a usage Error listing its own.
void open_source(ui::SourcePanelState& source, const KernelSpec& kernel, const ScreenshotRequest& r) {
  for (const std::string* name : {&r.source_variant, &r.source_compare}) {
    if (name->empty() || kernel.find_variant(*name)) continue;
    std::string known;
    for (const VariantSpec& v : kernel.variants) known += (known.empty() ? "" : ", ") + v.name;
    throw_usage("kernel '" + kernel.id + "' has no variant '" + *name + "'", "its variants are: " + known);
  }
  source.variant = r.source_variant;
  source.compare = r.source_compare;
}

// What the window does when a result arrives: fit the image beside the sidebar, and show the result over its
// suggested range (diverging around 0 for signed results): the View panel's "follow each result".
ui::ViewState initial_view(Session& session, ui::PanelState& panels, const ScreenshotRequest& r) {
  const ui::DisplayFrame f = session.display_frame();
  const ImageShape shape = ui::shown_image_shape(f);
  ui::ViewState view =
      ui::fit_beside_panels(ui::ViewState{}, {shape.width, shape.height}, {r.width, r.height}, panels, 1.0);
  panels.view = &view;
  ui::follow_output(session, panels);
  panels.view = nullptr;
  if (r.split) {
    view.split = true;
    view.split_position = *r.split;  // of the free area, as in the window
  }
  view.free_width = float(r.width) - ui::panels_width(panels, float(r.width));
  view.show_launch_grid = r.launch_overlay;
  if (r.zoom > 0) {
    view.zoom = std::clamp(r.zoom, float(ui::kMinZoom), float(ui::kMaxZoom));
    if (r.probe) {  // the probed pixel a little left of the centre, clear of the sidebar
      view.center_x = float(r.probe->first) + 0.5f + (r.panels ? 0.5f * panels.sidebar_width / view.zoom : 0.0f);
      view.center_y = float(r.probe->second) + 0.5f;
    }
  }
  return view;
}

// The pixel the cursor would be on (--probe X,Y): the inspector and the launch overlay's hover text show it.
std::optional<ui::PixelProbe> probe_at(const Session& session, const ui::ViewState& view, const ScreenshotRequest& r) {
  if (!r.probe) return std::nullopt;
  const ui::Vec2 screen = ui::image_to_screen(view, {r.width, r.height},
                                              {r.probe->first + 0.5, r.probe->second + 0.5});
  ui::PixelProbe p = ui::probe_pixel(session.display_frame(), view, {r.width, r.height}, screen);
  if (!p.inside)
    throw_usage(fmt::format("--probe {},{} is not on the image as shown", r.probe->first, r.probe->second),
                "give a pixel inside the image (and inside the frame)");
  return p;
}

// The Topology panel as it shows after loading the traffic (or on its sample) and one sweep.
void prepare_topology(TopologyDocument& topo, const ScreenshotRequest& r) {
  if (r.topology_traffic.empty()) topo.open_sample();
  else topo.open_traffic(r.topology_traffic);
  if (!r.topology_placements.empty()) topo.settings().placements = r.topology_placements;
  if (!r.topology_traffic.empty() || !r.topology_placements.empty()) topo.run();
  topo.wait_idle();
  if (!topo.run_result()) throw_io("the topology sweep failed: " + topo.last_error());
}

// The playlist at the requested step, applied to the session and waited for; null without one.
std::unique_ptr<PlaylistPlayer> play_to_step(Session& session, const ScreenshotRequest& r, PlaylistViewChange& change) {
  if (r.playlist.empty()) return nullptr;
  auto player = std::make_unique<PlaylistPlayer>(load_playlist_or_demo(r.playlist));
  if (r.playlist_step < 1 || r.playlist_step > player->step_count())
    throw_usage(fmt::format("--playlist-step {} is not a step of the playlist", r.playlist_step),
                fmt::format("give 1 to {}", player->step_count()));
  change = player->go_to(session, r.playlist_step - 1);
  if (session.simulating()) session.simulation().set_playing(false);  // the frame shows that step's state
  session.run_now();
  session.wait_idle();
  return player;
}

}  // namespace

ScreenshotResult take_screenshot(const ScreenshotRequest& request) {
  check_request(request);
  const ui::Appearance appearance{request.text_size, request.high_contrast};
  ui::check_appearance(appearance);  // a bad size is a usage error (exit 2) before any work
  Session::Options options;
  options.use_cuda = request.backend != "cpu";
  Session session(options);
  prepare_session(session, request);
  PlaylistViewChange playlist_view;
  const std::unique_ptr<PlaylistPlayer> player = play_to_step(session, request, playlist_view);

  ui::EglContext::Options egl;
  egl.platform = ui::egl_platform_from_environment();
  ui::HeadlessRenderer renderer(request.width, request.height, egl);
  renderer.imgui().set_appearance(appearance);
  ui::PanelState panels;
  panels.text_scale = appearance.font_size / ui::Appearance::kDefaultFontSize;
  panels.visible = request.panels && playlist_view.panels.value_or(true);
  panels.playlist = player.get();
  if (playlist_view.sections) ui::open_only_sections(panels, *playlist_view.sections);  // --sections wins
  open_sections(panels, request.sections);
  if (request.sidebar_width > 0) panels.sidebar_width = request.sidebar_width;
  open_source(panels.source, session.kernel(), request);
  ui::ViewState view = initial_view(session, panels, request);
  panels.view = &view;
  if (playlist_view.split) view.split = *playlist_view.split;
  if (playlist_view.colormap)
    for (ui::Colormap m : ui::all_colormaps())
      if (ui::colormap_name(m) == *playlist_view.colormap) view.colormap = m;
  if (request.topology || !request.topology_traffic.empty() || !request.topology_placements.empty()) {
    panels.topology.open = panels.topology.sample_opened = true;
    prepare_topology(session.topology(), request);
  }

  // A world past 2^30 cells: its frame becomes the window this view shows (as the window's viewport asks).
  ui::follow_view_window(session, view, {request.width, request.height});
  session.wait_idle();
  panels.probe = probe_at(session, view, request);
  renderer.set_image_overlay([&] { ui::draw_image_overlays(session, panels); });
  renderer.legend().free_width = ui::panels_width(panels, float(request.width));

  ui::DisplayFrame frame = session.display_frame();
  frame.input_shown = ui::view_shows_input(frame, view);
  const ui::DisplayUpdate update = renderer.renderer().update(frame);
  if (update.output_changed)
    session.note_display(frame.output_generation, update.output_ms, renderer.renderer().display_path());
  std::function<void()> draw_ui;
  if (request.panels || player)  // a playlist's caption shows without the sidebar too
    draw_ui = [&] {
      session.poll();
      ui::draw_panels(session, panels);
    };
  const Image rgba = renderer.render(view, draw_ui);

  ScreenshotResult result;
  result.frame = convert_channels(rgba, 3);  // the framebuffer's alpha means nothing: an opaque RGB file
  result.display_path = renderer.renderer().display_path();
  result.platform = renderer.egl().platform_name() + ", " + renderer.egl().gl_renderer();
  save_image(result.frame, request.out);
  return result;
}

}  // namespace ks::app
