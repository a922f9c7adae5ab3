// Simulation and its Timing: the controls of a live simulation and what its steps cost.
#include "panels/simulation/simulation_section.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <vector>

#include "report/text_format.hpp"
#include "panels/counters_view.hpp"
#include "panels/panel_sections.hpp"
#include "panels/simulation/simulation_save_requests.hpp"
#include "session/session.hpp"
#include "sim/life_patterns.hpp"

namespace ks::ui::panels {

namespace {

constexpr int kMaxBrushSlider = 64;  // larger radii can be typed (Ctrl+click)

void transport(app::SimulationRunner& sim, PanelState& st) {
  if (ImGui::Button(sim.playing() ? "Pause" : "Play", ImVec2(60, 0))) sim.set_playing(!sim.playing());
  ImGui::SameLine();
  ImGui::BeginDisabled(sim.playing());
  if (ImGui::Button("Step")) try_change(st, [&] { sim.step(1); });
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("One generation (while paused)");
  ImGui::SameLine();
  if (ImGui::Button("Reset")) sim.reset();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the start, generation 0");
  int spf = sim.steps_per_frame();
  if (ImGui::SliderInt("steps/frame", &spf, 1, 1000, "%d", ImGuiSliderFlags_Logarithmic))
    try_change(st, [&] { sim.set_steps_per_frame(spf); });
  help_marker("Steps between displayed frames. A frame waits for at most about 30 ms of steps (at least one), so "
              "the window stays responsive on a slow backend.");
}

void figures(const app::SimulationRunner& sim) {
  const SimulationStats& stats = sim.stats();
  ImGui::Text("generation %lld", sim.generation());
  if (stats.population) {
    ImGui::SameLine(ImGui::GetFontSize() * 10);
    ImGui::Text("population %lld", *stats.population);
  } else if (stats.total) {
    ImGui::SameLine(ImGui::GetFontSize() * 10);
    ImGui::Text("%s %.6g", sim.setup().kernel == "heat" ? "total heat" : "sum of v", *stats.total);
  }
  const app::SimulationTiming& t = sim.timing();
  if (t.live_steps_per_second > 0) ImGui::TextDisabled("%.0f steps/s as shown", t.live_steps_per_second);
}

const char* start_label(app::SimStart s, const std::string& kernel) {
  switch (s) {
    case app::SimStart::Image: return "loaded image";
    case app::SimStart::Pattern: return "pattern";
    case app::SimStart::Parameters: break;
  }
  return kernel == "life" ? "random fill" : kernel == "heat" ? "hot spots" : "seed squares";
}

// A Life world past 2^30 cells: what it takes of memory before it starts (or why its variant cannot hold it), and
// how the view shows it.
void world_notes(const app::SimulationRunner& sim) {
  const app::SimulationRunner::MemoryEstimate memory = sim.memory_estimate();
  if (memory.refused) error_text(memory.text);
  else if (!memory.text.empty()) note_text("Memory: " + memory.text);
  if (!sim.frame().window) return;
  const int cells = sim.frame().window->cells_per_pixel;
  note_text(cells == 1 ? std::string("More than 2^30 cells: shown through a density view of the window on screen, "
                                     "here zoomed in to single cells (each cell exactly as it is).")
                       : fmt::format("More than 2^30 cells: shown through a density view of the window on screen, "
                                     "each pixel the population of its {0}x{0} cells (brighter: more alive). Zoom in "
                                     "to reach single cells.",
                                     cells));
}

void start_and_grid(app::Session& s, app::SimulationRunner& sim, PanelState& st) {
  const app::SimulationSetup& setup = sim.setup();
  if (ImGui::BeginCombo("start", start_label(setup.start, setup.kernel))) {
    for (app::SimStart option : {app::SimStart::Parameters, app::SimStart::Image, app::SimStart::Pattern}) {
      if (option == app::SimStart::Pattern && setup.kernel != "life") continue;
      if (ImGui::Selectable(start_label(option, setup.kernel), option == setup.start) && option != setup.start) {
        if (option == app::SimStart::Pattern && !setup.pattern)
          try_change(st, [&] {
            sim.set_pattern(std::make_shared<const sim::LifePattern>(sim::builtin_pattern("glider")));
          });
        else
          try_change(st, [&] { sim.set_start(option); });
        s.request_run();
      }
    }
    ImGui::EndCombo();
  }
  help_marker("Where the state starts and where Reset returns: the kernel's parameters (random fill, hot spots, "
              "seed squares), the loaded image's luminance, or a Life pattern at the centre (File > Open Life "
              "pattern, or drop an .rle file on the window).");
  if (setup.kernel == "life") {
    const std::string current = setup.pattern ? setup.pattern->name : std::string("(none)");
    if (ImGui::BeginCombo("pattern", current.c_str())) {
      for (const auto& p : sim::builtin_patterns()) {
        if (ImGui::Selectable(p.name.c_str(), setup.start == app::SimStart::Pattern && p.name == current))
          try_change(st, [&] {
            sim.set_pattern(std::make_shared<const sim::LifePattern>(sim::builtin_pattern(p.name)));
            s.request_run();
          });
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description.c_str());
      }
      ImGui::EndCombo();
    }
  }
  note_text(sim.start_description());

