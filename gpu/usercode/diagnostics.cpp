#include "usercode/diagnostics.hpp"

#include <fmt/format.h>

#include <initializer_list>
#include <optional>

#include "usercode/text_scan.hpp"

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

Severity severity_from(std::string_view word) {
  if (word == "warning") return Severity::Warning;
  if (word == "note" || word == "remark") return Severity::Note;
  return Severity::Error;  // error, catastrophic error, fatal error, Command-line error
}

// What follows the place in a header: `SEVERITY: MESSAGE` or `SEVERITY #CODE: MESSAGE`, SEVERITY one of `words`
// (in the order tried). As the pattern `(WORDS)( #(\S+))?: (.*)$` reads it.
struct Said {
  std::string_view severity;
  std::string_view code;
  std::string_view message;
};

std::optional<Said> read_said(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    std::string_view rest = text;
    if (!scan::eat(rest, word)) continue;
    Said said{word, {}, {}};
    if (scan::eat(rest, " #")) {
      // The code is the blank-free word before ": " ("177-D:"): it ends with the colon, a space follows it.
      const std::string_view code = scan::take_non_space(rest);
      if (code.size() < 2 || !code.ends_with(':') || !scan::eat(rest, " ")) continue;
      said.code = code.substr(0, code.size() - 1);
    } else if (!scan::eat(rest, ": ")) {
      continue;
    }
    said.message = rest;
    return said;
  }
  return std::nullopt;
}

// `FILE(LINE): SEVERITY[ #CODE]: MESSAGE`, `At end of source: ...` or a message with no place (a command-line
// error). Nothing in a header spans a line end (the patterns' `.` matched none).
std::optional<Header> read_header(std::string_view text) {
  if (!scan::is_one_line(text)) return std::nullopt;
  // The file name takes all it can (it was `(.+)`): of the `(LINE): `s a header reads on from, the last.
  for (std::size_t open = text.rfind('('); open != std::string_view::npos && open > 0;
       open = text.rfind('(', open - 1)) {
    std::string_view rest = text.substr(open + 1);
    const std::string_view line = scan::take_digits(rest);
    if (line.empty() || !scan::eat(rest, "): ")) continue;
    if (const auto said = read_said(rest, {"catastrophic error", "fatal error", "error", "warning", "note", "remark"}))
      return Header{std::string(text.substr(0, open)), scan::to_int(line), false, severity_from(said->severity),
                    std::string(said->code), std::string(said->message)};
  }
  std::string_view rest = text;
  if (scan::eat(rest, "At end of source: "))
    if (const auto said = read_said(rest, {"catastrophic error", "error", "warning"}))
      return Header{{}, 0, true, severity_from(said->severity), std::string(said->code), std::string(said->message)};
  if (const auto said = read_said(text, {"Command-line error", "catastrophic error", "error"}))
    return Header{{}, 0, false, Severity::Error, std::string(said->code), std::string(said->message)};
  return std::nullopt;
}

bool is_caret_line(const std::string& s) {
  const auto caret = s.find('^');
  return caret != std::string::npos && s.find_first_not_of(' ') == caret && s.find_first_not_of(' ', caret + 1) == std::string::npos;
}

// NVRTC indents its copy of the source line by two spaces; the caret column counts from there.
constexpr int kCaretIndent = 2;

// `N error(s) detected in the compilation of ...`, or the remark on suppressing warnings.
bool is_summary(std::string_view s) {
  if (s.starts_with("Remark: The warnings can be suppressed")) return true;
  if (!scan::is_one_line(s) || scan::take_digits(s).empty() || !scan::eat(s, " error")) return false;
  scan::eat(s, "s");
  return s.starts_with(" detected in the compilation of ");
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
