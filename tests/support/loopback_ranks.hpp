#pragma once
// Several "ranks" in one process for the sweep protocol's tests: each rank is a RankLink over in-memory mailboxes,
// so rank 0's coordinator and the other ranks' serve_sweep run on threads, without MPI.
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "topo/sweep/rank_link.hpp"

namespace ks::test {

class LoopbackRanks {
 public:
  explicit LoopbackRanks(int ranks) : boxes_(std::size_t(ranks)) {
    for (int r = 0; r < ranks; ++r) links_.push_back(std::make_unique<Link>(*this, r));
  }
  topo::RankLink& link(int rank) { return *links_[std::size_t(rank)]; }

 private:
  struct Box {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::pair<int, std::vector<std::uint8_t>>> messages;  // (from, bytes)
  };

  class Link final : public topo::RankLink {
   public:
    Link(LoopbackRanks& hub, int rank) : hub_(hub), rank_(rank) {}
    int size() const override { return int(hub_.boxes_.size()); }
    int rank() const override { return rank_; }
    bool poll(int& from, std::vector<std::uint8_t>& bytes) override {
      Box& b = hub_.boxes_[std::size_t(rank_)];
      std::lock_guard lock(b.mutex);
      if (b.messages.empty()) return false;
      from = b.messages.front().first;
      bytes = std::move(b.messages.front().second);
      b.messages.pop_front();
      return true;
    }
    std::vector<std::uint8_t> receive(int from) override {
      Box& b = hub_.boxes_[std::size_t(rank_)];
      std::unique_lock lock(b.mutex);
      for (;;) {
        for (auto it = b.messages.begin(); it != b.messages.end(); ++it)
          if (it->first == from) {
            std::vector<std::uint8_t> bytes = std::move(it->second);
            b.messages.erase(it);
            return bytes;
          }
        b.ready.wait(lock);
      }
    }
    void send(int to, const std::vector<std::uint8_t>& bytes) override {
      Box& b = hub_.boxes_[std::size_t(to)];
      {
        std::lock_guard lock(b.mutex);
        b.messages.emplace_back(rank_, bytes);
      }
      b.ready.notify_all();
    }

   private:
    LoopbackRanks& hub_;
    int rank_;
  };

  std::vector<Box> boxes_;
  std::vector<std::unique_ptr<Link>> links_;
};

}  // namespace ks::test
