#include "topo/inputs/qaplib.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "topo/inputs/text_lines.hpp"

namespace ks::topo {

namespace {

struct Token {
  std::string_view text;
  std::size_t line;
};

std::vector<Token> tokens_of(const TextLines& text) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < text.count(); ++i)
    for (std::string_view t : split_blanks(text.line(i))) out.push_back({t, i});
  return out;
}

}  // namespace

QaplibInstance read_qaplib(const std::filesystem::path& path) {
  TextLines text(path);
  const auto tokens = tokens_of(text);
  if (tokens.empty()) text.fail_file("the file is empty", "a QAPLIB file starts with n, then matrices A and B");
  QaplibInstance q;
  q.file = path.string();
  q.name = path.stem().string();
  const auto n = parse_decimal(tokens[0].text);
  if (!n || n->decimals != 0 || n->mantissa < 2 || n->mantissa > 4096)
    text.fail(tokens[0].line, "expected the size n (2 .. 4096) first, found '" + std::string(tokens[0].text) + "'");
  q.n = int(n->mantissa);
  const std::size_t cells = std::size_t(q.n) * std::size_t(q.n);
  std::size_t at = 1;
  for (ExactValues* m : {&q.a, &q.b}) {
    const char* which = m == &q.a ? "A" : "B";
    for (std::size_t k = 0; k < cells; ++k, ++at) {
      if (at >= tokens.size())
        text.fail_file(fmt::format("the file ends after {} of the {} values of matrix {}", k, cells, which),
                       fmt::format("n = {}: expected {} numbers after it", q.n, 2 * cells));
      const Token& t = tokens[at];
      const auto v = parse_double(t.text);
      if (!v) text.fail(t.line, fmt::format("expected a number (matrix {}, row {}, column {}), found '{}'", which,
                                            k / std::size_t(q.n) + 1, k % std::size_t(q.n) + 1, t.text));
      m->add(*v, parse_decimal(t.text));
    }
  }
  if (at < tokens.size())
    text.fail(tokens[at].line, fmt::format("unexpected data after matrix B: '{}'", tokens[at].text),
              fmt::format("n = {}: the file should end after {} numbers", q.n, 2 * cells));
  return q;
}

std::filesystem::path qaplib_solution_path(const std::filesystem::path& dat) {
  std::filesystem::path p = dat;
  p.replace_extension(".sln");
  return p;
}

std::optional<QaplibSolution> read_qaplib_solution(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  TextLines text(path);
  const auto tokens = tokens_of(text);
  QaplibSolution s;
  s.file = path.string();
  auto integer = [&](std::size_t i, const char* what) {
    if (i >= tokens.size()) text.fail_file(std::string("ends before the ") + what);
    const auto d = parse_decimal(tokens[i].text);
    if (!d || d->decimals != 0)
      text.fail(tokens[i].line, std::string("expected an integer ") + what + ", found '" + std::string(tokens[i].text) + "'");
    return d->mantissa;
  };
  s.n = int(integer(0, "size"));
  s.value = integer(1, "objective value");
  // Some files separate the permutation with commas: "7,5,12" or "7, 5, 12".
  for (std::size_t i = 2; i < tokens.size(); ++i)
    for (const auto& f : split_fields(tokens[i].text, ',')) {
      if (f.empty()) continue;
      const auto d = parse_decimal(f);
      if (!d || d->decimals != 0 || d->mantissa < 1 || d->mantissa > s.n)
        text.fail(tokens[i].line, fmt::format("'{}' is not a position 1 .. {}", f, s.n));
      s.placement.push_back(int(d->mantissa) - 1);
    }
  if (int(s.placement.size()) != s.n)
    text.fail_file(fmt::format("a permutation of {} entries for n = {}", s.placement.size(), s.n));
  return s;
}

TrafficSeries traffic_from_qaplib(const QaplibInstance& q) {
  TrafficSeries t;
  t.source = q.file + " (QAPLIB, matrix B)";
  for (int i = 0; i < q.n; ++i) t.nodes.push_back(std::to_string(i + 1));
  t.timestamps = {q.name};
  t.values = q.b.values();
  t.scaled = q.b.scaled();
  t.decimals = t.scaled ? q.b.decimals() : 0;
  return t;
}

Configuration configuration_from_qaplib(const QaplibInstance& q) {
  Configuration c;
  c.name = q.name + " A";
  c.metric = "given";
  for (int i = 0; i < q.n; ++i) c.position_names.push_back(std::to_string(i + 1));
  c.cost = q.a.values();
  c.scaled = q.a.scaled();
  c.decimals = c.scaled ? q.a.decimals() : 0;
  return c;
}

}  // namespace ks::topo
