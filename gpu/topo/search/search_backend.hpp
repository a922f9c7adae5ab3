#pragma once
// What the search's driver (search.cpp) asks of a backend: keep a set of chains, (re)start some of them from
// given placements, advance them all by a number of steps, hand back their headers and placements. Internal
// to gpu/topo/search.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/cuda_context.hpp"
#include "core/thread_pool.hpp"
#include "topo/problem.hpp"
#include "topo/search/chain_state.hpp"
#include "topo/search/search.hpp"

namespace ks::topo {

// How the chains add up costs (search_arith.hpp): chosen from the problem's bounds, the same on both
// backends.
enum class SearchArithmetic { Int32, Int64, Real };
const char* to_string(SearchArithmetic a) noexcept;

// One configuration's search as the backends see it.
struct SearchSetup {
  const Problem* problem = nullptr;
  int slice = 0, configuration = 0;
  SearchAlgorithm algorithm = SearchAlgorithm::Tabu;
  SearchArithmetic arithmetic = SearchArithmetic::Int64;
  StepSettings step;
  int chains = 0;  // 0: the backend's choice
  int block = 0;   // CUDA tabu: threads per chain; 0: the backend's choice
  // Int32 arithmetic: bits per path cost and traffic entry a CUDA tabu chain keeps (8, 16, 32; the same
  // moves, see ExactInt32In); 0 for the other arithmetics
  int matrix_bits = 0;
};

// The arithmetic whose every intermediate fits (Real for real-valued problems, and for exact ones too large
// for 64 bits).
SearchArithmetic choose_arithmetic(const Problem& p, int slice, int configuration);
// The bits of matrix_bits for `requested` (0: the fewest of 8, 16, 32 that hold every entry of the traffic
// and the path costs); Usage Error where the request cannot hold an entry or the arithmetic is not Int32.
int choose_matrix_bits(const Problem& p, int slice, int configuration, SearchArithmetic arithmetic,
                       int requested);

// The problem's matrices of (slice, configuration) in the arithmetic's type.
template <class V>
std::vector<V> traffic_matrix(const Problem& p, int slice);
template <class V>
std::vector<V> cost_matrix(const Problem& p, int configuration);
// A matrix as M, entry by entry (matrix_t of the arithmetic: choose_matrix_bits made sure each entry fits).
template <class M, class V>
std::vector<M> stored_as(const std::vector<V>& m) {
  std::vector<M> out(m.size());
  std::transform(m.begin(), m.end(), out.begin(), [](V v) { return static_cast<M>(v); });
  return out;
}
// An n x n matrix with rows `pitch` apart (the padding zero).
template <class V>
std::vector<V> padded(const std::vector<V>& m, int n, int pitch);
// Whether the traffic of `slice` and the path costs of `configuration` are both symmetric (exactly).
bool symmetric_matrices(const Problem& p, int slice, int configuration);
// Every pair r < s of n positions, packed (swap_delta.hpp).
std::vector<std::uint32_t> pair_table(int n);

class SearchBackend {
 public:
  virtual ~SearchBackend() = default;
  virtual int chains() const = 0;
  // Sets the placements (n each, in the order of `which`) and headers of the chains listed in `which`.
  virtual void set_chains(const std::vector<int>& which, const std::vector<std::uint16_t>& placements,
                          const std::vector<ChainHeader>& headers) = 0;
  // Every chain `steps` steps (fresh chains start from their placement first); returns when done.
  virtual void advance(int steps) = 0;
  // Every chain's header after the last advance (or set_chains).
  virtual const std::vector<ChainHeader>& headers() const = 0;
  // A chain's current or best placement.
  virtual std::vector<std::uint16_t> placement(int chain, bool best) = 0;
  virtual std::string device() const = 0;
  virtual std::string launch() const { return {}; }
};

std::unique_ptr<SearchBackend> make_cpu_search(const SearchSetup& setup, ThreadPool& pool);
// Device Error when the build has no CUDA.
std::unique_ptr<SearchBackend> make_cuda_search(const SearchSetup& setup, CudaContext& cuda);

}  // namespace ks::topo
