// The PTX listing: NVRTC's PTX with `-lineinfo` has a `.loc FILE LINE COLUMN` before the instructions of each
// place in the source (`, inlined_at ...` after it where a function was inlined: the place itself comes first)
// and, after the code, `.file N "PATH"` for each FILE. Each `.entry` (and `.func`) body becomes a KernelListing.
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "usercode/listing.hpp"
#include "usercode/text_scan.hpp"

namespace ks::usercode {

namespace {

// `.file 1 "/abs/smooth.cu"` (optionally `, TIMESTAMP, SIZE` after it): the file's number and its path as written.
std::optional<std::pair<std::string_view, std::string_view>> file_directive(std::string_view line) {
  if (!scan::eat(line, ".file") || !scan::skip_spaces(line)) return std::nullopt;
  const std::string_view number = scan::take_digits(line);
  if (number.empty() || !scan::skip_spaces(line) || !scan::eat(line, "\"")) return std::nullopt;
  const std::optional<std::string_view> path = scan::take_quoted(line);
  if (!path) return std::nullopt;
  return std::pair{number, *path};
}

// File number to path.
std::map<int, std::string> ptx_files(const std::vector<std::string_view>& lines) {
  std::map<int, std::string> files;
  for (std::string_view line : lines)
    if (const auto file = file_directive(trim(line))) files[scan::to_int(file->first)] = file->second;
  return files;
}

// `.entry NAME`, `.visible .func (.param .b32 r) NAME`, `.weak .func NAME`: the function's name.
std::optional<std::string_view> function_name(std::string_view line) {
  for (std::string_view linkage : {".visible", ".weak"})
    if (std::string_view rest = line; scan::eat(rest, linkage) && scan::skip_spaces(rest)) {
      line = rest;
      break;
    }
  if (!scan::eat(line, ".entry") && !scan::eat(line, ".func")) return std::nullopt;
  if (!scan::skip_spaces(line)) return std::nullopt;
  if (const std::size_t close = line.find(')'); line.starts_with('(') && close != std::string_view::npos) {
    line.remove_prefix(close + 1);  // a .func's return value
    scan::skip_spaces(line);
  }
  const std::string_view name = scan::take_while(line, scan::is_symbol_char);
  if (name.empty()) return std::nullopt;
  return name;
}

// `.loc FILE LINE COLUMN`: the file's number and the line.
std::optional<std::pair<std::string_view, std::string_view>> loc_directive(std::string_view line) {
  if (!scan::eat(line, ".loc") || !scan::skip_spaces(line)) return std::nullopt;
  const std::string_view file = scan::take_digits(line);
  if (file.empty() || !scan::skip_spaces(line)) return std::nullopt;
  const std::string_view source_line = scan::take_digits(line);
  if (source_line.empty()) return std::nullopt;
  return std::pair{file, source_line};
}

}  // namespace

Listing ptx_listing(const CompiledModule& m) {
  const std::vector<std::string_view> lines = lines_of(m.ptx);
  const std::map<int, std::string> files = ptx_files(lines);
  Listing listing;
  listing.kind = ListingKind::Ptx;
  enum class State { Outside, Header, Body } state = State::Outside;
  int depth = 0;
  SourcePlace place;
  for (std::string_view raw : lines) {
    const std::string_view line = trim(raw);
    if (state == State::Outside) {
      if (const auto name = function_name(line)) {
        const std::string mangled(*name);
        listing.kernels.push_back({kernel_name(mangled, m.kernels), mangled, {}});
        state = State::Header;
        place = {};
      }
      continue;
    }
    if (state == State::Header) {
      if (line.starts_with("{")) {
        state = State::Body;
        depth = 1;
      } else if (line.ends_with(";")) {  // a declaration (`.extern .func vprintf(...);`): no body
        listing.kernels.pop_back();
        state = State::Outside;
      }
      continue;
    }
    if (line.starts_with("}") && --depth == 0) {
      state = State::Outside;
      continue;
    }
    if (line.starts_with("{")) {  // a scope of its own (a call sequence, inline asm)
      ++depth;
      continue;
    }
    if (line.empty() || line.starts_with("//")) continue;
    if (line.starts_with(".")) {
      if (const auto loc = loc_directive(line)) {
        const auto file = files.find(scan::to_int(loc->first));
        place = file == files.end() ? SourcePlace{} : place_in(file->second, scan::to_int(loc->second), m.file_name);
      }
      continue;  // .reg, .local, .pragma ...: declarations, not instructions
    }
    KernelListing& k = listing.kernels.back();
    if (line.ends_with(":"))  // a label: a branch target, of no line of its own
      k.lines.push_back({0, LineOrigin::None, std::string(line)});
    else
      k.lines.push_back({place.source_line, place.origin, single_spaced(line)});
  }
  return listing;
}

}  // namespace ks::usercode
