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

// The worst element: the largest relative error (the first such element), the largest absolute error, and how
// many elements lie beyond the bound. Each thread keeps its own; they merge once per chunk.
struct Worst {
  double abs = 0, rel = 0;
  long long index = -1;
  long long differing = 0;

  void note(long long i, double abs_error, double rel_error, bool beyond) {
    if (beyond) ++differing;
    abs = std::max(abs, abs_error);
    if (index < 0 || rel_error > rel) {
      rel = std::max(rel, rel_error);
      index = i;
    }
  }
  void merge(const Worst& o) {
    differing += o.differing;
    abs = std::max(abs, o.abs);
    if (o.index >= 0 && (index < 0 || o.rel > rel || (o.rel == rel && o.index < index))) {
      rel = o.rel;
      index = o.index;
    }
  }
};

// `element(i, worst)` notes element i when it differs.
template <class Element>
Worst scan(long long n, ThreadPool& pool, const Element& element) {
  std::mutex m;
  Worst worst;
  pool.parallel_for(0, n, [&](long long b, long long e) {
    Worst w;
    for (long long i = b; i < e; ++i) element(i, w);
    std::lock_guard lock(m);
    worst.merge(w);
  });
  return worst;
}

}  // namespace

LabCheck compare_exact(std::span<const std::uint32_t> expected, std::span<const std::uint32_t> actual,
                       const std::string& what, ThreadPool& pool) {
  if (expected.size() != actual.size()) return size_mismatch(expected.size(), actual.size(), what);
  const Worst worst = scan((long long)expected.size(), pool, [&](long long i, Worst& w) {
    const auto x = expected[std::size_t(i)], y = actual[std::size_t(i)];
    if (x != y) w.note(i, std::fabs(double(x) - double(y)), 0, true);
  });
  LabCheck c;
  c.checked = true;
  c.agrees = worst.differing == 0;
  c.max_abs_error = worst.abs;
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
  constexpr double inf = std::numeric_limits<double>::infinity();
  const Worst worst = scan((long long)expected.size(), pool, [&](long long i, Worst& w) {
    const double x = expected[std::size_t(i)], y = actual[std::size_t(i)];
    if (std::isnan(x) || std::isnan(y)) {
      if (!(std::isnan(x) && std::isnan(y))) w.note(i, inf, inf, true);
    } else if (x != y) {
      const double abs = std::fabs(y - x);  // inf when one is infinite and the other is not
      const double rel = x == 0 ? inf : abs / std::fabs(x);
      w.note(i, abs, rel, rel > rel_tol);
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
