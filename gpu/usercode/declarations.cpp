#include "usercode/declarations.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

#include "core/error.hpp"
#include "usercode/text_scan.hpp"

namespace ks::usercode {

namespace {

constexpr const char* kParamForm = "write it as `// @param NAME int|float [MIN, MAX] = DEFAULT description`";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

struct LineContext {
  const std::string& file;
  int line;
  [[noreturn]] void fail(const std::string& what, const std::string& hint) const {
    throw_usage(fmt::format("{}:{}: {}", file, line, what), hint);
  }
};

double parse_number(std::string_view text, const char* what, const LineContext& at) {
  const std::string s(trim(text));
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
    at.fail(fmt::format("the {} `{}` is not a finite number", what, s), kParamForm);
  return v;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// The words of `NAME TYPE [MIN, MAX] = DEFAULT DESCRIPTION`, unchecked: NAME, TYPE and DEFAULT have no blanks,
// MIN runs to the first `,` (no `]` before it), MAX on to the first `]`, the description (maybe empty) is the rest.
struct ParamWords {
  std::string_view name, type, min, max, value, description;
};

std::optional<ParamWords> split_param(std::string_view s) {
  ParamWords w;
  w.name = scan::take_non_space(s);
  if (w.name.empty() || !scan::skip_spaces(s)) return std::nullopt;
  w.type = scan::take_non_space(s);
  if (w.type.empty() || !scan::skip_spaces(s) || !scan::eat(s, "[")) return std::nullopt;
  w.min = scan::take_while(s, [](char c) { return c != ',' && c != ']'; });
  if (!scan::eat(s, ",")) return std::nullopt;
  w.max = scan::take_while(s, [](char c) { return c != ']'; });
  if (!scan::eat(s, "]")) return std::nullopt;
  scan::skip_spaces(s);
  if (!scan::eat(s, "=")) return std::nullopt;
  scan::skip_spaces(s);
  w.value = scan::take_non_space(s);
  scan::skip_spaces(s);
  if (w.value.empty() || !scan::is_one_line(s)) return std::nullopt;
  w.description = s;
  return w;
}

DeclaredParameter parse_param(std::string_view rest, const LineContext& at) {
  const std::optional<ParamWords> m = split_param(rest);
  if (!m) at.fail(fmt::format("cannot read the parameter `{}`", rest), kParamForm);
  DeclaredParameter p;
  p.name = m->name;
  p.line = at.line;
  if (!is_identifier(p.name))
    at.fail(fmt::format("the parameter name `{}` is not an identifier", p.name),
            "use letters, digits and _ (not starting with a digit), as for a C++ variable");
  if (m->type == "int") p.type = ParamType::Int;
  else if (m->type == "float") p.type = ParamType::Float;
  else at.fail(fmt::format("the parameter `{}` has the type `{}`", p.name, m->type), "the types are int and float");
  p.min = parse_number(m->min, "minimum", at);
  p.max = parse_number(m->max, "maximum", at);
  p.value = parse_number(m->value, "default", at);
  p.description = std::string(trim(m->description));
  if (p.min > p.max)
    at.fail(fmt::format("the parameter `{}` has the impossible range [{}, {}]: its minimum exceeds its maximum",
                        p.name, p.min, p.max),
            "write the smaller bound first");
  if (p.type == ParamType::Int) {
    for (const auto& [v, what] : {std::pair{p.min, "minimum"}, {p.max, "maximum"}, {p.value, "default"}})
      if (v != std::floor(v) || std::fabs(v) > 2147483647.0)
        at.fail(fmt::format("the int parameter `{}` has the {} {}, which is not a 32-bit integer", p.name, what, v),
                "give int parameters whole numbers, or declare the parameter float");
  }
  if (p.value < p.min || p.value > p.max)
    at.fail(fmt::format("the default {} of the parameter `{}` is outside its range [{}, {}]", p.value, p.name, p.min,
                        p.max),
            "pick a default within the range");
  return p;
}

}  // namespace

const char* to_string(ParamType t) noexcept { return t == ParamType::Int ? "int" : "float"; }

KernelDeclarations parse_declarations(std::string_view source, const std::string& file_name) {
  KernelDeclarations out;
  int line = 0;
  int output_line = 0;
  while (!source.empty()) {
    ++line;
    const std::size_t eol = source.find('\n');
    std::string_view text = trim(source.substr(0, eol));
    source = eol == std::string_view::npos ? std::string_view() : source.substr(eol + 1);
    if (!text.starts_with("//")) continue;
    text = trim(text.substr(2));
    if (!text.starts_with('@')) continue;
    const std::size_t space = text.find_first_of(" \t");
    const std::string_view keyword = text.substr(1, space == std::string_view::npos ? text.size() - 1 : space - 1);
    const std::string_view rest = space == std::string_view::npos ? std::string_view() : trim(text.substr(space));
    const LineContext at{file_name, line};
    auto once = [&](int& seen, const char* what) {
      if (seen) at.fail(fmt::format("a second `@{}` (the first is at line {})", what, seen), "keep one");
      seen = line;
    };
    if (keyword == "family") {
      once(out.family_line, "family");
      if (rest.empty()) at.fail("`@family` names no family", "write `// @family stencil`, `array` or `step`");
      out.family = std::string(rest);
    } else if (keyword == "entry") {
      once(out.entry_line, "entry");
      if (!is_identifier(rest))
        at.fail(fmt::format("`@entry {}` does not name a function", rest), "write `// @entry NAME`");
      out.entry = std::string(rest);
    } else if (keyword == "output") {
      once(output_line, "output");
      if (rest == "array") out.output = OutputKind::Array;
      else if (rest == "scalar") out.output = OutputKind::Scalar;
      else at.fail(fmt::format("`@output {}` is neither array nor scalar", rest), "write `// @output array` or `scalar`");
    } else if (keyword == "param") {
      DeclaredParameter p = parse_param(rest, at);
      for (const auto& q : out.parameters)
        if (q.name == p.name)
          at.fail(fmt::format("the parameter `{}` is declared twice (first at line {})", p.name, q.line),
                  "give each parameter its own name");
      out.parameters.push_back(std::move(p));
    }
    // Other `// @word` comments (doxygen's @brief, ...) are not ours.
  }
  return out;
}

}  // namespace ks::usercode
