#include "core/timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace ks {

TimingStats TimingStats::of(std::vector<double> samples) {
  TimingStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  auto rank = [&](double q) {
    std::size_t i = static_cast<std::size_t>(std::ceil(q * double(samples.size())));
    return samples[std::clamp<std::size_t>(i, 1, samples.size()) - 1];
  };
  s.count = int(samples.size());
  s.min_ms = samples.front();
  std::size_t n = samples.size();
  s.median_ms = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.p95_ms = rank(0.95);
  s.mean_ms = std::accumulate(samples.begin(), samples.end(), 0.0) / double(n);
  return s;
}

static long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Stopwatch::Stopwatch() : start_ns_(now_ns()) {}
double Stopwatch::elapsed_ms() const { return double(now_ns() - start_ns_) * 1e-6; }
void Stopwatch::restart() { start_ns_ = now_ns(); }

std::string duration_words(double s) {
  if (s < 120) return fmt::format("{:.0f} s", s);
  if (s < 7200) return fmt::format("{:.1f} minutes", s / 60);
  if (s < 172800) return fmt::format("{:.1f} hours", s / 3600);
  if (s < 3.156e8) return fmt::format("{:.0f} days", s / 86400);
  return fmt::format("{:.2g} years", s / 3.156e7);
}

}  // namespace ks
