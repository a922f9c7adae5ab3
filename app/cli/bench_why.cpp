#include "cli/bench_why.hpp"

#include <fmt/format.h>

#include <map>

#include "report/text_format.hpp"
#include "report/why_explain.hpp"

namespace ks::cli {

std::vector<report::WhyFinding> bench_row_why(const BenchRow& row, const DeviceInfo* cuda) {
  if (row.status != BenchRow::Status::Ok) return {};
  const DeviceInfo* device = row.bench_case.backend == Backend::Cuda ? cuda : nullptr;
  return row.lab ? report::explain_why(*row.lab, device) : report::explain_why(row.report, device);
}

std::string bench_why_summary(const std::vector<BenchRow>& rows, const DeviceInfo* cuda) {
  constexpr std::size_t kCasesNamed = 4;  // beyond this the line says how many more
  std::vector<std::string> order;         // ids in the order first found
  std::map<std::string, std::vector<std::string>> cases;
  int ok = 0;
  for (const BenchRow& row : rows) {
    if (row.status != BenchRow::Status::Ok) continue;
    ++ok;
    for (const report::WhyFinding& f : bench_row_why(row, cuda)) {
      if (!cases.count(f.id)) order.push_back(f.id);
      cases[f.id].push_back(row.bench_case.label());
    }
  }
  if (order.empty()) return {};
  std::string s =
      "Why (by finding; `run` or `lab` on one case explains it in full, --json has every row's):\n";
  for (const std::string& id : order) {
    const std::vector<std::string>& names = cases[id];
    std::string line = fmt::format("{} in {} of {} cases: ", id, names.size(), ok);
    for (std::size_t i = 0; i < names.size() && i < kCasesNamed; ++i) line += (i ? "; " : "") + names[i];
    if (names.size() > kCasesNamed) line += fmt::format("; and {} more", names.size() - kCasesNamed);
    s += report::wrap_text(line, 100, 2);
  }
  return s;
}

}  // namespace ks::cli
