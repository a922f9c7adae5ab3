#include "usercode/listing.hpp"

#include "usercode/prelude_headers.hpp"

namespace ks::usercode {

const char* to_string(ListingKind kind) { return kind == ListingKind::Ptx ? "PTX" : "SASS"; }

const char* to_string(LineOrigin origin) {
  switch (origin) {
    case LineOrigin::User: return "user";
    case LineOrigin::Prelude: return "prelude";
    case LineOrigin::Header: return "header";
    case LineOrigin::None: break;
  }
  return "none";
}

bool names_user_file(std::string_view path, std::string_view user_file) {
  if (user_file.empty()) return false;
  if (path == user_file) return true;
  return path.size() > user_file.size() && path.ends_with(user_file) && path[path.size() - user_file.size() - 1] == '/';
}

SourcePlace place_in(std::string_view path, int line, std::string_view user_file) {
  if (names_user_file(path, user_file)) return {LineOrigin::User, line};
  // The prelude and the core headers it includes go by these names (nvrtc_compile.cpp), which NVRTC makes
  // absolute like the user's.
  for (std::string_view name : kPreludeHeaderNames)
    if (names_user_file(path, name)) return {LineOrigin::Prelude, 0};
  return {LineOrigin::Header, 0};
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::string single_spaced(std::string_view text) {
  std::string out;
  for (char c : trim(text)) {
    if (c == '\t' || c == '\r') c = ' ';
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::string kernel_name(const std::string& mangled, const std::vector<KernelFacts>& kernels) {
  for (const auto& k : kernels)
    if (k.mangled_name == mangled) return k.name;
  return mangled;
}

}  // namespace ks::usercode
