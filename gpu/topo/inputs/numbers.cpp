#include "topo/inputs/numbers.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace ks::topo {

std::int64_t power_of_ten(int k) {
  std::int64_t p = 1;
  for (int i = 0; i < k; ++i) p *= 10;
  return p;
}

std::optional<double> parse_double(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<Decimal> parse_decimal(std::string_view text) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  // Digits without the point, and how many of them came after it.
  std::string digits;
  int after_point = 0;
  bool point = false, any_digit = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits += c;
      any_digit = true;
      if (point) ++after_point;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return std::nullopt;
  int exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
    if (i >= text.size()) return std::nullopt;
    for (; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 100) return std::nullopt;
    }
    if (exp_negative) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;
  int decimals = after_point - exponent;
  // Trailing zeros carry no information: 3580.00 is the integer 3580.
  while (decimals > 0 && digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    --decimals;
  }
  const std::size_t first = digits.find_first_not_of('0');
  digits = first == std::string::npos ? "0" : digits.substr(first);
  if (decimals < 0) {
    if (digits != "0") digits.append(std::size_t(-decimals), '0');
    decimals = 0;
  }
  if (decimals > kMaxDecimals || digits.size() > 18) return std::nullopt;
  Decimal d;
  d.mantissa = std::stoll(digits);
  if (negative) d.mantissa = -d.mantissa;
  d.decimals = d.mantissa == 0 ? 0 : decimals;
  return d;
}

void ExactValues::add(double value, std::optional<Decimal> exact) {
  values_.push_back(value);
  if (!exact_) return;
  if (!exact) {
    exact_ = false;
    decimals_of_.clear();
    return;
  }
  decimals_of_.push_back(*exact);
  if (exact->decimals > decimals_) decimals_ = exact->decimals;
}

void ExactValues::add_integer(std::int64_t value) { add(double(value), Decimal{value, 0}); }

std::optional<std::vector<std::int64_t>> ExactValues::scaled() const {
  if (!exact_) return std::nullopt;
  std::vector<std::int64_t> out;
  out.reserve(decimals_of_.size());
  for (const Decimal& d : decimals_of_) {
    const std::int64_t factor = power_of_ten(decimals_ - d.decimals);
    std::int64_t v = 0;
    if (__builtin_mul_overflow(d.mantissa, factor, &v)) return std::nullopt;
    out.push_back(v);
  }
  return out;
}

std::string format_scaled(std::int64_t scaled, int decimals) {
  if (decimals <= 0) return std::to_string(scaled);
  const bool negative = scaled < 0;
  std::string digits = std::to_string(negative ? -(unsigned long long)scaled : (unsigned long long)scaled);
  if (digits.size() <= std::size_t(decimals)) digits.insert(0, std::size_t(decimals) + 1 - digits.size(), '0');
  digits.insert(digits.size() - std::size_t(decimals), ".");
  if (negative) digits.insert(0, 1, '-');  // (not "-" + digits: GCC 12 warns falsely of an overlapping memcpy there)
  return digits;
}

}  // namespace ks::topo
