#pragma once
// Small readers for the text the compile path reads: NVRTC's log, ptxas's report, PTX, nvdisasm's output and the
// user's `// @param` lines. Each takes what it reads off the front of a string_view, so a parser reads left to
// right and says in a comment which pattern it stands for. std::regex is not used because libstdc++ builds its
// character-class caches through the locale's collate facet (regex_traits::transform_primary), and that crashed
// (SIGSEGV) in the Python module whenever a wheel such as numpy's was loaded before it; these touch no locale.
#include <optional>
#include <string>
#include <string_view>

namespace ks::usercode::scan {

// The classes as std::regex had them in the C locale: \d, \s, \w, and what `.` matches (all but line ends).
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }  // space, \t \n \v \f \r
constexpr bool is_word(char c) {
  return is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
constexpr bool is_symbol_char(char c) { return is_word(c) || c == '$' || c == '.'; }  // [\w$.]: a PTX/SASS name
constexpr bool is_one_line(std::string_view s) { return s.find_first_of("\r\n") == std::string_view::npos; }

// Takes `prefix` off the front of `s` when `s` starts with it.
constexpr bool eat(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// Takes the longest run at the front of `s` whose characters satisfy `keep` (empty when there is none).
template <class Keep>
constexpr std::string_view take_while(std::string_view& s, Keep keep) {
  std::size_t n = 0;
  while (n < s.size() && keep(s[n])) ++n;
  const std::string_view run = s.substr(0, n);
  s.remove_prefix(n);
  return run;
}
constexpr std::string_view take_digits(std::string_view& s) { return take_while(s, is_digit); }
constexpr std::string_view take_non_space(std::string_view& s) {
  return take_while(s, [](char c) { return !is_space(c); });
}
// Whether there was a blank to skip (\s+ when true, \s* either way).
constexpr bool skip_spaces(std::string_view& s) { return !take_while(s, is_space).empty(); }

// The run of digits that ends where `s` ends (empty when `s` does not end in a digit).
constexpr std::string_view digits_at_end(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && is_digit(s[s.size() - 1 - n])) ++n;
  return s.substr(s.size() - n);
}

// After an opening `"`: the text up to the closing `"`, escapes (`\"`, `\\`) kept as written; the closing quote is
// taken too. Nothing is taken when the string does not close on this line.
constexpr std::optional<std::string_view> take_quoted(std::string_view& s) {
  std::size_t n = 0;
  while (n < s.size() && s[n] != '"') {
    if (s[n] != '\\') ++n;
    else if (n + 1 < s.size() && s[n + 1] != '\n' && s[n + 1] != '\r') n += 2;
    else return std::nullopt;
  }
  if (n == s.size()) return std::nullopt;
  const std::string_view inside = s.substr(0, n);
  s.remove_prefix(n + 1);
  return inside;
}

// A run of digits as an int, as std::stoi reads it (std::out_of_range past INT_MAX).
inline int to_int(std::string_view digits) { return std::stoi(std::string(digits)); }

}  // namespace ks::usercode::scan