  // The grid size applies when the state does not come from the image (which has its own size).
  // The fields hold what is being typed; they follow the grid whenever it changes elsewhere (script, Reset).
  ImGuiStorage* storage = ImGui::GetStateStorage();
  int* w = storage->GetIntRef(ImGui::GetID("grid_w"), setup.width);
  int* h = storage->GetIntRef(ImGui::GetID("grid_h"), setup.height);
  int* seen_w = storage->GetIntRef(ImGui::GetID("grid_seen_w"), setup.width);
  int* seen_h = storage->GetIntRef(ImGui::GetID("grid_seen_h"), setup.height);
  if (*seen_w != setup.width || *seen_h != setup.height) {
    *w = *seen_w = setup.width;
    *h = *seen_h = setup.height;
  }
  int size[2] = {*w, *h};
  ImGui::BeginDisabled(setup.start == app::SimStart::Image);
  if (ImGui::InputInt2("grid", size)) *w = size[0], *h = size[1];
  ImGui::SameLine();
  const bool edited = *w != setup.width || *h != setup.height;
  ImGui::BeginDisabled(!edited);
  if (ImGui::SmallButton("Apply##grid"))
    try_change(st, [&] {
      sim.set_grid_size(*w, *h);
      s.request_run();
    });
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  world_notes(sim);
}

void brush(app::SimulationRunner& sim, PanelState& st) {
  app::SimulationRunner::Brush b = sim.brush();
  bool changed = ImGui::Checkbox("Paint", &b.enabled);
  help_marker("While on, a left drag on the image paints with the brush instead of panning (the middle button "
              "still pans).");
  ImGui::SameLine();
  changed |= ImGui::SliderInt("radius", &b.radius, 0, kMaxBrushSlider);
  const std::string& kernel = sim.setup().kernel;
  if (kernel == "life") {
    int alive = b.value != 0 ? 1 : 0;
    ImGui::TextUnformatted("cells");
    ImGui::SameLine();
    changed |= ImGui::RadioButton("alive", &alive, 1);
    ImGui::SameLine();
    changed |= ImGui::RadioButton("dead", &alive, 0);
    b.value = alive;
  } else {
    float v = float(b.value);
    const bool edited = kernel == "grayscott" ? ImGui::SliderFloat("v", &v, 0.0f, 0.5f, "%.3f")
                                              : ImGui::InputFloat("heat", &v, 0.1f, 1.0f, "%.4g");
    if (edited) b.value = v, changed = true;
  }
  if (changed) try_change(st, [&] { sim.set_brush(b); });
  // Zoomed out on a large world, a screen pixel stands for many cells: the brush still paints cells.
  if (st.view && st.view->zoom < 1.0f && b.enabled)
    note_text(fmt::format("Zoomed out: one screen pixel is about {0:.3g}x{0:.3g} cells. A click paints the cells "
                          "within {1} of the cell under the pointer (a disc {2} cells across), in the world's own "
                          "cells whatever the zoom; zoom in to paint single cells.",
                          1.0 / double(st.view->zoom), b.radius, 2 * b.radius + 1));
}

// Beside the export button that started the export running (each has its own Cancel, so a script can tell
// them apart).
void export_progress(app::Session& s, const app::SimulationRunner& sim, PanelState& st, const char* cancel_id) {
  ImGui::SameLine();
  if (named_button(st.buttons, cancel_id)) s.cancel();
  ImGui::SameLine();
  ImGui::TextDisabled("%lld frames written", sim.frames_written());
}

void sequence_export(app::Session& s, app::SimulationRunner& sim, PanelState& st) {
  int* n = ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("frames_n"), 100);
  ImGui::InputInt("frames", n);
  ImGui::BeginDisabled(sim.exporting());
  if (named_button(st.buttons, "Export frames...")) st.save_requests.push_back(simulation_frames_request(s, *n));
  ImGui::EndDisabled();
  help_marker("Writes the next N steps as frame_00000.png ... into a folder you choose, through the view's "
              "colormap (each file complete or absent; frames of the same numbers there are replaced after you "
              "agree); Cancel in the progress box stops it. File > Export result image saves the current frame.");
  if (sim.exporting() && !sim.exporting_animation()) export_progress(s, sim, st, "Cancel##frames");
}

