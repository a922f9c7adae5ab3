#pragma once
// The search's request resolved for one problem: checks, the step settings of each configuration, how often
// the host looks at the chains, and the chains' random streams. Internal to gpu/topo/search.
#include <cstdint>
#include <vector>

#include "topo/evaluation.hpp"
#include "topo/random.hpp"
#include "topo/search/chain_state.hpp"
#include "topo/search/search.hpp"

namespace ks::topo {

// The slice a search optimises: the summed traffic when there are several timestamps, else the only one.
int optimised_slice(const Problem& p);

// Usage Errors for requests that cannot run (see search()).
void check_search(const Problem& p, const SearchRequest& r);

// The step settings of one configuration: tenures and aspiration in iterations, and for annealing the
// temperatures, estimated from the mean uphill delta of random swaps of random placements (a seeded sample
// from the seed, so the same on every backend).
StepSettings step_settings(const Problem& p, int slice, int configuration, const SearchParams& params,
                           std::uint64_t seed);

// Iterations per chain between the host's checks: the parameter, or (0) 10^7 / n^2 tabu moves or 3 x 10^5 / n
// annealing proposals (a function of n alone, so that both backends check at the same steps): tens of
// milliseconds on either backend when each CPU thread or GPU warp slot runs one chain.
int sync_steps(const SearchParams& params, int n);
// Steps without a better best after which a chain restarts from an elite.
std::int64_t stall_steps(const SearchParams& params, const StepSettings& s);

// The random streams of chain `chain` of a configuration's search (its steps), of its start placement and of
// its restart number `restart` (perturbations): each its own, so chains can run anywhere in any order.
SplitMix64 chain_stream(std::uint64_t seed, int configuration, int chain);
SplitMix64 start_stream(std::uint64_t seed, int configuration, int chain);
SplitMix64 restart_stream(std::uint64_t seed, int configuration, int chain, std::uint64_t restart);
// A uniformly random placement of n nodes (Fisher-Yates).
std::vector<std::uint16_t> random_start(SplitMix64& rng, int n);
// `swaps` random swaps of two distinct positions.
void perturb(std::vector<std::uint16_t>& placement, SplitMix64& rng, int swaps);
// The swaps of a restart that follows `failed` restarts in a row that found nothing better than the chain's
// record: perturb x n; with perturb_max above perturb (breakout), perturb x n more for each failed one, up to
// perturb_max x n.
int restart_swap_count(const SearchParams& params, int n, int failed);
// A crossover of two placements (restart_from = cross): where they agree, the child agrees; each position where
// they differ takes, by a fair coin, `own`'s node or `other`'s (moved there by a swap). A permutation.
std::vector<std::uint16_t> crossover(const std::vector<std::uint16_t>& own, const std::vector<std::uint16_t>& other,
                                     SplitMix64& rng);

}  // namespace ks::topo
