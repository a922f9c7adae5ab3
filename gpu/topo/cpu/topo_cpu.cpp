// The CPU backend of the topology sweep: the shared enumeration (sweep_core.hpp) on the thread pool. A batch is
// cut into a fixed number of pieces (independent of the thread count), each piece reduced on its own and the
// pieces merged in order, so results do not depend on how many threads ran them.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "topo/random.hpp"
#include "topo/sweep/head_tables.hpp"
#include "topo/sweep/sweep_backend.hpp"
#include "topo/sweep/sweep_core.hpp"

namespace ks::topo {

namespace {

constexpr std::uint64_t kPiecesPerBatch = 256;

template <class A>
struct Matrices {
  using V = typename A::Value;
  const V* traffic;  // [slice][n][n]
  const V* cost;     // [config][n][n]
  int n, slices, configs;
  const HeadTables<V>* heads = nullptr;  // a sweep with a head (sweep_head.hpp)
  const V* slice(int s) const { return traffic + std::size_t(s) * std::size_t(n) * std::size_t(n); }
  const V* config(int c) const { return cost + std::size_t(c) * std::size_t(n) * std::size_t(n); }
};

template <class A>
RunningStats<A> from_raw(const RawStats& r) {
  RunningStats<A> s;
  if (r.count == 0) return s;
  if constexpr (A::exact) {
    s.min = typename A::Value(r.min_i);
    s.max = typename A::Value(r.max_i);
    s.sum = r.sum_i;
  } else {
    s.min = r.min_d;
    s.max = r.max_d;
    s.sum = r.sum_d;
  }
  s.key = r.key;
  s.count = r.count;
  return s;
}

template <class V>
Candidate candidate_of(V cost, std::uint64_t key, int config) {
  Candidate c;
  if constexpr (std::is_same_v<V, double>) c.cost_d = cost; else c.cost_i = cost;
  c.key = key;
  c.configuration = config;
  return c;
}

// The k best of what it is offered, by (cost, key, configuration).
template <class A>
struct TopList {
  using V = typename A::Value;
  struct Entry {
    V cost;
    std::uint64_t key;
    int config;
    bool operator<(const Entry& o) const {
      if (cost != o.cost) return cost < o.cost;
      if (key != o.key) return key < o.key;
      return config < o.config;
    }
  };
  int k = 0;
  std::vector<Entry> entries;  // sorted
  void offer(V cost, std::uint64_t key, int config) {
    const Entry e{cost, key, config};
    if (int(entries.size()) == k && !(e < entries.back())) return;
    entries.insert(std::upper_bound(entries.begin(), entries.end(), e), e);
    if (int(entries.size()) > k) entries.pop_back();
  }
};

// Exact problems whose costs span at most this many values (over every pair, from the a-priori bound): the Stats
// pass also counts how often each value occurs, and the Histogram pass is then read from those counts instead
// of walking every placement again (the bins are the same function of the cost, so the counts are identical).
// Halves an exhaustive sweep with histograms (docs/PERF.md): QAPLIB n = 12 instances span up to ~750 000
// values, nug12 a few thousand. Memory: 8 bytes a value in each pool thread that counts.
constexpr std::uint64_t kMaxCountedValues = 1 << 20;  // values x pairs

// The counts of one round of Stats passes (every batch of a sweep), read by the Histogram passes that follow:
// the first of them adds them all to the histogram (the total is what each batch's share would add up to), the
// rest find their batch counted and add nothing. Each pool thread counts into an array of its own for the whole
// round (a thread runs its pieces one after another, so no lock is taken per placement, and the arrays are summed
// once per round rather than once per task and batch: by estimate, with 16 threads that serial merge would
// outweigh the batch).
struct ValueCounts {
  std::size_t cells = 0;                                              // pairs x counted values
  std::map<std::thread::id, std::vector<std::uint64_t>> per_thread;  // [pair][cost - lo]
  std::vector<std::pair<std::uint64_t, std::uint64_t>> batches;       // counted, not yet histogrammed
  bool added = false;                                                 // a Histogram pass has added the counts
};

class CpuBackend final : public SweepBackend {
 public:
  CpuBackend(const Problem& p, ThreadPool& pool) : p_(p), pool_(pool) {
    if (!p.exact) return;
    // Traffic is never negative; costs are within [-bound, bound], or [0, bound] when no path cost is negative.
    const bool nonnegative = std::all_of(p.cost_scaled.begin(), p.cost_scaled.end(), [](std::int64_t v) { return v >= 0; });
    values_lo_ = nonnegative ? 0 : -std::int64_t(p.cost_bound);
    const std::uint64_t range = p.cost_bound - std::uint64_t(values_lo_) + 1;
    if (range <= kMaxCountedValues / std::max<std::uint64_t>(p.pairs(), 1)) values_ = range;
  }

