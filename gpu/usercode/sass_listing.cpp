// The SASS listing from nvdisasm's output with line info (--print-line-info): each function's code follows
// `.section .text.NAME` and the labels `NAME:` / `.text.NAME:`; `//## File "PATH", line N` (with
// ` inlined at "PATH", line M` after it where a function was inlined: the place itself comes first) gives the
// place of the instructions after it, each written as `/*OFFSET*/  OPCODE OPERANDS ;`.
#include <optional>
#include <string>
#include <utility>

#include "usercode/listing.hpp"
#include "usercode/text_scan.hpp"

namespace ks::usercode {

namespace {

// "LDG.E R2, desc[UR4][R2.64] ;" from "/*0080*/   LDG.E R2, desc[UR4][R2.64] ;   /* 0x... */", spaces made single.
std::string instruction_text(std::string_view code) {
  if (const auto encoding = code.find("/*"); encoding != std::string_view::npos) code = code.substr(0, encoding);
  return single_spaced(code);
}

// `.section .text.NAME ...` or the label `.text.NAME:`: the function whose code follows.
std::optional<std::string_view> code_section(std::string_view line) {
  std::string_view rest = line;
  if (scan::eat(rest, ".section") && scan::skip_spaces(rest) && scan::eat(rest, ".text.")) {
    const std::string_view name = scan::take_while(rest, scan::is_symbol_char);
    if (!name.empty()) return name;
  }
  rest = line;
  if (scan::eat(rest, ".text.")) {
    const std::string_view name = scan::take_while(rest, scan::is_symbol_char);
    if (!name.empty() && rest == ":") return name;
  }
  return std::nullopt;
}

// Any other section (data: .nv.info, .nv.callgraph, ...).
bool is_section(std::string_view line) { return scan::eat(line, ".section") && !line.empty() && scan::is_space(line[0]); }

// `//## File "PATH", line N` (then maybe ` inlined at ...`): the path as written and the line.
std::optional<std::pair<std::string_view, std::string_view>> file_line(std::string_view line) {
  if (!scan::eat(line, "//## File \"")) return std::nullopt;
  const std::optional<std::string_view> path = scan::take_quoted(line);
  if (!path || !scan::eat(line, ", line ")) return std::nullopt;
  const std::string_view number = scan::take_digits(line);
  if (number.empty()) return std::nullopt;
  return std::pair{*path, number};
}

// `/*OFFSET*/ CODE`, OFFSET in hex: the code after the offset (blanks before it skipped).
std::optional<std::string_view> instruction(std::string_view line) {
  if (!scan::eat(line, "/*")) return std::nullopt;
  const std::string_view offset = scan::take_while(line, [](char c) {
    return scan::is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
  if (offset.empty() || !scan::eat(line, "*/")) return std::nullopt;
  scan::skip_spaces(line);
  if (!scan::is_one_line(line)) return std::nullopt;
  return line;
}

}  // namespace

Listing parse_sass_listing(std::string_view output, const std::string& user_file,
                           const std::vector<KernelFacts>& kernels) {
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
    const std::string_view line = trim(output.substr(0, end));
    output.remove_prefix(end == std::string_view::npos ? output.size() : end + 1);
    if (const auto function = code_section(line)) {
      start_function(std::string(*function));
      in_code = true;
    } else if (is_section(line)) {
      in_code = false;
    } else if (!in_code) {
      continue;  // the ELF's headers and the sections that hold no code
    } else if (const auto file = file_line(line)) {
      place = place_in(file->first, scan::to_int(file->second), user_file);
    } else if (const auto code = instruction(line)) {
      const std::string text = instruction_text(*code);
      if (!text.empty() && !text.starts_with(".")) listing.kernels.back().lines.push_back({place.source_line, place.origin, text});
    } else if (line.starts_with(".L") && line.ends_with(":")) {  // a branch target
      listing.kernels.back().lines.push_back({0, LineOrigin::None, std::string(line)});
    }
  }
  return listing;
}

}  // namespace ks::usercode
