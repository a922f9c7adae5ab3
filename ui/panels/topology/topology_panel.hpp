#pragma once
// The Topology panel: an ImGui window over the session's TopologyDocument — traffic (files come through the
// window's File menu and drag and drop; generators here), topology configurations, metric, placements,
// backend, Run with progress and Cancel; then a timeline over the timestamps, the heatmap of the best cost
// over timestamps x configurations, the histogram of placement costs, the network with the load on each link,
// and the top placements. Qt-free: the window and the headless --screenshot path draw it alike.
#include <string>
#include <vector>

#include "panels/named_buttons.hpp"

namespace ks::app {
class TopologyDocument;
}

namespace ks::ui {

// The panel's widgets' state (what is being typed or picked before it goes to the document).
struct TopologyPanelState {
  bool open = false;
  bool sample_opened = false;  // the sample is opened once, on the first frame that shows the panel empty
  // traffic generator
  int generator = 1;  // index into the generator list (gravity)
  int gen_nodes = 8, gen_timestamps = 12, gen_seed = 1, gen_extra = 1;
  // topology family
  int family = 0;
  int fam_width = 4, fam_height = 2, fam_per_leaf = 2, fam_spines = 2, fam_degree = 3, fam_seed = 1;
  int fam_center = 0, ocs_base = 0, ocs_k = 4;
  std::string spec_text;  // a spec or file typed by hand
  // sweep
  int placement_mode = 0;  // all, sample, identity, search, bnb
  int samples = 100000;
  std::vector<std::string> gpu_names;  // "0: NVIDIA H100 ...", listed once (the CUDA query is not free)
  bool gpus_listed = false;
  bool heat_per_row = true;  // heatmap colours per timestamp (see cost_heatmap.hpp)
  std::string error;         // the last refused change, until the next accepted one
  std::string message;       // the document's last notice
  bool message_is_error = false;
  NamedButtons buttons;  // the window's buttons a --script clicks by label
  // Where the window stands (logical pixels, as last drawn), kept while it is closed: it reopens there. Until
  // the user moves or resizes it, it fills the free area beside the sidebar (and follows it: P, the window's
  // size); afterwards it keeps the user's place, moved and shrunk into the free area when that is smaller.
  bool placed_by_hand = false;
  float x = 0, y = 0, width = 0, height = 0;
  float scroll_max_x = 0;  // > 0: the window is narrower than its contents and scrolls sideways
};

// Draws the window when state.open; `right_margin`: logical pixels the sidebar covers at the right edge.
void draw_topology_panel(app::TopologyDocument& doc, TopologyPanelState& state, float right_margin);

}  // namespace ks::ui