  std::string device() const override { return fmt::format("CPU ({} threads)", pool_.size()); }
  std::uint64_t default_batch_evaluations() const override { return std::uint64_t(1) << 24; }

  double run(Pass pass, const PlacementSource& src, std::uint64_t a, std::uint64_t b, PassIo& io) override {
    Stopwatch watch;
    const bool headed = src.mode == PlacementMode::All && src.plan->h > 0;
    if (p_.exact)
      run_typed<ExactInt64>({p_.traffic_scaled.data(), p_.cost_scaled.data(), p_.n, p_.slices, p_.configs,
                             headed ? &head_tables(exact_heads_, *src.plan) : nullptr},
                            pass, src, a, b, io);
    else
      run_typed<RealDouble>({p_.traffic_real.data(), p_.cost_real.data(), p_.n, p_.slices, p_.configs,
                             headed ? &head_tables(real_heads_, *src.plan) : nullptr},
                            pass, src, a, b, io);
    return watch.elapsed_ms();
  }

 private:
  // Calls f(std::integral_constant<int, N>) with N = n for the sizes worth a specialised loop, else 0.
  template <class F>
  static void with_size(int n, F&& f) {
    switch (n) {
      case 8: return f(std::integral_constant<int, 8>{});
      case 10: return f(std::integral_constant<int, 10>{});
      case 11: return f(std::integral_constant<int, 11>{});
      case 12: return f(std::integral_constant<int, 12>{});
      default: return f(std::integral_constant<int, 0>{});
    }
  }

  // Visits every (cost, key) of items [a, b) for one (slice, config); key is the placement's key for runs
  // (sweep_head.hpp), else the item.
  template <class A, int N, class Visit>
  static void visit_items(const Matrices<A>& m, const PlacementSource& src, std::uint64_t a, std::uint64_t b, int s,
                          int c, Visit&& visit) {
    if (src.mode == PlacementMode::All) {
      if (m.heads)
        walk_items<A, 0, true>(m, *src.plan, a, b, s, c, visit);
      else
        walk_items<A, N, false>(m, *src.plan, a, b, s, c, visit);
      return;
    }
    std::vector<std::uint8_t> placement(std::size_t(m.n));
    for (std::uint64_t item = a; item < b; ++item) {
      const std::uint8_t* pl = nullptr;
      if (src.mode == PlacementMode::Sample) {
        SplitMix64 rng = sample_stream(src.seed, item);
        random_placement(rng, placement.data(), m.n);
        pl = placement.data();
      } else {
        pl = src.listed->data() + item * std::uint64_t(m.n);
      }
      visit(cost_of_placement<A>(m.slice(s), m.config(c), pl, m.n), item);
    }
  }

  // visit_items over runs [a, b) of the plan: the walk of n (or with a head, of the tail's t) positions.
  template <class A, int N, bool Headed, class Visit>
  static void walk_items(const Matrices<A>& m, const SweepPlan& plan, std::uint64_t a, std::uint64_t b, int s, int c,
                         Visit& visit) {
    const RunGeometry g = plan.geometry();
    const typename A::Value* path_costs = Headed ? m.heads->cost_of(c) : m.config(c);
    auto walk_runs = [&](auto& w) {
      w.traffic = m.slice(s);
      w.cost_of = path_costs;
      w.runtime_n = g.n;
      auto on_placement = [&](const auto& x) { visit(x.cost, sweep_key(x)); };
      for (std::uint64_t r = a; r < b; ++r) {
        const RunBounds run = plan.run(r);
        if constexpr (Headed) {
          w.traffic = m.heads->traffic_of(run.head, s);
          w.lin = m.heads->lin_of(run.head, s, c);
          w.constant = m.heads->constant_of(run.head, s, c);
          w.head_bits = run.head << kHeadKeyShift;
        }
        walk_run(w, g, run, on_placement);
      }
    };
    if (g.n >= kSuffixSlots) {  // the CUDA kernel makes the same choice
      SuffixWalker<A, N, Headed> w;
      typename A::Value coefficients[kSuffixSteps * kStepCoefficients];
      for (int step = 0; step < kSuffixSteps; ++step)
        suffix_coefficients<A>(path_costs, g.n, g.q, step, coefficients + step * kStepCoefficients);
      w.coefficients = coefficients;
      walk_runs(w);
    } else {
      Walker<A, N, Headed> w;
      walk_runs(w);
    }
  }

