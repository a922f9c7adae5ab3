#include "usercode/diagnostics.hpp"

#include <fmt/format.h>

#include <optional>
#include <regex>

namespace ks::usercode {

namespace {

struct Header {
  std::string file;
  int line = 0;
  bool end_of_source = false;
  Severity severity = Severity::Error;
  std::string code;
  std::string message;
};

std::optional<Severity> severity_from(const std::string& word) {
  if (word == "error" || word == "catastrophic error" || word == "fatal error") return Severity::Error;
  if (word == "warning") return Severity::Warning;
  if (word == "note" || word == "remark") return Severity::Note;
  return std::nullopt;
}

std::optional<Header> read_header(const std::string& text) {
  static const std::regex placed(R"(^(.+)\((\d+)\): (catastrophic error|fatal error|error|warning|note|remark)( #(\S+))?: (.*)$)");
  static const std::regex end_of_source(R"(^At end of source: (catastrophic error|error|warning)( #(\S+))?: (.*)$)");
  static const std::regex command_line(R"(^(Command-line error|catastrophic error|error)( #(\S+))?: (.*)$)");
  std::smatch m;
  if (std::regex_match(text, m, placed))
    return Header{m[1], std::stoi(m[2]), false, *severity_from(m[3]), m[5], m[6]};
  if (std::regex_match(text, m, end_of_source))
    return Header{{}, 0, true, *severity_from(m[1]), m[3], m[4]};
  if (std::regex_match(text, m, command_line)) return Header{{}, 0, false, Severity::Error, m[3], m[4]};
  return std::nullopt;
}

bool is_caret_line(const std::string& s) {
  const auto caret = s.find('^');
  return caret != std::string::npos && s.find_first_not_of(' ') == caret && s.find_first_not_of(' ', caret + 1) == std::string::npos;
}

// NVRTC indents its copy of the source line by two spaces; the caret column counts from there.
constexpr int kCaretIndent = 2;

bool is_summary(const std::string& s) {
  static const std::regex summary(R"(^\d+ errors? detected in the compilation of .*$)");
  return s.starts_with("Remark: The warnings can be suppressed") || std::regex_match(s, summary);
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string line(text.substr(0, eol));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
  }
  return lines;
}

}  // namespace

const char* to_string(Severity s) noexcept {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "?";
}

std::vector<Diagnostic> parse_nvrtc_log(std::string_view log, const std::string& user_file, int user_line_count) {
  const std::vector<std::string> lines = split_lines(log);
  std::vector<Diagnostic> out;
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::optional<Header> h = read_header(lines[i]);
    if (!h) {
      ++i;  // blank lines, summaries, ptxas info (facts are read elsewhere)
      continue;
    }
    Diagnostic d;
    d.file = h->end_of_source ? user_file : h->file;
    d.line = h->end_of_source ? user_line_count : h->line;
    d.severity = h->severity;
    d.code = h->code;
    d.message = h->message;
    d.at_end_of_source = h->end_of_source;
    ++i;
    // The body runs to the next blank line or header; the line before a caret line is its source line.
    while (i < lines.size() && !lines[i].empty() && !read_header(lines[i]) && !is_summary(lines[i])) {
      if (is_caret_line(lines[i]) && !d.details.empty()) {
        d.caret_lines = {d.details.back(), lines[i]};
        d.details.pop_back();
        d.column = static_cast<int>(lines[i].find('^')) - kCaretIndent + 1;
      } else {
        d.details.push_back(lines[i]);
      }
      ++i;
    }
    // "to match this {": the note right after an end-of-source error says which brace it could not match.
    const bool matching_note = d.severity == Severity::Note && d.message.starts_with("to match this") &&
                               !out.empty() && out.back().at_end_of_source && out.back().related_line == 0;
    if (matching_note) {
      Diagnostic& e = out.back();
      e.related_line = d.line;
      e.related_column = d.column;
      e.related_caret_lines = d.caret_lines;
      continue;
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string format_diagnostic(const Diagnostic& d) {
  std::string place = d.file.empty() ? std::string("kernelscope-compile") : d.file;
  if (d.line > 0) place += fmt::format(":{}", d.line);
  std::string s = fmt::format("{}: {}: {}", place, to_string(d.severity), d.message);
  if (d.at_end_of_source) {
    s += " (at the end of the source";
    if (d.related_line > 0) s += fmt::format("; the brace it could not match is at line {}", d.related_line);
    s += ")";
  }
  s += "\n";
  for (const auto& l : d.details) s += l + "\n";
  for (const auto& l : d.caret_lines) s += l + "\n";
  for (const auto& l : d.related_caret_lines) s += l + "\n";
  return s;
}

int count_errors(const std::vector<Diagnostic>& diagnostics) {
  int n = 0;
  for (const auto& d : diagnostics) n += d.severity == Severity::Error;
  return n;
}

}  // namespace ks::usercode
