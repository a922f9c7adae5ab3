#include "topo/rank_link.hpp"

#include "topo/sweep_messages.hpp"

namespace ks::topo {

RankRoster::RankRoster(RankLink& link) : link_(link), state_(std::size_t(link.size()), State::Busy) {
  state_[0] = State::Stopped;  // rank 0 is the coordinator itself
}

bool RankRoster::poll(int& from, std::vector<std::uint8_t>& bytes) {
  if (!link_.poll(from, bytes)) return false;
  if (from > 0 && from < size() && state_[std::size_t(from)] == State::Busy) state_[std::size_t(from)] = State::Waiting;
  return true;
}

void RankRoster::send(int to, const std::vector<std::uint8_t>& bytes) {
  link_.send(to, bytes);
  const bool stop = !bytes.empty() && MessageType(bytes[0]) == MessageType::Stop;
  state_[std::size_t(to)] = stop ? State::Stopped : State::Busy;
}

void RankRoster::release_all() {
  const std::vector<std::uint8_t> stop = encode(Message{});
  for (int r = 1; r < size(); ++r) {
    if (state_[std::size_t(r)] == State::Stopped) continue;
    if (state_[std::size_t(r)] == State::Busy) link_.receive(r);  // its report or hello: dropped
    send(r, stop);
  }
}

}  // namespace ks::topo
