#include "copies/copy_template.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <vector>

#include "core/error.hpp"

namespace ks::copies {

namespace {

[[noreturn]] void template_bug(const std::string& what) { throw Error(ErrorKind::Internal, what); }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The line with each {{NAME}} replaced by its value.
std::string substitute(std::string_view line, const std::map<std::string, std::string>& values, int number) {
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t open = line.find("{{", at);
    if (open == std::string_view::npos) break;
    const std::size_t close = line.find("}}", open + 2);
    if (close == std::string_view::npos) template_bug(fmt::format("copy template line {}: `{{{{` is never closed", number));
    const std::string name(line.substr(open + 2, close - open - 2));
    const auto value = values.find(name);
    if (value == values.end())
      template_bug(fmt::format("copy template line {}: no value for the placeholder `{}`", number, name));
    out.append(line.substr(at, open - at));
    out += value->second;
    at = close + 2;
  }
  out.append(line.substr(at));
  return out;
}

}  // namespace

std::string expand_template(std::string_view text, const std::map<std::string, std::string>& values,
                            const std::set<std::string>& conditions) {
  struct Block {
    bool parent_kept;  // whether the lines around the block are kept
    bool condition;
    bool in_else;
    int line;
  };
  std::vector<Block> blocks;
  auto kept = [&] {
    if (blocks.empty()) return true;
    const Block& b = blocks.back();
    return b.parent_kept && (b.in_else ? !b.condition : b.condition);
  };
  std::string out;
  int number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string_view line = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    at = end == std::string_view::npos ? text.size() : end + 1;
    ++number;
    const std::string_view t = trimmed(line);
    if (t.starts_with("{{if ") && t.ends_with("}}")) {
      const std::string name(trimmed(t.substr(5, t.size() - 7)));
      blocks.push_back({kept(), conditions.count(name) != 0, false, number});
      continue;
    }
    if (t == "{{else}}" || t == "{{end}}") {
      if (blocks.empty()) template_bug(fmt::format("copy template line {}: `{}` without its `{{{{if}}}}`", number, t));
      if (t == "{{end}}") blocks.pop_back();
      else blocks.back().in_else = true;
      continue;
    }
    if (!kept()) continue;
    out += substitute(line, values, number);
    if (end != std::string_view::npos) out += '\n';
  }
  if (!blocks.empty())
    template_bug(fmt::format("copy template line {}: `{{{{if}}}}` is never ended", blocks.back().line));
  return out;
}

std::string comment_lines(std::string_view text, std::size_t width) {
  std::string out;
  std::size_t line = 3;  // the template's "// "
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(at, end - at);
    if (!out.empty() && line + 1 + word.size() > width) {
      out += "\n// ";
      line = 3;
    } else if (!out.empty()) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
    at = end + 1;
  }
  return out;
}

std::string float_text(float v) {
  for (int digits = 1; digits < 9; ++digits) {
    const std::string s = fmt::format("{:.{}g}", v, digits);
    if (std::strtof(s.c_str(), nullptr) == v) return s;
  }
  return fmt::format("{:.9g}", v);  // 9 significant digits always read back as the same float
}

std::string float_literal(float v) {
  std::string s = float_text(v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s + "f";
}

}  // namespace ks::copies
