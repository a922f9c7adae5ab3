// View: how the viewport shows the images — colormap and value range for single-channel results, the legend,
// the before/after split.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "panels/panel_sections.hpp"
#include "panels/simulation/simulation_section.hpp"
#include "session/display_frame.hpp"
#include "render/value_range.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

void draw_view_section(app::Session& s, PanelState& st) {
  if (!st.view) return;
  ViewState& v = *st.view;
  if (ImGui::BeginCombo("colormap", std::string(colormap_name(v.colormap)).c_str())) {
    for (Colormap m : all_colormaps())
      if (ImGui::Selectable(std::string(colormap_name(m)).c_str(), m == v.colormap)) v.colormap = m;
    ImGui::EndCombo();
  }
  help_marker("Applies to single-channel images; colour images are shown as they are.");
  ImGui::DragFloatRange2("range", &v.range_min, &v.range_max, 0.01f * std::max(1.0f, v.range_max - v.range_min),
                         0, 0, "%.4g", "%.4g");
  ImGui::Checkbox("follow each result", &st.auto_range);
  help_marker("On a new result: the range of its type (0..255 for u8), or for signed results (f32 derivatives, "
              "Laplacian) a range symmetric about 0 with the diverging colormap.");
  ImGui::Checkbox("legend", &v.show_legend);
  ImGui::Checkbox("before/after split", &v.split);
  if (v.split) ImGui::SliderFloat("split at", &v.split_position, 0.0f, 1.0f, "%.2f");
  if (!s.has_output()) note_text("No result yet: the input is shown.");
}

}  // namespace ks::ui::panels

namespace ks::ui {

// Keeps the view in step with new results while state.auto_range is on.
void follow_output(app::Session& s, PanelState& st) {
  if (s.simulating()) return panels::follow_simulation(s, st);
  const DisplayFrame f = s.display_frame();
  if (!st.view || !st.auto_range || !s.has_output() || f.output_generation == st.followed_generation) return;
  st.followed_generation = f.output_generation;
  const ImageShape shape = f.output ? f.output->shape() : f.output_device.shape;
  const ValueRange r = suggested_range(shape, f.signed_output, f.output);
  st.view->range_min = r.min;
  st.view->range_max = r.max;
  if (f.signed_output)
    st.view->colormap = Colormap::Diverging;
  else if (st.view->colormap == Colormap::Diverging)
    st.view->colormap = Colormap::Gray;
}

}  // namespace ks::ui
