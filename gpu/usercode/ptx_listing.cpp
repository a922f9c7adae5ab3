// The PTX listing: NVRTC's PTX with `-lineinfo` has a `.loc FILE LINE COLUMN` before the instructions of each
// place in the source (`, inlined_at ...` after it where a function was inlined: the place itself comes first)
// and, after the code, `.file N "PATH"` for each FILE. Each `.entry` (and `.func`) body becomes a KernelListing.
#include <map>
#include <regex>
#include <string>

#include "usercode/listing.hpp"

namespace ks::usercode {

namespace {

// `.file 1 "/abs/smooth.cu"` (optionally `, TIMESTAMP, SIZE` after it): file number to path.
std::map<int, std::string> ptx_files(const std::vector<std::string_view>& lines) {
  static const std::regex file(R"(^\.file\s+(\d+)\s+\"((?:[^\"\\]|\\.)*)\")");
  std::map<int, std::string> files;
  for (std::string_view line : lines) {
    const std::string l(trim(line));
    if (std::smatch m; std::regex_search(l, m, file)) files[std::stoi(m[1])] = m[2];
  }
  return files;
}

}  // namespace

Listing ptx_listing(const CompiledModule& m) {
  static const std::regex function(R"(^(?:\.visible\s+|\.weak\s+)?\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$.]+))");
  static const std::regex loc(R"(^\.loc\s+(\d+)\s+(\d+))");
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
      const std::string l(line);
      if (std::smatch f; std::regex_search(l, f, function)) {
        listing.kernels.push_back({kernel_name(f[2], m.kernels), f[2], {}});
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
      const std::string l(line);
      if (std::smatch d; std::regex_search(l, d, loc)) {
        const auto file = files.find(std::stoi(d[1]));
        place = file == files.end() ? SourcePlace{} : place_in(file->second, std::stoi(d[2]), m.file_name);
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
