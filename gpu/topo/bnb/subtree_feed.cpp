#include "topo/bnb/subtree_feed.hpp"

#include <algorithm>

namespace ks::topo {

std::size_t SubtreeFeed::append(std::vector<std::uint32_t> subtrees) {
  std::size_t number = 0;
  {
    std::lock_guard lock(mutex_);
    number = handouts_.size();
    handouts_.push_back(Handout{std::move(subtrees), 0, 0});
  }
  more_.notify_all();
  return number;
}

bool SubtreeFeed::take(std::size_t count, std::vector<std::uint32_t>& out, std::size_t& handout) {
  std::unique_lock lock(mutex_);
  for (;;) {
    while (current_ < handouts_.size() && handouts_[current_].taken == handouts_[current_].subtrees.size()) ++current_;
    if (current_ < handouts_.size()) break;
    if (closed_) return false;
    more_.wait(lock);
  }
  Handout& h = handouts_[current_];
  const std::size_t first = h.taken, last = std::min(h.subtrees.size(), first + count);
  out.assign(h.subtrees.begin() + std::ptrdiff_t(first), h.subtrees.begin() + std::ptrdiff_t(last));
  h.taken = last;
  handout = current_;
  return true;
}

void SubtreeFeed::finished(std::size_t handout, std::uint64_t nodes) {
  std::lock_guard lock(mutex_);
  handouts_[handout].nodes += nodes;
}

void SubtreeFeed::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  more_.notify_all();
}

std::uint64_t SubtreeFeed::nodes(std::size_t handout) const {
  std::lock_guard lock(mutex_);
  return handouts_[handout].nodes;
}

}  // namespace ks::topo
