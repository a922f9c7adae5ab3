#pragma once
// A proof across ranks in one process (topo/bnb/bnb_ranks.hpp): prove() on rank 0, serve_proof on the other
// ranks' threads, linked by in-memory mailboxes (loopback_ranks.hpp), without MPI.
#include <string>
#include <thread>
#include <vector>

#include "core/thread_pool.hpp"
#include "support/loopback_ranks.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/bnb_ranks.hpp"

namespace ks::test {

// A rank other than 0: what it proves (rank 0's problem when null), with which devices, on which pool.
struct ServedRank {
  const topo::Problem* problem = nullptr;
  topo::BnbRequest request;
  ThreadPool* pool = nullptr;
};

struct RankRun {
  topo::BnbResult result;
  std::vector<int> codes;  // [k]: rank k's exit code (serve_proof's), [0] unused
};

// Rank 0 proves `p` with `r` on `pool0`; others[k - 1] is rank k ("rank k" in messages). Rethrows prove()'s
// Error after every rank has been stopped and joined.
inline RankRun prove_on_loopback_ranks(const topo::Problem& p, const topo::BnbRequest& r, ThreadPool& pool0,
                                       const std::vector<ServedRank>& others) {
  const int count = int(others.size()) + 1;
  LoopbackRanks hub(count);
  RankRun run;
  run.codes.assign(std::size_t(count), -1);
  std::vector<std::thread> threads;
  for (int k = 1; k < count; ++k)
    threads.emplace_back([&, k] {
      const ServedRank& s = others[std::size_t(k - 1)];
      run.codes[std::size_t(k)] =
          topo::serve_proof(s.problem ? *s.problem : p, s.request, *s.pool, hub.link(k), "rank " + std::to_string(k));
    });
  struct Join {  // after ProofRanks has sent every rank Stop, also when prove throws
    std::vector<std::thread>& threads;
    ~Join() {
      for (auto& t : threads) t.join();
    }
  };
  {
    Join join{threads};
    topo::ProofRanks ranks(hub.link(0));
    topo::BnbRequest with_ranks = r;
    with_ranks.ranks = &ranks;
    run.result = topo::prove(p, with_ranks, {}, pool0);
  }
  return run;
}

}  // namespace ks::test
