#pragma once
// The save requests of a live simulation's exports (panels/save_request.hpp), for the Simulation section's
// buttons and the File menu's entries alike, so that what an export writes and what it may replace is said once.
#include "panels/save_request.hpp"

namespace ks::app {
class Session;
}

namespace ks::ui {

// An animated GIF of `frames` frames, one every `every` steps (SimulationRunner::export_animation): a file,
// which it replaces.
SaveRequest simulation_gif_request(app::Session& session, long long frames, long long every);
// The next `frames` steps as FOLDER/frame_00000.png ... (SimulationRunner::export_sequence): a folder, in which
// it replaces the frames of the same numbers.
SaveRequest simulation_frames_request(app::Session& session, long long frames);

}  // namespace ks::ui
