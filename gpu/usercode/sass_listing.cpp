// The SASS listing from nvdisasm's output with line info (--print-line-info): each function's code follows
// `.section .text.NAME` and the labels `NAME:` / `.text.NAME:`; `//## File "PATH", line N` (with
// ` inlined at "PATH", line M` after it where a function was inlined: the place itself comes first) gives the
// place of the instructions after it, each written as `/*OFFSET*/  OPCODE OPERANDS ;`.
#include <regex>
#include <string>

#include "usercode/listing.hpp"

namespace ks::usercode {

namespace {

// "LDG.E R2, desc[UR4][R2.64] ;" from "/*0080*/   LDG.E R2, desc[UR4][R2.64] ;   /* 0x... */", spaces made single.
std::string instruction_text(std::string_view code) {
  if (const auto encoding = code.find("/*"); encoding != std::string_view::npos) code = code.substr(0, encoding);
  return single_spaced(code);
}

}  // namespace

Listing parse_sass_listing(std::string_view output, const std::string& user_file,
                           const std::vector<KernelFacts>& kernels) {
  static const std::regex section(R"(^\.section\s+\.text\.([\w$.]+))");
  static const std::regex other_section(R"(^\.section\s)");
  static const std::regex text_label(R"(^\.text\.([\w$.]+):$)");
  static const std::regex file_line(R"(^//## File \"((?:[^\"\\]|\\.)*)\", line (\d+))");
  static const std::regex instruction(R"(^/\*([0-9a-fA-F]+)\*/\s*(.*)$)");
  Listing listing;
  listing.kind = ListingKind::Sass;
  SourcePlace place;
  bool in_code = false;  // data sections (.nv.info, ...) have `/*OFFSET*/ .byte ...` lines too, when printed
  auto start_function = [&](const std::string& mangled) {
    if (!listing.kernels.empty() && listing.kernels.back().mangled_name == mangled) return;
    listing.kernels.push_back({kernel_name(mangled, kernels), mangled, {}});
    place = {};
  };
  while (!output.empty()) {
    const auto end = output.find('\n');
    const std::string line(trim(output.substr(0, end)));
    output.remove_prefix(end == std::string_view::npos ? output.size() : end + 1);
    std::smatch m;
    if (std::regex_search(line, m, section) || std::regex_search(line, m, text_label)) {
      start_function(m[1]);
      in_code = true;
    } else if (std::regex_search(line, other_section)) {
      in_code = false;
    } else if (!in_code) {
      continue;  // the ELF's headers and the sections that hold no code
    } else if (std::regex_search(line, m, file_line)) {
      place = place_in(m[1].str(), std::stoi(m[2]), user_file);
    } else if (std::regex_search(line, m, instruction)) {
      const std::string text = instruction_text(m[2].str());
      if (!text.empty() && !text.starts_with(".")) listing.kernels.back().lines.push_back({place.source_line, place.origin, text});
    } else if (line.starts_with(".L") && line.ends_with(":")) {  // a branch target
      listing.kernels.back().lines.push_back({0, LineOrigin::None, line});
    }
  }
  return listing;
}

}  // namespace ks::usercode