void animation_export(app::Session& s, app::SimulationRunner& sim, PanelState& st) {
  ImGuiStorage* storage = ImGui::GetStateStorage();
  int* n = storage->GetIntRef(ImGui::GetID("gif_frames"), 100);
  int* every = storage->GetIntRef(ImGui::GetID("gif_every"), sim.steps_per_frame());
  ImGui::InputInt("GIF frames", n);
  ImGui::InputInt("steps between", every);
  ImGui::BeginDisabled(sim.exporting());
  if (named_button(st.buttons, "Export GIF...")) st.save_requests.push_back(simulation_gif_request(s, *n, *every));
  ImGui::EndDisabled();
  help_marker("An animated GIF of N frames: the state shown, then one every K steps, through the view's colormap "
              "and range, 25 frames per second, looping, to a file you choose (an existing one is replaced after "
              "you agree). The file appears when all frames are written; Cancel in the progress box stops it and "
              "writes nothing.");
  if (sim.exporting_animation()) export_progress(s, sim, st, "Cancel##gif");
}

}  // namespace

void draw_simulation_section(app::Session& s, PanelState& st) {
  app::SimulationRunner& sim = s.simulation();
  transport(sim, st);
  figures(sim);
  if (sim.error()) error_text(sim.error()->full_message());
  if (sim.carried_over() && sim.setup().kernel == "grayscott")
    note_text("Carried over from the running state: v as it was, u restarted as 1 - 2 v.");
  ImGui::Separator();
  start_and_grid(s, sim, st);
  ImGui::Separator();
  brush(sim, st);
  ImGui::Separator();
  sequence_export(s, sim, st);
  animation_export(s, sim, st);
}

void draw_simulation_timing(app::Session& s, PanelState& st) {
  const app::SimulationRunner& sim = s.simulation();
  const app::SimulationTiming& t = sim.timing();
  if (t.recent_ms.empty()) {
    note_text("No step yet: press Play or Step.");
    return;
  }
  const std::vector<float> ms(t.recent_ms.begin(), t.recent_ms.end());
  const float top = float(std::max(t.stats.p95_ms, t.stats.median_ms) * 1.25);
  const std::string overlay = fmt::format("last {} ms", report::format_ms(ms.back()));
  // imgui 1.86 PlotLines takes no negative ("fill") width: the width is given.
  ImGui::PlotLines("##step_ms", ms.data(), int(ms.size()), 0, overlay.c_str(), 0.0f, top,
                   ImVec2(ImGui::GetContentRegionAvail().x, 70));
  ImGui::TextDisabled("time per step, last %zu steps", ms.size());
  const auto& report = sim.report();
  const bool gpu = report && report->backend == Backend::Cuda;
  if (ImGui::BeginTable("sim_timing", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    table_row("step min", report::format_ms(t.stats.min_ms) + " ms");
    table_row("step median", report::format_ms(t.stats.median_ms) + " ms");
    table_row("step p95", report::format_ms(t.stats.p95_ms) + " ms");
    table_row("steps/s", fmt::format("{:.0f}", t.steps_per_second), "1000 / median step time: the kernel alone");
    table_row("steps/s shown", t.live_steps_per_second > 0 ? fmt::format("{:.0f}", t.live_steps_per_second) : "- (not playing)",
        "generations that reached the screen per second, with the display and the frame handling");
    table_row("bandwidth", report::format_gbps(t.gbps) + " GB/s",
        "one read and one write of the state per step (as the variant stores it) over the median step time");
    table_row("% of copy BW", gpu ? report::format_percent(t.percent_of_copy) : "- (CPU)",
        "against this GPU's device-to-device copy, measured at start: the practical limit");
    table_row("display", t.display_ms >= 0 ? report::format_ms(t.display_ms) + " ms" : "-",
        "putting the last frame on screen (interop write or host upload)");
    ImGui::EndTable();
  }
  if (report)
    ImGui::TextDisabled("%s, %s, %dx%d%s", report->variant.c_str(), report->device.c_str(), report->width,
                        report->height, report->block ? (", block " + to_string(*report->block)).c_str() : "");
  if (report)
    draw_counters(s, CountersShown{&report->counters, report->counters_unavailable, &report->occupancy,
                                   report->roofline.intensity * double(report->bytes_per_step)});
  if (!s.display_path().empty()) note_text("display: " + s.display_path());
  if (st.display_fps > 0) ImGui::TextDisabled("viewport %.0f fps", st.display_fps);
}

void follow_simulation(app::Session& s, PanelState& st) {
  if (!st.view) return;
  app::SimulationRunner& sim = s.simulation();
  if (st.auto_range && sim.picture_generation() != st.followed_simulation) {
    st.followed_simulation = sim.picture_generation();
    const app::SimPicture& p = sim.suggested_picture();
    st.view->colormap = p.colormap;
    st.view->range_min = p.range_min;
    st.view->range_max = p.range_max;
  }
  sim.set_picture({st.view->colormap, st.view->range_min, st.view->range_max});
}

}  // namespace ks::ui::panels
