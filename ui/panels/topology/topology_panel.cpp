// The Topology window: controls at the left, results at the right; the document's notices at the bottom.
#include "panels/topology/topology_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "panels/panel_sections.hpp"
#include "panels/topology/topology_sections.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::ui {

namespace {

constexpr float kMargin = 10.0f;
constexpr float kControlsWidth = 340.0f;
constexpr float kResultsMinEms = 36.0f;  // the heatmap beside the network, the histogram beside the top list
constexpr float kMinWidth = 320.0f, kMinHeight = 240.0f;

// A window's place, logical pixels (whole ones, as ImGui keeps them).
struct Rect {
  float x = 0, y = 0, width = 0, height = 0;
  bool near(const Rect& o) const {
    return std::abs(x - o.x) < 0.5f && std::abs(y - o.y) < 0.5f && std::abs(width - o.width) < 0.5f &&
           std::abs(height - o.height) < 0.5f;
  }
};

// Before Begin: the window's place for this frame. Untouched by the user, it fills the free area (margins
// around) and follows it (P, the window's size); placed by hand, it keeps its place, moved and shrunk into the
// free area when that got smaller, so the sidebar is never covered. Only a change is set: a frame that set the
// place every time would undo the user's drag.
Rect place_window(const TopologyPanelState& st, ImVec2 display, float right_margin) {
  const float area_w = std::floor(std::max(kMinWidth, display.x - right_margin - 2 * kMargin));
  const float area_h = std::floor(std::max(kMinHeight, display.y - 2 * kMargin));
  ImGui::SetNextWindowSizeConstraints(ImVec2(kMinWidth, kMinHeight), ImVec2(area_w, area_h));
  const Rect last{st.x, st.y, st.width, st.height};
  Rect want{kMargin, kMargin, area_w, area_h};
  if (st.placed_by_hand) {
    want.width = std::min(st.width, area_w);
    want.height = std::min(st.height, area_h);
    want.x = std::clamp(st.x, kMargin, kMargin + area_w - want.width);
    want.y = std::clamp(st.y, kMargin, kMargin + area_h - want.height);
  }
  if (!want.near(last)) {
    ImGui::SetNextWindowPos(ImVec2(want.x, want.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(want.width, want.height), ImGuiCond_Always);
  }
  return want;
}

// After Begin: where the window stands now; a place other than the one asked for is the user's doing.
void note_placement(TopologyPanelState& st, const Rect& asked) {
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  const Rect now{pos.x, pos.y, size.x, size.y};
  if (!now.near(asked)) st.placed_by_hand = true;
  st.x = now.x, st.y = now.y, st.width = now.width, st.height = now.height;
  st.scroll_max_x = ImGui::GetScrollMaxX();
}

}  // namespace

void draw_topology_panel(app::TopologyDocument& doc, TopologyPanelState& st, float right_margin) {
  doc.poll();
  for (const auto& n : doc.take_notices()) {
    st.message = n.text;
    st.message_is_error = n.error;
  }
  if (!st.open) return;
  if (!st.sample_opened && !doc.has_traffic() && !doc.busy()) {
    // Never an empty panel: the generated sample until the user loads something.
    st.sample_opened = true;
    try {
      doc.open_sample();
    } catch (const Error& e) {
      st.error = e.full_message();
    }
  }

  const Rect asked = place_window(st, ImGui::GetIO().DisplaySize, right_margin);
  ImGui::SetNextWindowBgAlpha(0.96f);
  const bool shown = ImGui::Begin("Topology", &st.open,
                                  ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse |
                                      ImGuiWindowFlags_HorizontalScrollbar);
  note_placement(st, asked);
  if (!shown) {
    ImGui::End();
    return;
  }
  const float status_h = ImGui::GetTextLineHeightWithSpacing() * 2.2f;
  ImGui::BeginChild("##controls", ImVec2(kControlsWidth, -status_h), true);
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 6);
  panels::draw_topology_controls(doc, st);
  ImGui::PopItemWidth();
  ImGui::EndChild();
  ImGui::SameLine();
  // The network and the top placements need room: a narrow window scrolls sideways rather than cutting them off.
  const float results_w = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * kResultsMinEms);
  ImGui::BeginChild("##results", ImVec2(results_w, -status_h), false);
  panels::draw_topology_results(doc, st);
  ImGui::EndChild();

  ImGui::Separator();
  if (!st.error.empty()) {
    panels::error_text(st.error);
  } else if (!st.message.empty()) {
    if (st.message_is_error)
      panels::error_text(st.message);
    else
      panels::note_text(st.message);
  } else {
    ImGui::TextDisabled(
        "File > Open traffic dataset... or drop a file: SNDlib .txt, a folder of SNDlib .xml, .csv, "
        "QAPLIB .dat");
  }
  ImGui::End();
}

}  // namespace ks::ui
