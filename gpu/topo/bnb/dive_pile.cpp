#include "topo/bnb/dive_pile.hpp"

#include <algorithm>
#include <chrono>

namespace ks::topo {

DiveGroup::DiveGroup(std::vector<std::uint32_t> subtrees, std::size_t handout)
    : subtrees_(std::move(subtrees)), handout_(handout),
      open_(std::make_unique<std::atomic<std::int64_t>[]>(subtrees_.size())),
      nodes_(std::make_unique<std::atomic<std::uint64_t>[]>(subtrees_.size())) {
  for (std::size_t k = 0; k < subtrees_.size(); ++k) {
    open_[k] = 1;
    nodes_[k] = 0;
  }
}

bool DiveGroup::update(std::size_t root, std::int64_t open_change, std::uint64_t nodes) {
  // The nodes first: whoever closes the root reads them all.
  nodes_[root] += nodes;
  return open_[root].fetch_add(open_change) + open_change == 0;
}

void DiveNodes::resize(std::size_t nodes, int n, int depth) {
  if (nodes > floors.size()) {
    const std::size_t room = std::max({nodes, 2 * floors.size(), std::size_t(64)});
    orders.resize(room * std::size_t(n));
    locs.resize(room * std::size_t(depth));
    roots.resize(room);
    floors.resize(room);
  }
  count = nodes;
}

void DiveNodes::push(const int* order, const int* node_locs, std::int64_t floor, int root, int n, int depth) {
  const std::size_t at = count;
  resize(at + 1, n, depth);
  std::copy_n(order, n, orders.data() + at * std::size_t(n));
  std::copy_n(node_locs, depth, locs.data() + at * std::size_t(depth));
  floors[at] = floor;
  roots[at] = root;
}

void DiveNodes::move_front(std::size_t moved, int n, int depth, DiveNodes& to) {
  // `to` holds exactly its nodes (a piece being made); this one keeps its room past count.
  const auto move = [moved](auto& from, auto& into, std::size_t into_nodes, std::size_t width) {
    const auto last = from.begin() + std::ptrdiff_t(moved * width);
    into.resize(into_nodes * width);
    into.insert(into.end(), from.begin(), last);
    from.erase(from.begin(), last);
  };
  move(orders, to.orders, to.count, std::size_t(n));
  move(locs, to.locs, to.count, std::size_t(depth));
  move(roots, to.roots, to.count, 1);
  move(floors, to.floors, to.count, 1);
  to.count += moved;
  count -= moved;
}

void DivePile::begin() {
  std::lock_guard lock(mutex_);
  ++active_;
}

void DivePile::end() {
  bool none = false;
  {
    std::lock_guard lock(mutex_);
    none = --active_ == 0;
  }
  if (none) changed_.notify_all();  // the waiting threads can stop waiting
}

void DivePile::give(DivePiece piece) {
  {
    std::lock_guard lock(mutex_);
    pieces_.push_back(std::move(piece));
    ++queued_;
  }
  ++given_;
  changed_.notify_one();
}

bool DivePile::wait(DivePiece& out, const std::atomic<bool>& stop, const std::atomic<bool>& failed) {
  std::unique_lock lock(mutex_);
  ++waiting_;
  for (;;) {
    if (!pieces_.empty()) {
      out = std::move(pieces_.front());
      pieces_.pop_front();
      --queued_;
      --waiting_;
      ++active_;
      return true;
    }
    if (active_ == 0 || stop.load() || failed.load()) {
      --waiting_;
      return false;
    }
    // Polled as well: a stop or another thread's error sets a flag without notifying.
    changed_.wait_for(lock, std::chrono::milliseconds(5));
  }
}

}  // namespace ks::topo
