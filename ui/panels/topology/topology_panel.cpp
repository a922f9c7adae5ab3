// The Topology window: controls at the left, results at the right; the document's notices at the bottom.
#include "panels/topology/topology_panel.hpp"

#include <imgui.h>

#include <algorithm>

#include "core/error.hpp"
#include "panels/panel_sections.hpp"
#include "panels/topology/topology_sections.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::ui {

namespace {

constexpr float kMargin = 10.0f;
constexpr float kControlsWidth = 340.0f;

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

  const ImGuiIO& io = ImGui::GetIO();
  const float w = std::max(480.0f, io.DisplaySize.x - right_margin - 2 * kMargin);
  ImGui::SetNextWindowPos(ImVec2(kMargin, kMargin), ImGuiCond_Appearing);
  ImGui::SetNextWindowSize(ImVec2(w, std::max(360.0f, io.DisplaySize.y - 2 * kMargin)), ImGuiCond_Appearing);
  ImGui::SetNextWindowBgAlpha(0.96f);
  if (!ImGui::Begin("Topology", &st.open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
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
  ImGui::BeginChild("##results", ImVec2(0, -status_h), false);
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
