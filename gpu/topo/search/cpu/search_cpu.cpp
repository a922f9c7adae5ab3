// The CPU backend of the search (the reference): every chain's arrays in host memory, chains stepped in
// parallel on the thread pool, each by one thread with the steps of tabu_step.hpp (a team of one) or
// anneal_step.hpp. Chains are independent, so the result does not depend on the number of threads.
#include <fmt/format.h>

#include <new>

#include "core/error.hpp"
#include "topo/search/anneal_step.hpp"
#include "topo/search/search_backend.hpp"
#include "topo/search/tabu_step.hpp"

namespace ks::topo {

namespace {

template <class A>
class CpuSearch final : public SearchBackend {
  using V = typename A::Value;

 public:
  CpuSearch(const SearchSetup& s, ThreadPool& pool)
      : setup_(s),
        pool_(pool),
        n_(s.step.n),
        chains_(s.chains > 0 ? s.chains : int(pool.size())),
        pitch_(s.step.n) {
    const std::size_t n = std::size_t(n_), c = std::size_t(chains_);
    try {
      traffic_ = traffic_matrix<V>(*s.problem, s.slice);
      cost_ = cost_matrix<V>(*s.problem, s.configuration);
      headers_.resize(c);
      p_.resize(c * n);
      best_.resize(c * n);
      if (s.algorithm == SearchAlgorithm::Tabu) {
        pitch_ = matrix_pitch<V>(n_);
        cost_ = padded(cost_, n_, pitch_);
        pairs_ = pair_table(n_);
        permuted_.resize(c * n * std::size_t(pitch_));
        tabu_.resize(c * n * std::size_t(tabu_pitch(n_)));
        delta_.resize(c * pairs_.size());
        vectors_.resize(c * std::size_t(MoveVectors<A>::slots(n_)));
      }
    } catch (const std::bad_alloc&) {
      throw Error(ErrorKind::OutOfMemory,
                  fmt::format("not enough host memory for {} search chains of {} nodes", chains_, n_),
                  "use fewer chains (the chains parameter)");
    }
  }

  int chains() const override { return chains_; }

  void set_chains(const std::vector<int>& which, const std::vector<std::uint16_t>& placements,
                  const std::vector<ChainHeader>& headers) override {
    const std::size_t n = std::size_t(n_);
    for (std::size_t k = 0; k < which.size(); ++k) {
      const std::size_t c = std::size_t(which[k]);
      std::copy(placements.begin() + std::ptrdiff_t(k * n), placements.begin() + std::ptrdiff_t((k + 1) * n),
                p_.begin() + std::ptrdiff_t(c * n));
      headers_[c] = headers[k];
    }
  }

  void advance(int steps) override {
    pool_.parallel_for(0, chains_, [&](long long a, long long b) {
      for (long long c = a; c < b; ++c) step_chain(std::size_t(c), steps);
    });
  }

  const std::vector<ChainHeader>& headers() const override { return headers_; }

  std::vector<std::uint16_t> placement(int chain, bool best) override {
    const auto& from = best ? best_ : p_;
    const std::size_t n = std::size_t(n_), c = std::size_t(chain);
    return {from.begin() + std::ptrdiff_t(c * n), from.begin() + std::ptrdiff_t((c + 1) * n)};
  }

  std::string device() const override { return fmt::format("CPU ({} threads)", pool_.size()); }

 private:
  void step_chain(std::size_t c, int steps) {
    const std::size_t n = std::size_t(n_);
    ChainRegs<A> r;
    r.load(headers_[c]);
    const SearchMatrices<A> m{traffic_.data(), cost_.data(), pairs_.data(), pitch_};
    if (setup_.algorithm == SearchAlgorithm::Tabu) {
      const std::size_t slots = std::size_t(MoveVectors<A>::slots(n_));
      TabuChain<A> chain;
      chain.p = p_.data() + c * n;
      chain.best_p = best_.data() + c * n;
      chain.P = permuted_.data() + c * n * std::size_t(pitch_);
      chain.tabu = tabu_.data() + c * n * std::size_t(tabu_pitch(n_));
      chain.delta = delta_.data() + c * pairs_.size();
      chain.vec = MoveVectors<A>{vectors_.data() + c * slots, n_};
      tabu_steps(SoloTeam{}, m, chain, r, setup_.step, steps);
    } else {
      std::uint16_t* p = p_.data() + c * n;
      std::uint16_t* best = best_.data() + c * n;
      anneal_steps(m, p, best, r, setup_.step, steps);
    }
    r.store(headers_[c]);
  }

  SearchSetup setup_;
  ThreadPool& pool_;
  int n_, chains_, pitch_;
  std::vector<V> traffic_, cost_;  // tabu: the path costs with rows `pitch_` apart
  std::vector<std::uint32_t> pairs_;
  std::vector<ChainHeader> headers_;
  std::vector<std::uint16_t> p_, best_;
  std::vector<std::int32_t> tabu_;
  std::vector<V> permuted_, delta_;
  std::vector<typename MoveVectors<A>::Slot> vectors_;
};

}  // namespace

std::unique_ptr<SearchBackend> make_cpu_search(const SearchSetup& setup, ThreadPool& pool) {
  switch (setup.arithmetic) {
    case SearchArithmetic::Int32:
      return std::make_unique<CpuSearch<ExactInt32>>(setup, pool);
    case SearchArithmetic::Int64:
      return std::make_unique<CpuSearch<ExactInt64>>(setup, pool);
    default:
      return std::make_unique<CpuSearch<RealDouble>>(setup, pool);
  }
}

}  // namespace ks::topo
