#include "usercode/check/number_text.hpp"

#include <fmt/format.h>

namespace ks::usercode {

namespace {

// fmt writes "1e-05"; drop the zeros after the exponent's sign.
std::string drop_exponent_zeros(std::string s) {
  const auto e = s.find('e');
  if (e == std::string::npos) return s;
  std::size_t digits = e + 1;
  if (digits < s.size() && (s[digits] == '-' || s[digits] == '+')) ++digits;
  std::size_t end = digits;
  while (end + 1 < s.size() && s[end] == '0') ++end;
  s.erase(digits, end - digits);
  if (s[e + 1] == '+') s.erase(e + 1, 1);
  return s;
}

}  // namespace

std::string number_text(double v) { return drop_exponent_zeros(fmt::format("{}", v)); }
std::string number_text(float v) { return drop_exponent_zeros(fmt::format("{}", v)); }

}  // namespace ks::usercode
