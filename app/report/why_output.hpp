#pragma once
// The forms of the "Why" findings: the JSON array every report carries and the CLI's paragraph.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_counters.hpp"
#include "report/why_finding.hpp"

namespace ks::report {

// [{"id": "uncoalesced", "finding": "...", "fix": "..."}, ...]; [] when nothing stands out.
nlohmann::ordered_json why_json(const std::vector<WhyFinding>& findings);

// "Why:\n  - finding\n    fix: ...\n", wrapped at 100 columns. With nothing found, one line saying so;
// without counters it adds what they would show (`with_counters` false), so that silence is not read as
// "coalesced".
std::string why_paragraph(const std::vector<WhyFinding>& findings, bool with_counters);
// The same for a report's counters: one-pass counters (CounterSet::Quick) add that coalescing and bank conflicts
// were not measured.
std::string why_paragraph(const std::vector<WhyFinding>& findings, const std::optional<KernelCounters>& counters);

}  // namespace ks::report
