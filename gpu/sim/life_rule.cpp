#include "sim/life_rule.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks::sim {

namespace {

constexpr const char* kNotation =
    "write B<digits>/S<digits> with neighbour counts 0..8, e.g. B3/S23 (Conway), B36/S23 (HighLife), B2/S "
    "(Seeds), or a name: conway, highlife, seeds, daynight";

[[noreturn]] void bad_rule(const std::string& what) { throw_usage(what, kNotation); }

// Digits of one half ("23" of "S23"), each 0..8 and given once.
std::uint16_t parse_counts(const std::string& digits, char half, const std::string& whole) {
  std::uint16_t mask = 0;
  for (char c : digits) {
    if (c < '0' || c > '8') {
      if (c == '9') bad_rule(fmt::format("'{}': 9 is not a neighbour count (a cell has 8 neighbours)", whole));
      bad_rule(fmt::format("'{}': unexpected '{}' in the {} counts", whole, c, half == 'B' ? "birth" : "survival"));
    }
    const std::uint16_t bit = std::uint16_t(1u << (c - '0'));
    if (mask & bit) bad_rule(fmt::format("'{}': {} appears twice in {}", whole, c, half));
    mask |= bit;
  }
  return mask;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& named_life_rules() {
  static const std::vector<std::pair<std::string, std::string>> rules = {
      {"conway", "B3/S23"},       {"life", "B3/S23"},         {"highlife", "B36/S23"},
      {"seeds", "B2/S"},          {"daynight", "B3678/S34678"}, {"replicator", "B1357/S1357"},
      {"maze", "B3/S12345"},      {"lifewithoutdeath", "B3/S012345678"}, {"2x2", "B36/S125"},
      {"morley", "B368/S245"}};
  return rules;
}

LifeRule parse_life_rule(const std::string& raw) {
  std::string text;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c))) text += c;
  if (text.empty()) bad_rule("the rule is empty");
  const std::string low = lower(text);
  for (const auto& [name, rule] : named_life_rules())
    if (low == name) return parse_life_rule(rule);

  LifeRule r;
  if (low[0] == 'b' || low[0] == 's') {
    // B.../S... or S.../B..., with or without the slash.
    const char first = low[0];
    const char second = first == 'b' ? 's' : 'b';
    const auto split = low.find(second);
    if (split == std::string::npos)
      bad_rule(fmt::format("'{}' has no {} part", raw, char(std::toupper(second))));
    std::string a = low.substr(1, split - 1);
    const std::string b = low.substr(split + 1);
    if (!a.empty() && a.back() == '/') a.pop_back();
    const std::uint16_t first_mask = parse_counts(a, char(std::toupper(first)), raw);
    const std::uint16_t second_mask = parse_counts(b, char(std::toupper(second)), raw);
    r.birth = first == 'b' ? first_mask : second_mask;
    r.survive = first == 'b' ? second_mask : first_mask;
    return r;
  }
  // The older "survival/birth" digits form: "23/3".
  const auto slash = low.find('/');
  if (slash == std::string::npos || low.find('/', slash + 1) != std::string::npos)
    bad_rule(fmt::format("'{}' is not a rule", raw));
  r.survive = parse_counts(low.substr(0, slash), 'S', raw);
  r.birth = parse_counts(low.substr(slash + 1), 'B', raw);
  return r;
}

std::string to_string(const LifeRule& rule) {
  std::string s = "B";
  for (int n = 0; n <= 8; ++n)
    if (rule.birth >> n & 1) s += char('0' + n);
  s += "/S";
  for (int n = 0; n <= 8; ++n)
    if (rule.survive >> n & 1) s += char('0' + n);
  return s;
}

LifeTable life_table(const LifeRule& rule) {
  LifeTable t;
  // Totals include the cell itself: a dead cell's total is its neighbour count, a live cell's is one more.
  t.next[0] = std::uint16_t(rule.birth & 0x1ffu);
  t.next[1] = std::uint16_t((rule.survive & 0x1ffu) << 1);
  return t;
}

LifeMasks life_masks(const LifeRule& rule) {
  const LifeTable t = life_table(rule);
  LifeMasks m{};
  auto spread = [](bool on) { return on ? ~std::uint64_t(0) : std::uint64_t(0); };
  for (int cell = 0; cell < 2; ++cell) {
    for (int total = 0; total < 8; ++total) m.low[cell * 8 + total] = spread(t.next[cell] >> total & 1);
    for (int total = 8; total < 10; ++total) m.high[cell * 2 + total - 8] = spread(t.next[cell] >> total & 1);
  }
  return m;
}

}  // namespace ks::sim
