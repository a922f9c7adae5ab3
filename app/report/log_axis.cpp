#include "report/log_axis.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace ks::report {

double LogAxis::to_pixel(double v) const {
  const double t = (std::log10(v) - first_decade) / double(last_decade - first_decade);
  return pixel_first + t * (pixel_last - pixel_first);
}

void decades_around(double lo, double hi, int& first_decade, int& last_decade) {
  // A hair of slack, so that a value of exactly 10^k does not open a decade of its own through rounding.
  first_decade = int(std::floor(std::log10(lo) + 1e-9));
  last_decade = int(std::ceil(std::log10(hi) - 1e-9));
  if (last_decade <= first_decade) last_decade = first_decade + 1;
}

std::string decade_label(int d) {
  if (d < 0) return "0." + std::string(std::size_t(-d - 1), '0') + "1";
  static const char* const suffixes[] = {"", "k", "M", "G", "T", "P"};
  const int group = d / 3;
  if (group >= 6) return "1e" + std::to_string(d);
  return "1" + std::string(std::size_t(d % 3), '0') + suffixes[group];
}

}  // namespace ks::report
