#pragma once
// "Why is it slow": the pitfalls of one run, each in a sentence with its numbers and the variant, block or
// option of kernelscope that fixes it. Reads what a report holds (launch, occupancy, timings, roofline,
// device) and the hardware counters when the run has them; without them it says nothing about what only they
// show (coalescing, bank conflicts, achieved occupancy, divergence). Shared by the CLI and the app.
//
//   auto findings = explain_why(why_input(report, &engine.cuda().device()));
//   fmt::print("{}", why_paragraph(findings, report.counters.has_value()));
//   json["why"] = why_json(findings);
#include <vector>

#include "report/why_finding.hpp"
#include "report/why_input.hpp"

namespace ks::report {

// In a fixed order: transfers-dominate, managed-page-faults, first-launch, memory-far-below-copy or
// compute-far-below-peak, uncoalesced, bank-conflicts, low-achieved-occupancy, divergence, low-occupancy,
// tail-effect, block-width. Empty when nothing stands out.
std::vector<WhyFinding> explain_why(const WhyInput& input);

// The findings of a report on its own (no device: the tail effect and a better block are looked for only
// where the report carries the launch arithmetic, as a lab report does).
std::vector<WhyFinding> explain_why(const RunReport& report, const DeviceInfo* device = nullptr);
std::vector<WhyFinding> explain_why(const lab::LabReport& report, const DeviceInfo* device = nullptr);
std::vector<WhyFinding> explain_why(const SimulationReport& report, const DeviceInfo* device = nullptr);

}  // namespace ks::report
