#include "report/why_explain.hpp"

#include "report/why_detectors.hpp"

namespace ks::report {

std::vector<WhyFinding> explain_why(const WhyInput& in) {
  std::vector<WhyFinding> out;
  why::find_timing_pitfalls(in, out);
  why::find_roofline_pitfalls(in, out);
  why::find_counter_pitfalls(in, out);
  why::find_launch_pitfalls(in, out);
  return out;
}

std::vector<WhyFinding> explain_why(const RunReport& report, const DeviceInfo* device) {
  return explain_why(why_input(report, device));
}

std::vector<WhyFinding> explain_why(const lab::LabReport& report, const DeviceInfo* device) {
  return explain_why(why_input(report, device));
}

std::vector<WhyFinding> explain_why(const SimulationReport& report, const DeviceInfo* device) {
  return explain_why(why_input(report, device));
}

}  // namespace ks::report
