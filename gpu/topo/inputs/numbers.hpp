#pragma once
// Numbers as the files write them. A decimal such as "0.522208" is the exact rational 522208 / 10^6, so a data
// set whose values all have at most d decimals is held exactly as integers times 10^-d ("scaled"), and its
// costs are summed exactly in 64-bit integers. Values that do not fit (too many digits, exponents far from 0)
// leave the data set in doubles.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::topo {

inline constexpr int kMaxDecimals = 12;

struct Decimal {
  std::int64_t mantissa = 0;  // value = mantissa / 10^decimals
  int decimals = 0;
};

// "12", "-3.50", "1.5e3", "2E-2": the exact decimal when it fits in 64 bits with at most kMaxDecimals
// decimals (trailing zeros do not count), else nullopt. The text must be a complete number.
std::optional<Decimal> parse_decimal(std::string_view text);
// Any number strtod accepts, completely (no trailing characters); nullopt otherwise.
std::optional<double> parse_double(std::string_view text);

// 10^k for 0 <= k <= 18.
std::int64_t power_of_ten(int k);

// A list of values that stays exact while every value allows it.
class ExactValues {
 public:
  void add(double value, std::optional<Decimal> exact);
  void add_integer(std::int64_t value);
  std::size_t size() const { return values_.size(); }
  const std::vector<double>& values() const { return values_; }
  int decimals() const { return decimals_; }
  // The values times 10^decimals() as integers, when all of them are exact decimals and fit in 64 bits.
  std::optional<std::vector<std::int64_t>> scaled() const;

 private:
  std::vector<double> values_;
  std::vector<Decimal> decimals_of_;
  int decimals_ = 0;
  bool exact_ = true;
};

// value / 10^decimals written exactly: "1234", "12.5", "-0.000120".
std::string format_scaled(std::int64_t scaled, int decimals);

}  // namespace ks::topo
