#pragma once
// An enum's names written once, as a table of {value, name}: the name of a value, and the value of a name
// with the usage Error people see for any other text, both come from the one table, so they cannot disagree.
//   constexpr EnumName<Border> kBorderNames[] = {{Border::Replicate, "replicate"}, ...};
//   name_of(kBorderNames, b);  value_named(kBorderNames, text, "border mode");
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.hpp"

namespace ks {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `value`; "?" for a value the table lacks.
template <class E, std::size_t N>
constexpr const char* name_of(const EnumName<E> (&table)[N], E value) noexcept {
  for (const EnumName<E>& e : table)
    if (e.value == value) return e.name;
  return "?";
}

// The names in the table's order, each after `prefix`, as "a, b or c" (`last` between the last two).
template <class E, std::size_t N>
std::string names_listed(const EnumName<E> (&table)[N], std::string_view prefix = {},
                         std::string_view last = " or ") {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) out += i + 1 == N ? last : std::string_view(", ");
    out += prefix;
    out += table[i].name;
  }
  return out;
}

// The value named `name`; otherwise a usage Error "unknown WHAT 'NAME'" with `hint` (by default "use a, b or
// c").
template <class E, std::size_t N>
E value_named(const EnumName<E> (&table)[N], std::string_view name, std::string_view what,
              std::string hint = {}) {
  for (const EnumName<E>& e : table)
    if (name == e.name) return e.value;
  if (hint.empty()) hint = "use " + names_listed(table);
  throw_usage("unknown " + std::string(what) + " '" + std::string(name) + "'", std::move(hint));
}

}  // namespace ks
