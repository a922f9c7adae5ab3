#include "report/why_output.hpp"

#include "report/text_format.hpp"

namespace ks::report {

namespace {
constexpr std::size_t kColumns = 100;
}  // namespace

nlohmann::ordered_json why_json(const std::vector<WhyFinding>& findings) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const WhyFinding& f : findings) list.push_back({{"id", f.id}, {"finding", f.finding}, {"fix", f.fix}});
  return list;
}

std::string why_paragraph(const std::vector<WhyFinding>& findings, bool with_counters) {
  std::string s = "Why:\n";
  if (findings.empty()) s += "  nothing stands out in what this run measured.\n";
  for (const WhyFinding& f : findings) {
    std::string item = wrap_text("- " + f.finding + " [" + f.id + "]", kColumns, 2);
    s += item;
    s += wrap_text("fix: " + f.fix, kColumns, 4);
  }
  if (!with_counters)
    s += wrap_text(
        "(no hardware counters: coalescing, bank conflicts, achieved occupancy and divergence were not "
        "measured)",
        kColumns, 2);
  return s;
}

std::string why_paragraph(const std::vector<WhyFinding>& findings, const std::optional<KernelCounters>& counters) {
  std::string s = why_paragraph(findings, counters.has_value());
  if (counters && counters->set == CounterSet::Quick)
    s += wrap_text("(one-pass counters: coalescing and bank conflicts were not measured; --counters reads them)",
                   kColumns, 2);
  return s;
}

}  // namespace ks::report
