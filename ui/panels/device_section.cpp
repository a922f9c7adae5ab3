// Device: the GPU in use (name, compute capability, SMs, memory in use, measured copy bandwidth, driver and CUDA
// versions), or why the CPU backend is in use.
#include <imgui.h>

#include "report/text_format.hpp"
#include "panels/panel_sections.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

void draw_device_section(app::Session& s, PanelState&) {
  const app::DeviceStatus& d = s.device();
  ImGui::Text("CPU: %s", d.cpu.c_str());
  if (!d.cuda) {
    ImGui::TextUnformatted("GPU: none usable");
    note_text("The CPU backend is in use because " + d.unavailable_reason + ".");
    return;
  }
  const DeviceInfo& g = d.info;
  ImGui::Text("GPU: %s", g.name.c_str());
  ImGui::Text("compute capability %d.%d, %d SMs", g.cc_major, g.cc_minor, g.sm_count);
  const std::size_t used = g.total_memory > d.free_memory ? g.total_memory - d.free_memory : 0;
  ImGui::ProgressBar(g.total_memory ? float(double(used) / double(g.total_memory)) : 0.0f, ImVec2(-1, 0),
                     (report::format_memory(used) + " of " + report::format_memory(g.total_memory) + " in use").c_str());
  if (d.copy_bandwidth_gbps > 0)
    ImGui::Text("copy bandwidth %s GB/s", report::format_gbps(d.copy_bandwidth_gbps).c_str());
  else
    ImGui::TextDisabled("copy bandwidth: measuring...");
  help_marker("A large device-to-device copy, measured once at start (bytes read + bytes written per second): the "
              "practical limit a memory-bound kernel is compared with.");
  ImGui::TextDisabled("driver %s, CUDA runtime %s", cuda_version_text(g.driver_version).c_str(),
                      cuda_version_text(g.runtime_version).c_str());
}

}  // namespace ks::ui::panels
