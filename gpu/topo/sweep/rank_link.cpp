#include "topo/sweep/rank_link.hpp"

#include "topo/sweep/sweep_messages.hpp"

namespace ks::topo {

RankRoster::RankRoster(RankLink& link) : link_(link), owed_(std::size_t(link.size()), 1) {
  owed_[0] = -1;  // rank 0 is the coordinator itself
}

bool RankRoster::poll(int& from, std::vector<std::uint8_t>& bytes) {
  if (!link_.poll(from, bytes)) return false;
  if (from > 0 && from < size() && owed_[std::size_t(from)] > 0) {
    // A rank that failed sends nothing more until Stop: whatever else it was sent, it will not report.
    const bool failed = !bytes.empty() && MessageType(bytes[0]) == MessageType::Failed;
    owed_[std::size_t(from)] = failed ? 0 : owed_[std::size_t(from)] - 1;
  }
  return true;
}

void RankRoster::send(int to, const std::vector<std::uint8_t>& bytes) {
  link_.send(to, bytes);
  const bool stop = !bytes.empty() && MessageType(bytes[0]) == MessageType::Stop;
  int& owed = owed_[std::size_t(to)];
  owed = stop ? -1 : owed + 1;
}

void RankRoster::release_all() {
  const std::vector<std::uint8_t> stop = encode(Message{});
  for (int r = 1; r < size(); ++r) {
    // Its reports or hello: dropped (a Failed among them ends what it owes).
    while (owed_[std::size_t(r)] > 0) {
      const std::vector<std::uint8_t> bytes = link_.receive(r);
      const bool failed = !bytes.empty() && MessageType(bytes[0]) == MessageType::Failed;
      owed_[std::size_t(r)] = failed ? 0 : owed_[std::size_t(r)] - 1;
    }
    if (owed_[std::size_t(r)] == 0) send(r, stop);
  }
}

}  // namespace ks::topo
