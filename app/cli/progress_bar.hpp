#pragma once
// Progress of a long sweep on stderr. On a terminal: one line redrawn in place, with a bar, the case being
// run, the elapsed time and an ETA. Otherwise (a log, a pipe, CI): one plain line per finished case and no
// control characters, so logs stay readable.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/timing.hpp"

namespace ks::cli {

// Time left, from the time the finished work took. Kinds of work (CPU cases, GPU cases) are estimated apart:
// their cost per unit of work differs by orders of magnitude.
class EtaEstimator {
 public:
  void record(int kind, double work, double seconds);
  // Seconds the given work should take; nullopt until something has been timed.
  std::optional<double> estimate(int kind, double work) const;

 private:
  struct Rate {
    double work = 0;
    double seconds = 0;
  };
  std::vector<Rate> rates_;  // by kind
};

class ProgressBar {
 public:
  // `interactive`: redraw one line (a terminal) or print a line per case.
  ProgressBar(std::FILE* out, std::size_t total, bool interactive);
  // Whether `out` is a terminal; what callers normally pass as `interactive`.
  static bool is_terminal(std::FILE* out);

  // A case starts: redraws the bar on a terminal; prints nothing otherwise.
  void start(std::size_t index, const std::string& label, std::optional<double> eta_seconds);
  // A case ended: on a terminal, the bar advances; otherwise "[i/n] label: result".
  void finish(std::size_t index, const std::string& label, const std::string& result);
  // A message that must stay visible (a warning): printed on its own line, above the bar.
  void message(const std::string& text);
  // Removes the bar (before the caller prints its table).
  void clear();

 private:
  void draw(std::size_t done, const std::string& label, std::optional<double> eta_seconds);

  std::FILE* out_;
  std::size_t total_;
  bool interactive_;
  bool drawn_ = false;
  Stopwatch clock_;
};

// "1:05", "12:03", "1:02:03"
std::string format_duration(double seconds);

}  // namespace ks::cli
