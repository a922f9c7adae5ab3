#include "topo/inputs/spec.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "topo/inputs/numbers.hpp"
#include "topo/inputs/text_lines.hpp"

namespace ks::topo {

Spec::Spec(const std::string& text, std::string kind) : text_(text), kind_(std::move(kind)) {
  const std::size_t colon = text.find(':');
  family_ = std::string(trim(text.substr(0, colon)));
  if (family_.empty()) fail("no family name");
  if (colon == std::string::npos) return;
  for (const std::string& item : split_fields(std::string_view(text).substr(colon + 1), ',')) {
    if (item.empty()) fail("an empty item", "items are separated by single commas");
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      if (!shape_.empty()) fail("two bare items ('" + shape_ + "' and '" + item + "')");
      shape_ = item;
      continue;
    }
    const std::string key(trim(item.substr(0, eq)));
    if (key.empty()) fail("'" + item + "' has no key");
    if (!values_.emplace(key, std::string(trim(item.substr(eq + 1)))).second) fail("'" + key + "' is given twice");
  }
}

void Spec::fail(const std::string& what, const std::string& hint) const {
  throw_usage(fmt::format("{} '{}': {}", kind_, text_, what), hint);
}

long long Spec::get_int(const std::string& key, long long fallback, long long min, long long max) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const auto d = parse_decimal(it->second);
  if (!d || d->decimals != 0) fail(fmt::format("{}={} is not an integer", key, it->second));
  if (d->mantissa < min || d->mantissa > max)
    fail(fmt::format("{}={} is outside {} .. {}", key, it->second, min, max));
  return d->mantissa;
}

long long Spec::require_int(const std::string& key, long long min, long long max) const {
  if (!has(key)) fail("needs " + key + "=...", fmt::format("e.g. {}:{}=8", family_, key));
  return get_int(key, 0, min, max);
}

double Spec::get_double(const std::string& key, double fallback, double min, double max) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const auto v = parse_double(it->second);
  if (!v) fail(fmt::format("{}={} is not a number", key, it->second));
  if (*v < min || *v > max) fail(fmt::format("{}={} is outside {} .. {}", key, it->second, min, max));
  return *v;
}

std::string Spec::get_string(const std::string& key, const std::string& fallback) const {
  const auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second;
}

void Spec::allow_only(const std::vector<std::string>& keys, bool shape_allowed) const {
  std::string allowed;
  for (const auto& k : keys) allowed += (allowed.empty() ? "" : ", ") + k;
  if (!shape_allowed && !shape_.empty())
    fail("'" + shape_ + "' is not KEY=VALUE", allowed.empty() ? "it takes no items" : "it takes " + allowed);
  for (const auto& [k, v] : values_)
    if (std::find(keys.begin(), keys.end(), k) == keys.end())
      fail("unknown key '" + k + "'", allowed.empty() ? "it takes no keys" : "it takes " + allowed);
}

}  // namespace ks::topo
