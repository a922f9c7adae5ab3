#pragma once
// A queue of `size` positions taken from both ends at once, without a lock: [front, back) is what is left, both
// in one atomic word, so a position is never taken from both ends. A proof's subtrees sit in it lowest bound
// first (proof_tree.hpp): the threads feeding GPUs take from the front (the largest subtrees, in practice), the
// CPU threads diving beside them from the back (the smallest), so that no slow diving thread holds one of the
// largest subtrees at the end of a run. Internal to gpu/topo/bnb.
#include <algorithm>
#include <atomic>
#include <cstdint>

namespace ks::topo {

class QueueEnds {
 public:
  void reset(std::uint32_t size) { ends_.store(pack(0, size)); }

  // Up to `count` positions from the front, [first, last); false when none is left.
  bool take_front(std::uint32_t count, std::uint32_t& first, std::uint32_t& last) {
    std::uint64_t ends = ends_.load();
    for (;;) {
      const std::uint32_t front = front_of(ends), back = back_of(ends);
      if (front >= back) return false;
      const std::uint32_t end = front + std::min(count, back - front);
      if (ends_.compare_exchange_weak(ends, pack(end, back))) {
        first = front;
        last = end;
        return true;
      }
    }
  }

  // Up to `count` positions from the back, [first, last); false when none is left.
  bool take_back(std::uint32_t count, std::uint32_t& first, std::uint32_t& last) {
    std::uint64_t ends = ends_.load();
    for (;;) {
      const std::uint32_t front = front_of(ends), back = back_of(ends);
      if (front >= back) return false;
      const std::uint32_t start = back - std::min(count, back - front);
      if (ends_.compare_exchange_weak(ends, pack(front, start))) {
        first = start;
        last = back;
        return true;
      }
    }
  }

  std::uint32_t left() const {
    const std::uint64_t ends = ends_.load();
    return back_of(ends) - front_of(ends);
  }

 private:
  static std::uint64_t pack(std::uint32_t front, std::uint32_t back) { return std::uint64_t(back) << 32 | front; }
  static std::uint32_t front_of(std::uint64_t ends) { return std::uint32_t(ends); }
  static std::uint32_t back_of(std::uint64_t ends) { return std::uint32_t(ends >> 32); }

  std::atomic<std::uint64_t> ends_{0};
};

}  // namespace ks::topo
