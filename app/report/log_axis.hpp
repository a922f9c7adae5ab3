#pragma once
// A base-10 logarithmic axis over whole decades, mapped onto a pixel range: what the roofline's two axes are.
#include <string>

namespace ks::report {

struct LogAxis {
  int first_decade = 0;    // the axis runs from 10^first_decade ...
  int last_decade = 1;     // ... to 10^last_decade (> first_decade)
  double pixel_first = 0;  // where 10^first_decade lands (x: left; y: bottom)
  double pixel_last = 1;   // where 10^last_decade lands (x: right; y: top)

  // The pixel of value v > 0 (linear in log10 v; outside the decades it extrapolates).
  double to_pixel(double v) const;
};

// The smallest run of whole decades that holds [lo, hi] (lo, hi > 0), at least one decade long.
void decades_around(double lo, double hi, int& first_decade, int& last_decade);

// "0.01", "0.1", "1", "10", "100", "1k", "10k", "100k", "1M" ...: tick labels for 10^decade.
std::string decade_label(int decade);

}  // namespace ks::report
