// The search's request resolved for one problem (search_plan.hpp) and the backends' common inputs
// (search_backend.hpp): arithmetic, matrices, the pair table.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "topo/search/search_arith.hpp"
#include "topo/search/search_backend.hpp"
#include "topo/search/search_plan.hpp"
#include "topo/swap_delta.hpp"

namespace ks::topo {

namespace {
__extension__ typedef unsigned __int128 uint128;

std::size_t square(int n) {
  return std::size_t(n) * std::size_t(n);
}

bool all_zero_scaled(const std::vector<std::int64_t>& v, std::size_t at, std::size_t count) {
  return std::all_of(v.begin() + std::ptrdiff_t(at), v.begin() + std::ptrdiff_t(at + count),
                     [](std::int64_t x) { return x == 0; });
}
bool all_zero_real(const std::vector<double>& v, std::size_t at, std::size_t count) {
  return std::all_of(v.begin() + std::ptrdiff_t(at), v.begin() + std::ptrdiff_t(at + count),
                     [](double x) { return x == 0; });
}

SplitMix64 salted(std::uint64_t seed, std::uint64_t salt, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  SplitMix64 mix(seed ^ salt);
  SplitMix64 s(mix.next() + a * 0xA24BAED4963EE407ull + b * 0x9FB21C651E98DF25ull +
               c * 0xC2B2AE3D27D4EB4Full);
  s.next();
  return s;
}

template <class V>
bool is_symmetric(const std::vector<V>& m, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (m[std::size_t(i) * std::size_t(n) + std::size_t(j)] !=
          m[std::size_t(j) * std::size_t(n) + std::size_t(i)])
        return false;
  return true;
}

void check_param(bool ok, const std::string& what, const std::string& range) {
  if (!ok) throw_usage("search parameter " + what + " is out of range", "use " + range);
}

}  // namespace

const char* to_string(SearchAlgorithm a) noexcept {
  return a == SearchAlgorithm::Tabu ? "tabu" : "anneal";
}

const char* to_string(TenureRule t) noexcept {
  return t == TenureRule::Cubed ? "cubed" : "band";
}

const char* to_string(RestartFrom r) noexcept {
  switch (r) {
    case RestartFrom::Elites: return "elites";
    case RestartFrom::Own: return "own";
    case RestartFrom::Cross: return "cross";
    case RestartFrom::Record: return "record";
  }
  return "?";
}

const char* to_string(SearchArithmetic a) noexcept {
  switch (a) {
    case SearchArithmetic::Int32:
      return "int32";
    case SearchArithmetic::Int64:
      return "int64";
    default:
      return "double";
  }
}

int optimised_slice(const Problem& p) {
  return p.summed_slice ? p.timestamps : 0;
}

void check_search(const Problem& p, const SearchRequest& r) {
  if (p.n < 2)
    throw_usage(fmt::format("{} node: there is no placement to search", p.n),
                "a search places at least 2 nodes");
  if (p.n > kMaxSearchNodes)
    throw_usage(fmt::format("{} nodes: the search places at most {}", p.n, kMaxSearchNodes),
                "split the network, or sample placements with --placements sample:N");
  const int slice = optimised_slice(p);
  const std::size_t nn = square(p.n);
  const bool zero_traffic = p.exact ? all_zero_scaled(p.traffic_scaled, std::size_t(slice) * nn, nn)
                                    : all_zero_real(p.traffic_real, std::size_t(slice) * nn, nn);
  if (zero_traffic)
    throw_usage(fmt::format("the traffic{} is zero everywhere: every placement costs 0",
                            p.summed_slice ? " summed over the timestamps" : ""),
                "there is nothing to search; check the traffic file");
  for (int c = 0; c < p.configs; ++c) {
    const bool zero = p.exact ? all_zero_scaled(p.cost_scaled, std::size_t(c) * nn, nn)
                              : all_zero_real(p.cost_real, std::size_t(c) * nn, nn);
    if (zero)
      throw_usage(
          fmt::format("the path costs of configuration {} are zero everywhere: every placement costs 0",
                      c + 1),
          "there is nothing to search; check the topology");
  }
  if (!(r.time_s >= 0) || std::isinf(r.time_s))
    throw_usage(fmt::format("search time {} s is not a duration", r.time_s), "give a time in seconds > 0");
  if (r.time_s == 0 && r.iterations == 0)
    throw_usage("the search has no stop: neither a time nor a number of iterations",
                "give a time limit (e.g. 10 s) or a number of iterations per chain");
  if (r.target && !std::isfinite(*r.target))
    throw_usage("the target cost is not a number", "give the cost at which to stop, e.g. 6124");
  const SearchParams& q = r.params;
  check_param(q.chains >= 0 && q.chains <= (1 << 22), "chains", "0 (automatic) .. 4194304");
  check_param(q.sync >= 0, "sync", "0 (automatic) or a number of iterations");
  check_param(q.tenure > 0 && q.tenure <= 1000, "tenure", "a multiple of n in (0, 1000]");
  check_param(q.band_low >= 0.01 && q.band_low <= q.band_high && q.band_high <= 100, "band_low/band_high",
              "multiples of n with 0.01 <= band_low <= band_high <= 100");
  check_param(q.aspiration >= 0 && q.aspiration <= 1e6, "aspiration", "a multiple of n^2 in [0, 10^6]");
  check_param(q.accept_start > 0 && q.accept_start < 1 && q.accept_end > 0 && q.accept_end < q.accept_start,
              "accept_start/accept_end", "probabilities with 0 < accept_end < accept_start < 1");
  check_param(q.cycle > 0 && q.cycle * double(nn) < 2e9, "cycle", "a multiple of n^2 below 2*10^9 steps");
  check_param(q.tabu_stall > 0 && q.anneal_stall >= 1, "tabu_stall/anneal_stall", "positive values");
  check_param(q.perturb >= 0 && q.perturb <= 1, "perturb", "a fraction of n in [0, 1]");
  check_param(q.perturb_max == 0 || (q.perturb_max > q.perturb && q.perturb_max <= 1), "perturb_max",
              "0 (off) or a fraction of n above perturb, at most 1");
  check_param(q.elites >= 1 && q.elites <= 1000, "elites", "1 .. 1000");
  check_param(q.block >= 0 && q.block <= 512 && q.block % 32 == 0, "block",
              "0 (automatic) or a multiple of 32 up to 512");
  check_param(q.matrix_bits == 0 || q.matrix_bits == 8 || q.matrix_bits == 16 || q.matrix_bits == 32,
              "matrix_bits", "0 (automatic), 8, 16 or 32");
}

SearchArithmetic choose_arithmetic(const Problem& p, int slice, int configuration) {
  if (!p.exact) return SearchArithmetic::Real;
  const std::size_t nn = square(p.n);
  std::uint64_t max_t = 0, max_d = 0;
  uint128 sum_d = 0;
  for (std::size_t k = 0; k < nn; ++k) {
    const std::int64_t t = p.traffic_scaled[std::size_t(slice) * nn + k];
    const std::int64_t d = p.cost_scaled[std::size_t(configuration) * nn + k];
    max_t = std::max<std::uint64_t>(max_t, std::uint64_t(t < 0 ? -t : t));
    max_d = std::max<std::uint64_t>(max_d, std::uint64_t(d < 0 ? -d : d));
    sum_d += uint128(d < 0 ? -d : d);
  }
  // Every intermediate of swap_delta is at most 4 x sum|D| x max|T|; of the delta update at most the delta
  // (2 x the same) plus two products of differences of four entries each (16 x max|D| x max|T| each).
  const uint128 bound = 4 * sum_d * max_t + 32 * uint128(max_d) * max_t;
  if (bound < (uint128(1) << 31)) return SearchArithmetic::Int32;
  if (bound < (uint128(1) << 63)) return SearchArithmetic::Int64;
  return SearchArithmetic::Real;
}

int choose_matrix_bits(const Problem& p, int slice, int configuration, SearchArithmetic arithmetic,
                       int requested) {
  if (arithmetic != SearchArithmetic::Int32) {
    if (requested == 0) return 0;
    throw Error(
        ErrorKind::Usage,
        fmt::format("matrix_bits={} applies to searches in 32-bit integers; this problem's costs need "
                    "{} arithmetic",
                    requested, to_string(arithmetic)),
        "leave matrix_bits at 0");
  }
  const std::size_t nn = square(p.n);
  // The entry farthest from zero in two's complement (-v - 1 for a negative v: int8 holds -128 .. 127).
  std::int64_t largest = 0, widest = 0;
  for (std::size_t k = 0; k < nn; ++k)
    for (const std::int64_t v :
         {p.traffic_scaled[std::size_t(slice) * nn + k], p.cost_scaled[std::size_t(configuration) * nn + k]})
      if ((v < 0 ? -v - 1 : v) > largest) {
        largest = v < 0 ? -v - 1 : v;
        widest = v;
      }
  const int fewest = largest <= 127 ? 8 : largest <= 32767 ? 16 : 32;
  if (requested == 0) return fewest;
  if (requested < fewest)
    throw Error(
        ErrorKind::Usage,
        fmt::format("matrix_bits={} cannot hold this problem's path costs and traffic (an entry of {} "
                    "needs {} bits)",
                    requested, widest, fewest),
        fmt::format("use matrix_bits={} or 0", fewest));
  return requested;
}

template <class V>
std::vector<V> traffic_matrix(const Problem& p, int slice) {
  const std::size_t nn = square(p.n), at = std::size_t(slice) * nn;
  if (p.exact)
    return std::vector<V>(p.traffic_scaled.begin() + std::ptrdiff_t(at),
                          p.traffic_scaled.begin() + std::ptrdiff_t(at + nn));
  return std::vector<V>(p.traffic_real.begin() + std::ptrdiff_t(at),
                        p.traffic_real.begin() + std::ptrdiff_t(at + nn));
}

template <class V>
std::vector<V> cost_matrix(const Problem& p, int configuration) {
  const std::size_t nn = square(p.n), at = std::size_t(configuration) * nn;
  if (p.exact)
    return std::vector<V>(p.cost_scaled.begin() + std::ptrdiff_t(at),
                          p.cost_scaled.begin() + std::ptrdiff_t(at + nn));
  return std::vector<V>(p.cost_real.begin() + std::ptrdiff_t(at),
                        p.cost_real.begin() + std::ptrdiff_t(at + nn));
}

template std::vector<std::int32_t> traffic_matrix(const Problem&, int);
template std::vector<std::int64_t> traffic_matrix(const Problem&, int);
template std::vector<double> traffic_matrix(const Problem&, int);
template std::vector<std::int32_t> cost_matrix(const Problem&, int);
template std::vector<std::int64_t> cost_matrix(const Problem&, int);
template std::vector<double> cost_matrix(const Problem&, int);

template <class V>
std::vector<V> padded(const std::vector<V>& m, int n, int pitch) {
  std::vector<V> out(std::size_t(n) * std::size_t(pitch), V(0));
  for (int i = 0; i < n; ++i)
    std::copy(m.begin() + std::ptrdiff_t(i) * n, m.begin() + std::ptrdiff_t(i + 1) * n,
              out.begin() + std::ptrdiff_t(i) * pitch);
  return out;
}
template std::vector<std::int32_t> padded(const std::vector<std::int32_t>&, int, int);
template std::vector<std::int64_t> padded(const std::vector<std::int64_t>&, int, int);
template std::vector<double> padded(const std::vector<double>&, int, int);

bool symmetric_matrices(const Problem& p, int slice, int configuration) {
  if (p.exact)
    return is_symmetric(traffic_matrix<std::int64_t>(p, slice), p.n) &&
           is_symmetric(cost_matrix<std::int64_t>(p, configuration), p.n);
  return is_symmetric(traffic_matrix<double>(p, slice), p.n) &&
         is_symmetric(cost_matrix<double>(p, configuration), p.n);
}

std::vector<std::uint32_t> pair_table(int n) {
  std::vector<std::uint32_t> pairs;
  pairs.reserve(std::size_t(pair_count(n)));
  for (int r = 0; r < n; ++r)
    for (int s = r + 1; s < n; ++s) pairs.push_back(pack_pair(r, s));
  return pairs;
}

StepSettings step_settings(const Problem& p, int slice, int configuration, const SearchParams& q,
                           std::uint64_t seed) {
  StepSettings s;
  s.n = p.n;
  s.pairs = pair_count(p.n);
  s.symmetric = symmetric_matrices(p, slice, configuration);
  const double nn = double(p.n) * double(p.n);
  s.tenure_span = q.tenure * p.n;
  if (q.tenure_rule == TenureRule::Band) {
    s.band_low = std::max<std::int32_t>(1, std::int32_t(std::lround(q.band_low * p.n)));
    s.band_high = std::max<std::int32_t>(s.band_low, std::int32_t(std::lround(q.band_high * p.n)));
    s.band_period = 2 * s.band_high;
  }
  s.aspiration = std::int32_t(std::min<double>(kMaxAspiration, std::round(q.aspiration * nn)));
  if (q.algorithm == SearchAlgorithm::Anneal) {
    // The mean uphill delta of 2000 random swaps of random placements, in the chains' units (scaled costs).
    const std::vector<double> t = traffic_matrix<double>(p, slice), d = cost_matrix<double>(p, configuration);
    SplitMix64 rng = salted(seed, 0x7E3D0C1A55AA1234ull, std::uint64_t(configuration), 0, 0);
    std::vector<std::uint16_t> placement;
    double sum = 0;
    int uphill = 0;
    for (int k = 0; k < 2000; ++k) {
      if (k % 20 == 0) placement = random_start(rng, p.n);
      const int i = int(rng.below(std::uint32_t(p.n)));
      int j = int(rng.below(std::uint32_t(p.n - 1)));
      if (j >= i) ++j;
      const double delta = swap_delta<RealDouble>(t.data(), d.data(), placement.data(), p.n, i, j);
      if (delta > 0) {
        sum += delta;
        ++uphill;
      }
    }
    const double mean_up = uphill ? sum / uphill : 1.0;
    s.start_temperature = -mean_up / std::log(q.accept_start);
    const double end_temperature = -mean_up / std::log(q.accept_end);
    s.cycle_steps = std::int32_t(std::max(1.0, std::round(q.cycle * nn)));
    s.cooling = std::pow(end_temperature / s.start_temperature, 1.0 / double(s.cycle_steps));
  }
  return s;
}

int sync_steps(const SearchParams& q, int n) {
  if (q.sync > 0) return q.sync;
  const double nn = double(n) * double(n);
  if (q.algorithm == SearchAlgorithm::Tabu) return int(std::clamp(std::round(1e7 / nn), 8.0, 1e5));
  return int(std::clamp(std::round(3e5 / n), 64.0, 1e6));
}

std::int64_t stall_steps(const SearchParams& q, const StepSettings& s) {
  if (q.algorithm == SearchAlgorithm::Tabu)
    return std::max<std::int64_t>(1, std::int64_t(std::round(q.tabu_stall * double(s.n) * double(s.n))));
  return std::int64_t(q.anneal_stall) * s.cycle_steps;
}

SplitMix64 chain_stream(std::uint64_t seed, int configuration, int chain) {
  return salted(seed, 0x3C6EF372FE94F82Bull, std::uint64_t(configuration), std::uint64_t(chain), 0);
}
SplitMix64 start_stream(std::uint64_t seed, int configuration, int chain) {
  return salted(seed, 0xA54FF53A5F1D36F1ull, std::uint64_t(configuration), std::uint64_t(chain), 0);
}
SplitMix64 restart_stream(std::uint64_t seed, int configuration, int chain, std::uint64_t restart) {
  return salted(seed, 0x510E527FADE682D1ull, std::uint64_t(configuration), std::uint64_t(chain), restart + 1);
}

std::vector<std::uint16_t> random_start(SplitMix64& rng, int n) {
  std::vector<std::uint16_t> p(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) p[std::size_t(i)] = std::uint16_t(i);
  for (int i = n - 1; i > 0; --i) std::swap(p[std::size_t(i)], p[rng.below(std::uint32_t(i + 1))]);
  return p;
}

void perturb(std::vector<std::uint16_t>& placement, SplitMix64& rng, int swaps) {
  const int n = int(placement.size());
  for (int k = 0; k < swaps; ++k) {
    const int i = int(rng.below(std::uint32_t(n)));
    int j = int(rng.below(std::uint32_t(n - 1)));
    if (j >= i) ++j;
    std::swap(placement[std::size_t(i)], placement[std::size_t(j)]);
  }
}

int restart_swap_count(const SearchParams& params, int n, int failed) {
  const int swaps = int(std::lround(params.perturb * n));
  if (!(params.perturb_max > params.perturb)) return swaps;
  const std::int64_t most = std::lround(params.perturb_max * n);
  return int(std::min<std::int64_t>(most, std::int64_t(swaps) * (1 + std::int64_t(failed))));
}

std::vector<std::uint16_t> crossover(const std::vector<std::uint16_t>& own, const std::vector<std::uint16_t>& other,
                                     SplitMix64& rng) {
  const std::size_t n = own.size();
  std::vector<std::uint16_t> child = own;
  std::vector<std::size_t> position_of(n);
  for (std::size_t i = 0; i < n; ++i) position_of[child[i]] = i;
  for (std::size_t i = 0; i < n; ++i) {
    if (child[i] == other[i] || rng.below(2) == 0) continue;
    // Move other's node here by a swap: the node displaced lands where other's node was, a position where the
    // child and other already differed, so no agreement is undone.
    const std::size_t j = position_of[other[i]];
    std::swap(child[i], child[j]);
    position_of[child[i]] = i;
    position_of[child[j]] = j;
  }
  return child;
}

}  // namespace ks::topo
