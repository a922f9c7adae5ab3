#include "report/listing_text.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

namespace ks::report {

std::string listing_text(const usercode::Listing& listing, std::string_view source) {
  using usercode::LineOrigin;
  const std::vector<std::string_view> lines = usercode::lines_of(source);
  std::string out;
  for (const usercode::KernelListing& k : listing.kernels) {
    out += fmt::format("{} of {}:\n", to_string(listing.kind), k.name);
    std::set<int> shown;
    bool first = true;
    LineOrigin origin = LineOrigin::None;
    int line = -1;
    for (const usercode::ListingLine& i : k.lines) {
      const bool label = i.origin == LineOrigin::None && i.text.ends_with(":");
      if (label) {  // a branch target stands at the left, as in the listing itself
        out += fmt::format("      {}\n", i.text);
        continue;
      }
      if (first || i.origin != origin || i.source_line != line) {
        origin = i.origin;
        line = i.source_line;
        first = false;
        if (origin == LineOrigin::User) {
          const bool again = !shown.insert(line).second;
          const std::string_view text =
              line >= 1 && std::size_t(line) <= lines.size() ? usercode::trim(lines[line - 1]) : "";
          out += fmt::format("{:>5} | {}\n", line, again ? "(again)" : text);
        } else {
          out += fmt::format("      | {}\n", origin == LineOrigin::Prelude  ? "(prelude: ks_prelude.cuh)"
                                             : origin == LineOrigin::Header ? "(CUDA header)"
                                                                            : "(no source line)");
        }
      }
      out += fmt::format("          {}\n", i.text);
    }
    out += '\n';
  }
  return out;
}

nlohmann::ordered_json listing_json(const usercode::Listing& listing, const std::string& file,
                                    const std::string& arch) {
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const usercode::KernelListing& k : listing.kernels) {
    nlohmann::ordered_json lines = nlohmann::ordered_json::array();
    for (const usercode::ListingLine& i : k.lines)
      lines.push_back({{"source_line", i.source_line}, {"origin", to_string(i.origin)}, {"text", i.text}});
    kernels.push_back({{"name", k.name}, {"mangled_name", k.mangled_name}, {"lines", std::move(lines)}});
  }
  return {{"schema", "kernelscope.listing/1"}, {"file", file},   {"kind", to_string(listing.kind)},
          {"arch", arch},                      {"note", listing.note}, {"kernels", std::move(kernels)}};
}

}  // namespace ks::report
