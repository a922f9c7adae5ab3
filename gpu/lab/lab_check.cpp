#include "lab/lab_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

#include "core/thread_pool.hpp"

namespace ks::lab {

namespace {

LabCheck size_mismatch(std::size_t expected, std::size_t actual, const std::string& what) {
  LabCheck c;
  c.checked = true;
  c.agrees = false;
  c.detail = fmt::format("{}: {} elements expected, {} produced", what, expected, actual);
  return c;
}

// The worst element found by the threads, merged under a lock once per chunk.
struct Worst {
  double abs = 0, rel = 0;
  long long index = -1;       // of the largest relative error (or the first difference)
  long long differing = 0;    // elements beyond the bound
};

}  // namespace

LabCheck compare_exact(std::span<const std::uint32_t> expected, std::span<const std::uint32_t> actual,
                       const std::string& what, ThreadPool& pool) {
  if (expected.size() != actual.size()) return size_mismatch(expected.size(), actual.size(), what);
  std::mutex m;
  Worst worst;
  pool.parallel_for(0, (long long)expected.size(), [&](long long b, long long e) {
    Worst w;
    for (long long i = b; i < e; ++i) {
      const auto x = expected[std::size_t(i)], y = actual[std::size_t(i)];
      if (x == y) continue;
      if (w.index < 0) w.index = i;
      ++w.differing;
      w.abs = std::max(w.abs, std::fabs(double(x) - double(y)));
    }
    std::lock_guard lock(m);
    worst.differing += w.differing;
    worst.abs = std::max(worst.abs, w.abs);
    if (w.index >= 0 && (worst.index < 0 || w.index < worst.index)) worst.index = w.index;
  });
  LabCheck c;
  c.checked = true;
  c.agrees = worst.differing == 0;
  c.max_abs_error = worst.abs;
  c.max_rel_error = 0;
  c.bound = 0;
  if (c.agrees) {
    c.detail = fmt::format("exact: {} {} identical", expected.size(), what);
  } else {
    const auto i = std::size_t(worst.index);
    c.detail = fmt::format("{} of {} {} differ; first at [{}]: {} expected, {} produced", worst.differing,
                           expected.size(), what, i, expected[i], actual[i]);
  }
  return c;
}

LabCheck compare_relative(std::span<const float> expected, std::span<const float> actual, double rel_tol,
                          const std::string& what, ThreadPool& pool) {
  if (expected.size() != actual.size()) return size_mismatch(expected.size(), actual.size(), what);
  std::mutex m;
  Worst worst;
  pool.parallel_for(0, (long long)expected.size(), [&](long long b, long long e) {
    Worst w;
    for (long long i = b; i < e; ++i) {
      const double x = expected[std::size_t(i)], y = actual[std::size_t(i)];
      double abs = 0, rel = 0;
      if (std::isnan(x) || std::isnan(y)) {
        abs = rel = std::isnan(x) && std::isnan(y) ? 0 : std::numeric_limits<double>::infinity();
      } else if (x != y) {
        abs = std::fabs(y - x);  // inf when one is infinite and the other is not
        rel = x == 0 ? std::numeric_limits<double>::infinity() : abs / std::fabs(x);
      }
      if (rel > rel_tol) ++w.differing;
      w.abs = std::max(w.abs, abs);
      if (rel > w.rel || (w.index < 0 && rel > 0)) {
        w.rel = rel;
        w.index = i;
      }
    }
    std::lock_guard lock(m);
    worst.differing += w.differing;
    worst.abs = std::max(worst.abs, w.abs);
    if (w.index >= 0 && (worst.index < 0 || w.rel > worst.rel)) {
      worst.rel = w.rel;
      worst.index = w.index;
    }
  });
  LabCheck c;
  c.checked = true;
  c.agrees = worst.differing == 0;
  c.max_abs_error = worst.abs;
  c.max_rel_error = worst.rel;
  c.bound = rel_tol;
  if (worst.index < 0) {
    c.detail = fmt::format("{} {} identical to the CPU reference's", expected.size(), what);
  } else {
    const auto i = std::size_t(worst.index);
    c.detail = fmt::format("{}: max rel error {:.3g} {} {:.0e} (at [{}]: {} expected, {} produced){}", what,
                           worst.rel, c.agrees ? "<=" : ">", rel_tol, i, expected[i], actual[i],
                           c.agrees ? "" : fmt::format("; {} of {} beyond", worst.differing, expected.size()));
  }
  return c;
}

LabCheck compare_within(double expected, double actual, double bound, const std::string& what) {
  LabCheck c;
  c.checked = true;
  const double abs = std::fabs(actual - expected);
  c.agrees = abs <= bound;  // false for NaN
  c.max_abs_error = std::isnan(abs) ? std::numeric_limits<double>::infinity() : abs;
  c.max_rel_error = expected != 0 ? c.max_abs_error / std::fabs(expected) : (abs == 0 ? 0 : c.max_abs_error);
  c.bound = bound;
  c.detail = fmt::format("{}: {:.9g} vs reference {:.9g}, |error| {:.3g} {} bound {:.3g}", what, actual, expected,
                         abs, c.agrees ? "<=" : ">", bound);
  return c;
}

LabCheck merge_checks(const LabCheck& a, const LabCheck& b) {
  if (!a.checked) return b;
  if (!b.checked) return a;
  LabCheck c;
  c.checked = true;
  c.agrees = a.agrees && b.agrees;
  c.max_abs_error = std::max(a.max_abs_error, b.max_abs_error);
  c.max_rel_error = std::max(a.max_rel_error, b.max_rel_error);
  c.bound = std::max(a.bound, b.bound);
  c.detail = a.detail + "; " + b.detail;
  return c;
}

}  // namespace ks::lab
