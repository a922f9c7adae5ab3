#pragma once
// Summaries of repeated measurements. Medians, not means, are what the tables report.
#include <string>
#include <vector>

namespace ks {

struct TimingStats {
  int count = 0;
  double min_ms = 0;
  double median_ms = 0;
  double p95_ms = 0;
  double mean_ms = 0;

  // Nearest-rank percentiles of the samples (milliseconds). Empty input gives count 0 and zeros.
  static TimingStats of(std::vector<double> samples_ms);
};

// Host wall-clock stopwatch (steady clock) for CPU work.
class Stopwatch {
 public:
  Stopwatch();
  double elapsed_ms() const;
  void restart();

 private:
  long long start_ns_;
};

// A duration as a person reads it, for estimates: "45 s", "9.6 minutes", "3.2 hours", "12 days", "4.1e+03 years".
std::string duration_words(double seconds);

}  // namespace ks
