#pragma once
// Random topology problems for the sweep tests (CPU and CUDA), and a brute-force evaluation written straight
// from the definition, independent of the code under test: placements are walked with std::next_permutation
// (which visits them in lexicographic order, so the k-th one is placement index k) and every cost is the
// double sum
//   cost(t, p, c) = sum over i, j of D_c[i][j] * T_t[p(i)][p(j)].
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "topo/problem.hpp"

namespace ks::test {

// T timestamps of n x n traffic: whole numbers in [0, max_value] (exact), or doubles with many digits (real).
inline topo::TrafficSeries random_traffic(int n, int timestamps, std::uint32_t seed, bool integer,
                                          std::int64_t max_value = 1000) {
  std::mt19937_64 rng(seed);
  topo::TrafficSeries t;
  t.source = "random traffic";
  // Appended rather than "v" + std::to_string(i): GCC 12 warns (-Wrestrict) wrongly on the latter, inlined.
  for (int i = 0; i < n; ++i) t.nodes.push_back(std::string("v").append(std::to_string(i)));
  for (int k = 0; k < timestamps; ++k) t.timestamps.push_back(std::string("t").append(std::to_string(k)));
  std::vector<std::int64_t> scaled;
  std::uniform_int_distribution<std::int64_t> whole(0, max_value);
  std::uniform_real_distribution<double> real(0.0, double(max_value));
  for (int k = 0; k < timestamps * n * n; ++k) {
    if (integer) {
      scaled.push_back(whole(rng));
      t.values.push_back(double(scaled.back()));
    } else {
      t.values.push_back(real(rng) / 3.0);
    }
  }
  if (integer) t.scaled = scaled;
  return t;
}

// A path-cost matrix: zero diagonal (as routes have) unless `diagonal`, small whole numbers, not symmetric.
inline topo::Configuration random_costs(int n, std::uint32_t seed, bool integer = true,
                                        bool diagonal = false) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> hops(1, 6);
  std::uniform_real_distribution<double> real(0.5, 7.0);
  topo::Configuration c;
  c.name = "random-" + std::to_string(seed);
  c.metric = "given";
  std::vector<std::int64_t> scaled;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const bool zero = i == j && !diagonal;
      if (integer) {
        scaled.push_back(zero ? 0 : hops(rng));
        c.cost.push_back(double(scaled.back()));
      } else {
        c.cost.push_back(zero ? 0.0 : real(rng));
      }
    }
  if (integer) c.scaled = scaled;
  return c;
}

// Mirrors the lower triangle onto the upper one in every timestamp of the traffic and in the path costs: a
// symmetric instance (the search's symmetric delta forms).
inline void make_symmetric(topo::TrafficSeries& t, topo::Configuration& c, int n) {
  const std::size_t nn = std::size_t(n) * std::size_t(n);
  for (std::size_t at = 0; at < t.values.size(); at += nn)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j) {
        const std::size_t a = at + std::size_t(i * n + j), b = at + std::size_t(j * n + i);
        t.values[b] = t.values[a];
        if (t.scaled) (*t.scaled)[b] = (*t.scaled)[a];
      }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) {
      const std::size_t a = std::size_t(i * n + j), b = std::size_t(j * n + i);
      c.cost[b] = c.cost[a];
      if (c.scaled) (*c.scaled)[b] = (*c.scaled)[a];
    }
}

// Every cost of every placement, in index order: costs[(index * slices + slice) * configs + config], computed
// in long double from the problem's matrices (exact for the integer instances of these tests).
struct BruteForce {
  int n = 0, slices = 0, configs = 0;
  std::vector<long double> costs;
  long double at(std::uint64_t index, int s, int c) const {
    return costs[(std::size_t(index) * std::size_t(slices) + std::size_t(s)) * std::size_t(configs) +
                 std::size_t(c)];
  }
  std::uint64_t placements() const { return costs.size() / std::size_t(slices * configs); }
};

inline BruteForce brute_force(const topo::Problem& p) {
  BruteForce b;
  b.n = p.n;
  b.slices = p.slices;
  b.configs = p.configs;
  const std::size_t nn = std::size_t(p.n) * std::size_t(p.n);
  auto traffic = [&](int s, int a, int c) {
    const std::size_t k = std::size_t(s) * nn + std::size_t(a) * std::size_t(p.n) + std::size_t(c);
    return p.exact ? (long double)p.traffic_scaled[k] : (long double)p.traffic_real[k];
  };
  auto cost = [&](int c, int i, int j) {
    const std::size_t k = std::size_t(c) * nn + std::size_t(i) * std::size_t(p.n) + std::size_t(j);
    return p.exact ? (long double)p.cost_scaled[k] : (long double)p.cost_real[k];
  };
  std::vector<int> perm(std::size_t(p.n));
  std::iota(perm.begin(), perm.end(), 0);
  do {
    for (int s = 0; s < p.slices; ++s)
      for (int c = 0; c < p.configs; ++c) {
        long double sum = 0;
        for (int i = 0; i < p.n; ++i)
          for (int j = 0; j < p.n; ++j)
            sum += cost(c, i, j) * traffic(s, perm[std::size_t(i)], perm[std::size_t(j)]);
        b.costs.push_back(sum);
      }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return b;
}

// The k-th placement in lexicographic order, by stepping std::next_permutation (independent of the factorial
// number system under test; for small k).
inline std::vector<int> nth_permutation_by_stepping(int n, std::uint64_t k) {
  std::vector<int> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  for (std::uint64_t i = 0; i < k; ++i) std::next_permutation(perm.begin(), perm.end());
  return perm;
}

}  // namespace ks::test
