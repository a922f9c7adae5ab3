#include "topo/bnb/subtree_feed.hpp"

#include <algorithm>

namespace ks::topo {

std::size_t SubtreeFeed::append(std::vector<std::uint32_t> subtrees) {
  std::size_t number = 0;
  {
    std::lock_guard lock(mutex_);
    number = handouts_.size();
    const std::size_t size = subtrees.size();
    handouts_.push_back(Handout{std::move(subtrees), 0, size, 0});
  }
  more_.notify_all();
  return number;
}

SubtreeFeed::Handout* SubtreeFeed::open_handout(std::unique_lock<std::mutex>& lock) {
  for (;;) {
    while (current_ < handouts_.size() && handouts_[current_].taken == handouts_[current_].back) ++current_;
    if (current_ < handouts_.size()) return &handouts_[current_];
    if (closed_) return nullptr;
    more_.wait(lock);
  }
}

bool SubtreeFeed::take(std::size_t count, std::vector<std::uint32_t>& out, std::size_t& handout) {
  std::unique_lock lock(mutex_);
  Handout* h = open_handout(lock);
  if (h == nullptr) return false;
  const std::size_t first = h->taken, last = std::min(h->back, first + count);
  out.assign(h->subtrees.begin() + std::ptrdiff_t(first), h->subtrees.begin() + std::ptrdiff_t(last));
  h->taken = last;
  handout = current_;
  return true;
}

bool SubtreeFeed::take_last(std::size_t count, std::vector<std::uint32_t>& out, std::size_t& handout) {
  std::unique_lock lock(mutex_);
  Handout* h = open_handout(lock);
  if (h == nullptr) return false;
  const std::size_t last = h->back, first = last - std::min(count, last - h->taken);
  out.assign(h->subtrees.begin() + std::ptrdiff_t(first), h->subtrees.begin() + std::ptrdiff_t(last));
  h->back = first;
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
