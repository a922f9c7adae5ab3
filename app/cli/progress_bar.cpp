#include "cli/progress_bar.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace ks::cli {

void EtaEstimator::record(int kind, double work, double seconds) {
  if (kind < 0) return;
  if (std::size_t(kind) >= rates_.size()) rates_.resize(std::size_t(kind) + 1);
  rates_[std::size_t(kind)].work += work;
  rates_[std::size_t(kind)].seconds += seconds;
}

std::optional<double> EtaEstimator::estimate(int kind, double work) const {
  auto rate_of = [](const Rate& r) { return r.work > 0 ? r.seconds / r.work : -1.0; };
  if (kind >= 0 && std::size_t(kind) < rates_.size() && rates_[std::size_t(kind)].work > 0)
    return work * rate_of(rates_[std::size_t(kind)]);
  // Nothing of this kind timed yet: the slowest known rate is the cautious guess.
  double worst = -1;
  for (const auto& r : rates_) worst = std::max(worst, rate_of(r));
  if (worst < 0) return std::nullopt;
  return work * worst;
}

std::string format_duration(double seconds) {
  const long long s = std::llround(std::max(0.0, seconds));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

ProgressBar::ProgressBar(std::FILE* out, std::size_t total, bool interactive)
    : out_(out), total_(std::max<std::size_t>(total, 1)), interactive_(interactive) {}

bool ProgressBar::is_terminal(std::FILE* out) {
  return isatty(fileno(out)) == 1;
}

void ProgressBar::draw(std::size_t done, const std::string& label, std::optional<double> eta_seconds) {
  constexpr int kWidth = 16;
  const int filled = int(double(kWidth) * double(done) / double(total_));
  std::string bar(std::size_t(filled), '=');
  if (filled < kWidth) bar += '>';
  bar.resize(kWidth, ' ');
  const std::string eta = eta_seconds ? format_duration(*eta_seconds) : "?";
  // \r and "erase to end of line" redraw in place; the label is cut so the line fits 80 columns (a wrapped
  // line could not be redrawn).
  std::string shown = label.size() > 30 ? label.substr(0, 29) + "~" : label;
  fmt::print(out_, "\r[{}] {}/{} {}  {}, ETA {}\x1b[K", bar, done, total_, shown,
             format_duration(clock_.elapsed_ms() / 1000.0), eta);
  std::fflush(out_);
  drawn_ = true;
}

void ProgressBar::start(std::size_t index, const std::string& label, std::optional<double> eta_seconds) {
  if (interactive_) draw(index, label, eta_seconds);
}

void ProgressBar::finish(std::size_t index, const std::string& label, const std::string& result) {
  if (interactive_) return;  // the next start() redraws with the new count
  fmt::print(out_, "[{}/{}] {}: {}\n", index + 1, total_, label, result);
  std::fflush(out_);
}

void ProgressBar::message(const std::string& text) {
  clear();
  fmt::print(out_, "{}\n", text);
  std::fflush(out_);
}

void ProgressBar::clear() {
  if (!drawn_) return;
  fmt::print(out_, "\r\x1b[K");
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace ks::cli
