#pragma once
// The basics lab's parts of the sidebar; private to ui/panels. Each draws from a LabReport or the
// LabDocument, so the render tests can draw them from a report of their own (a CUDA timeline on a machine
// without a GPU).
#include <cstdint>

#include "lab/lab_report.hpp"
#include "panels/panels.hpp"
#include "session/lab/lab_document.hpp"

namespace ks::app {
class Session;
}

namespace ks::ui::panels {

// Lab (while a lab kernel is chosen): size, block, host memory, streams, Run, Sweep sizes, the last report
// and the sweep's plot.
void draw_lab_section(app::Session& session, PanelState& state);
// The report of run `number`: the check against the CPU, the launch arithmetic, the rates, facts, notes and
// series (kmeans' inertia per iteration). `current`: false adds a note that the request changed since.
void draw_lab_report(const lab::LabReport& report, std::uint64_t number, bool current);
// Your kernel (while the user's array kernel runs in the Lab; user_array_section.cpp): which arrays it gets, its
// parameters, the check against the lab kernel's CPU reference, the tolerances, and the way back.
void draw_user_array_kernel(app::Session& session, PanelState& state);
// Time against size, log-log, one line per variant.
void draw_lab_sweep(const app::LabSweep& sweep);
// Timing while a lab kernel is chosen: medians of the last run and the copy/kernel timeline.
void draw_lab_timing(app::Session& session, PanelState& state);
// The lanes upload / kernel / download of `report`: the serial run above the streamed one when there are
// both. Nothing (and a note) when the run had no copies.
void draw_lab_timeline(const lab::LabReport& report);
// Roofline (while a lab kernel is chosen): the kept runs as points under the roofs (roofline_panel.cpp).
void draw_roofline_section(app::Session& session, PanelState& state);

}  // namespace ks::ui::panels
