#pragma once
// The link between the ranks of a sweep run under MPI (mpirun, srun), as the topology code sees it: bytes to and
// from rank 0. The CLI implements it with MPI (app/cli/mpi_link.cpp); tests with threads. No MPI headers here.
#include <cstdint>
#include <string>
#include <vector>

namespace ks::topo {

class RankLink {
 public:
  virtual ~RankLink() = default;
  virtual int size() const = 0;  // ranks in all
  virtual int rank() const = 0;
  // Rank 0: a message from any other rank when one has arrived (its sender in `from`); never waits.
  virtual bool poll(int& from, std::vector<std::uint8_t>& bytes) = 0;
  // Waits for the next message from `from` (ranks > 0: from rank 0).
  virtual std::vector<std::uint8_t> receive(int from) = 0;
  virtual void send(int to, const std::vector<std::uint8_t>& bytes) = 0;
};

// Rank 0's view of the other ranks in the sweep protocol (sweep_messages.hpp): how many messages each one still
// owes (its Hello at first, then a Report per Assign sent; the coordinator may send a rank its next Assign before the
// current one is reported), or whether it was sent Stop. release_all() answers every rank still in the protocol with
// Stop (after the messages it owes), so that no rank waits forever when rank 0 ends early, e.g. on an error.
class RankRoster {
 public:
  explicit RankRoster(RankLink& link);
  RankLink& link() { return link_; }
  int size() const { return link_.size(); }
  bool poll(int& from, std::vector<std::uint8_t>& bytes);
  void send(int to, const std::vector<std::uint8_t>& bytes);
  bool stopped(int rank) const { return owed_[std::size_t(rank)] < 0; }
  void release_all();

 private:
  RankLink& link_;
  std::vector<int> owed_;  // messages due from each rank; -1: sent Stop
};

}  // namespace ks::topo
