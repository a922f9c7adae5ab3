#include "topo/inputs/text_lines.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace ks::topo {

TextLines::TextLines(const std::filesystem::path& path) : name_(path.string()) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw_io("'" + name_ + "' is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_io("cannot read '" + name_ + "': " + std::strerror(errno), "check the path and permissions");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw_io("cannot read '" + name_ + "': read error");
  split(buffer.str());
}

TextLines::TextLines(std::string name, std::string text) : name_(std::move(name)) { split(text); }

void TextLines::split(const std::string& text) {
  text_ = text;
  std::string_view all = text_;
  if (all.size() >= 3 && all.substr(0, 3) == "\xEF\xBB\xBF") all.remove_prefix(3);  // UTF-8 byte order mark
  while (!all.empty()) {
    const std::size_t end = all.find('\n');
    std::string_view l = all.substr(0, end);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines_.push_back(l);
    if (end == std::string_view::npos) break;
    all.remove_prefix(end + 1);
  }
}

void TextLines::fail(std::size_t index, const std::string& what, const std::string& hint) const {
  throw_io(name_ + " line " + std::to_string(index + 1) + ": " + what, hint);
}

void TextLines::fail_file(const std::string& what, const std::string& hint) const {
  throw_io(name_ + ": " + what, hint);
}

std::string_view trim(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const std::size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string_view strip_comment(std::string_view line, char comment) {
  const std::size_t at = line.find(comment);
  return trim(at == std::string_view::npos ? line : line.substr(0, at));
}

std::vector<std::string_view> split_blanks(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

std::vector<std::string> split_fields(std::string_view s, char separator) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (char c : s) {
    if (c == '"')
      quoted = !quoted;
    else if (c == separator && !quoted)
      fields.emplace_back();
    else
      fields.back() += c;
  }
  for (auto& f : fields) f = std::string(trim(f));
  return fields;
}

}  // namespace ks::topo