  // The head tables of `plan` (made on its first batch, kept for the sweep's other batches).
  template <class V>
  const HeadTables<V>& head_tables(std::optional<HeadTables<V>>& kept, const SweepPlan& plan) {
    if (!kept || kept->heads != plan.heads || kept->t != plan.t) {
      if constexpr (std::is_same_v<V, std::int64_t>)
        kept = make_head_tables<ExactInt64>(p_, plan);
      else
        kept = make_head_tables<RealDouble>(p_, plan);
    }
    return *kept;
  }

  // Runs body(piece_a, piece_b, piece_index) over pieces of [a, b) in parallel.
  template <class Body>
  void for_pieces(std::uint64_t a, std::uint64_t b, std::uint64_t pieces, Body&& body) {
    const std::uint64_t count = b - a;
    pool_.parallel_for(0, (long long)pieces, [&](long long pa, long long pb) {
      for (long long piece = pa; piece < pb; ++piece) {
        const std::uint64_t from = a + count * std::uint64_t(piece) / pieces;
        const std::uint64_t to = a + count * std::uint64_t(piece + 1) / pieces;
        body(from, to, std::uint64_t(piece));
      }
    });
  }

  template <class A>
  void run_typed(const Matrices<A>& m, Pass pass, const PlacementSource& src, std::uint64_t a, std::uint64_t b,
                 PassIo& io) {
    if (b <= a) return;
    const std::uint64_t pieces = std::min<std::uint64_t>(b - a, kPiecesPerBatch);
    const int pairs = m.slices * m.configs;
    with_size(m.n, [&](auto size) {
      constexpr int N = decltype(size)::value;
      switch (pass) {
        case Pass::Stats: {
          auto partial = std::vector<RunningStats<A>>(static_cast<std::size_t>(pieces * std::uint64_t(pairs)));
          const bool count_values = A::exact && io.histogram_follows && values_ > 0;
          if (count_values) start_counting(a, b, std::size_t(values_) * std::size_t(pairs));
          io.values_counted = count_values;
          for_pieces(a, b, pieces, [&](std::uint64_t from, std::uint64_t to, std::uint64_t piece) {
            std::uint64_t* vc = count_values ? thread_counts() : nullptr;
            for (int s = 0; s < m.slices; ++s)
              for (int c = 0; c < m.configs; ++c) {
                const int k = s * m.configs + c;
                RunningStats<A>& st = partial[std::size_t(piece) * std::size_t(pairs) + std::size_t(k)];
                if (count_values) {
                  std::uint64_t* row = vc + std::size_t(k) * std::size_t(values_);
                  visit_items<A, N>(m, src, from, to, s, c, [&](typename A::Value v, std::uint64_t key) {
                    st.add(v, key);
                    ++row[std::size_t(A::to_int(v) - values_lo_)];
                  });
                } else {
                  visit_items<A, N>(m, src, from, to, s, c, [&](typename A::Value v, std::uint64_t key) { st.add(v, key); });
                }
              }
          });
          for (int k = 0; k < pairs; ++k) {
            RunningStats<A> total = from_raw<A>((*io.stats)[std::size_t(k)]);
            for (std::uint64_t piece = 0; piece < pieces; ++piece)
              total.merge(partial[std::size_t(piece) * std::size_t(pairs) + std::size_t(k)]);
            to_raw(total, (*io.stats)[std::size_t(k)]);
          }
          break;
        }
        case Pass::Histogram: {
          if constexpr (A::exact) {
            ValueCounts& vc = values_counted_;
            const auto it = std::find(vc.batches.begin(), vc.batches.end(), std::pair{a, b});
            if (it != vc.batches.end()) {
              if (!vc.added) {
                for (int k = 0; k < pairs; ++k)
                  for (std::uint64_t i = 0; i < values_; ++i) {
                    const std::size_t cell = std::size_t(k) * std::size_t(values_) + std::size_t(i);
                    std::uint64_t n = 0;
                    for (const auto& [thread, counts] : vc.per_thread) n += counts[cell];
                    if (n)
                      (*io.counts)[std::size_t(k)][std::size_t(exact_bin(values_lo_ + std::int64_t(i), (*io.bins)[std::size_t(k)]))] += n;
                  }
                vc.added = true;
              }
              vc.batches.erase(it);
              break;
            }
          }
          std::mutex merge;
          for_pieces(a, b, pieces, [&](std::uint64_t from, std::uint64_t to, std::uint64_t) {
            auto local = std::vector<std::array<std::uint64_t, kHistogramBins>>(static_cast<std::size_t>(pairs));
            for (int s = 0; s < m.slices; ++s)
              for (int c = 0; c < m.configs; ++c) {
                const int k = s * m.configs + c;
                const HistogramBins& bins = (*io.bins)[std::size_t(k)];
                auto& counts = local[std::size_t(k)];
                visit_items<A, N>(m, src, from, to, s, c, [&](typename A::Value v, std::uint64_t) {
                  if constexpr (A::exact) ++counts[std::size_t(exact_bin(A::to_int(v), bins))];
                  else ++counts[std::size_t(real_bin(v, bins))];
                });
              }
            // Counts are integers: the order of these additions does not matter.
            std::lock_guard lock(merge);
            for (int k = 0; k < pairs; ++k)
              for (int bin = 0; bin < kHistogramBins; ++bin)
                (*io.counts)[std::size_t(k)][std::size_t(bin)] += local[std::size_t(k)][std::size_t(bin)];
          });
          break;
        }
        case Pass::Top: {
          auto lists = std::vector<TopList<A>>(static_cast<std::size_t>(pieces));
          for_pieces(a, b, pieces, [&](std::uint64_t from, std::uint64_t to, std::uint64_t piece) {
            TopList<A>& list = lists[std::size_t(piece)];
            list.k = io.top_k;
            for (int c = 0; c < m.configs; ++c)
              visit_items<A, N>(m, src, from, to, io.top_slice, c,
                                [&](typename A::Value v, std::uint64_t key) { list.offer(v, key, c); });
          });
          for (const auto& list : lists)
            for (const auto& e : list.entries) io.top->push_back(candidate_of(e.cost, e.key, e.config));
          break;
        }
        case Pass::Cube: {
          const SweepKeys keys = src.mode == PlacementMode::All ? src.plan->keys() : SweepKeys{};
          for_pieces(a, b, pieces, [&](std::uint64_t from, std::uint64_t to, std::uint64_t) {
            for (int s = 0; s < m.slices; ++s)
              for (int c = 0; c < m.configs; ++c)
                visit_items<A, N>(m, src, from, to, s, c, [&](typename A::Value v, std::uint64_t key) {
                  const std::uint64_t item = src.mode == PlacementMode::All ? keys.index_of_key(key) : key;
                  const std::size_t at = std::size_t(item - io.cube_first) * std::size_t(pairs) + std::size_t(s * m.configs + c);
                  if constexpr (A::exact) io.cube_i[at] = v; else io.cube_d[at] = v;
                });
          });
          break;
        }
      }
    });
  }

