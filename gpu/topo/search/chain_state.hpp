#pragma once
// The state of the search's chains as the backends keep it, and what every step needs to know. Shared by the
// host and the device: the CPU backend steps chains in host memory, the CUDA backend in device memory (shared
// memory during a launch where it fits), with the same code (tabu_step.hpp, anneal_step.hpp).
#include <cstdint>

#include "core/hd.hpp"
#include "topo/random.hpp"

namespace ks::topo {

// One chain's scalars. Costs are held in both forms so that the host reads them whatever the arithmetic:
// exact problems use the integers (scaled), real-valued ones the doubles.
struct ChainHeader {
  std::int64_t cost_i = 0, best_i = 0;
  double cost_d = 0, best_d = 0;
  std::uint64_t rng = 0;            // SplitMix64 state
  std::int64_t iteration = 0;       // steps made since the chain's first start
  std::int64_t best_iteration = 0;  // the step that found `best` (or the last restart)
  double temperature = 0;           // anneal
  std::int32_t clock = 0;           // tabu: the tabu list's time; anneal: steps into the cooling cycle
  std::int32_t fresh = 1;           // 1: (re)start from the placement before the next step
  std::int32_t tenure = 0;          // tabu, band tenures: the tenure in force (0: none drawn yet)
};

// The parameters of a step, resolved for one problem (counts, not multiples of n).
struct StepSettings {
  int n = 0;
  int pairs = 0;
  // The path costs and the traffic are both symmetric: the tabu search's delta updates take their symmetric
  // forms (swap_delta.hpp).
  bool symmetric = false;
  // tabu
  double tenure_span = 0;  // cubed tenures (band_high == 0): tenure = floor(u^3 x tenure_span)
  // band tenures (Taillard 1991): one tenure for both assignments a move undoes, uniform in
  // [band_low, band_high], drawn anew every `band_period` iterations (band_high == 0: cubed tenures)
  std::int32_t band_low = 0, band_high = 0, band_period = 1;
  std::int32_t aspiration = 0;  // iterations
  // anneal
  double start_temperature = 0;
  double cooling = 1;  // temperature factor per step
  std::int32_t cycle_steps = 1;
};

// The tabu list's time is a 32-bit clock: when it reaches kClockLimit, the clock and every entry move back by
// kClockShift (entries older than that are clamped; they stay older than any aspiration, which is at most
// kMaxAspiration iterations).
inline constexpr std::int32_t kClockLimit = std::int32_t(1) << 30;
inline constexpr std::int32_t kClockShift = std::int32_t(1) << 29;
inline constexpr std::int32_t kMaxAspiration = std::int32_t(1) << 27;

// The registers of a chain during a launch (every thread of a GPU team holds the same copy).
template <class A>
struct ChainRegs {
  using V = typename A::Value;
  V cost{}, best{};
  SplitMix64 rng{0};
  std::int64_t iteration = 0, best_iteration = 0;
  double temperature = 0;
  std::int32_t clock = 0;
  std::int32_t tenure = 0;
  bool fresh = false;

  KS_HD void load(const ChainHeader& h) {
    cost = load_value(h.cost_i, h.cost_d);
    best = load_value(h.best_i, h.best_d);
    rng.state = h.rng;
    iteration = h.iteration;
    best_iteration = h.best_iteration;
    temperature = h.temperature;
    clock = h.clock;
    tenure = h.tenure;
    fresh = h.fresh != 0;
  }
  KS_HD void store(ChainHeader& h) const {
    store_value(cost, h.cost_i, h.cost_d);
    store_value(best, h.best_i, h.best_d);
    h.rng = rng.state;
    h.iteration = iteration;
    h.best_iteration = best_iteration;
    h.temperature = temperature;
    h.clock = clock;
    h.tenure = tenure;
    h.fresh = fresh ? 1 : 0;
  }

 private:
  KS_HD static V load_value(std::int64_t i, double d) {
    if constexpr (A::exact)
      return V(i);
    else
      return V(d);
  }
  KS_HD static void store_value(V v, std::int64_t& i, double& d) {
    if constexpr (A::exact) {
      i = std::int64_t(v);
      d = double(v);
    } else {
      i = 0;
      d = double(v);
    }
  }
};

template <class T>
KS_HD void swap_values(T& a, T& b) {
  const T t = a;
  a = b;
  b = t;
}

// A team of one (the CPU backend): what the GPU's block team (cuda/search_kernels.cuh) does with many
// threads.
struct SoloTeam {
  KS_HD int rank() const { return 0; }
  KS_HD int size() const { return 1; }
  KS_HD void sync() const {}
  // Lanes that share one of `count` sums (see BlockTeam): a team of one sums alone.
  KS_HD int lanes_for(int) const { return 1; }
  template <class V>
  KS_HD V sum_lanes(V v, int) const {
    return v;
  }
  template <class C>
  KS_HD C reduce_min(const C& c) const {
    return c;
  }
};

}  // namespace ks::topo