  const Problem& p_;
  ThreadPool& pool_;
  std::int64_t values_lo_ = 0;  // counted costs: values_lo_ .. values_lo_ + values_ - 1
  std::uint64_t values_ = 0;    // 0: costs span too many values to count
  ValueCounts values_counted_;
  std::optional<HeadTables<std::int64_t>> exact_heads_;
  std::optional<HeadTables<double>> real_heads_;
  std::mutex thread_counts_mutex_;  // guards values_counted_.per_thread's map (not the arrays)

  // A Stats pass that counts values joins the round under way, or starts a new one: after the round's counts
  // went into a histogram, or when it meets a batch counted already (a new sweep over the same batches).
  void start_counting(std::uint64_t a, std::uint64_t b, std::size_t cells) {
    ValueCounts& vc = values_counted_;
    const bool again = std::find(vc.batches.begin(), vc.batches.end(), std::pair{a, b}) != vc.batches.end();
    if (vc.added || again || vc.cells != cells) {
      vc.cells = cells;
      vc.per_thread.clear();
      vc.batches.clear();
      vc.added = false;
    }
    vc.batches.emplace_back(a, b);
  }

  // The calling pool thread's counts of the round (made on its first piece). Map nodes stay put when others are
  // added, so the pointer holds while other threads join.
  std::uint64_t* thread_counts() {
    std::lock_guard lock(thread_counts_mutex_);
    std::vector<std::uint64_t>& counts = values_counted_.per_thread[std::this_thread::get_id()];
    if (counts.size() != values_counted_.cells) counts.assign(values_counted_.cells, 0);
    return counts.data();
  }
};

}  // namespace

std::unique_ptr<SweepBackend> make_cpu_backend(const Problem& p, ThreadPool& pool) {
  return std::make_unique<CpuBackend>(p, pool);
}

}  // namespace ks::topo
