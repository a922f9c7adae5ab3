#include "topo/bnb/bnb_ranks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <exception>
#include <memory>
#include <thread>

#include "core/error.hpp"
#include "topo/bnb/bnb_state.hpp"
#include "topo/bnb/node_batch.hpp"
#include "topo/bnb/subtree_feed.hpp"
#include "topo/sweep/sweep_messages.hpp"

namespace ks::topo {

namespace {

constexpr int kAssignsAhead = 2;  // per rank: the second travels while the first is explored
constexpr auto kIdle = std::chrono::milliseconds(2);

BnbMessage message(BnbMessageType type) {
  BnbMessage m;
  m.type = type;
  return m;
}

}  // namespace

std::vector<std::uint8_t> encode(const BnbMessage& m) {
  ByteWriter w;
  w.put(m.type);
  w.put(m.fingerprint);
  w.put(m.threads);
  w.put(m.devices);
  w.put_string(m.text);
  w.put(m.configuration);
  w.put_vector(m.subtrees);
  w.put(m.nodes);
  w.put(m.cost);
  w.put_vector(m.location_of);
  return w.take();
}

BnbMessage decode_bnb(const std::vector<std::uint8_t>& bytes) {
  ByteReader in(bytes);
  BnbMessage m;
  m.type = in.get<BnbMessageType>();
  if (m.type < BnbMessageType::Hello || m.type > BnbMessageType::Bye)
    throw Error(ErrorKind::Io, "a message from another rank is not of the proof's protocol",
                "every rank must run the same build of kernelscope-cli");
  m.fingerprint = in.get<std::uint64_t>();
  m.threads = in.get<std::uint32_t>();
  m.devices = in.get<std::uint32_t>();
  m.text = in.get_string();
  m.configuration = in.get<std::int32_t>();
  m.subtrees = in.get_vector<std::uint32_t>();
  m.nodes = in.get<std::uint64_t>();
  m.cost = in.get<std::int64_t>();
  m.location_of = in.get_vector<int>();
  if (!in.at_end())
    throw Error(ErrorKind::Io, "a message from another rank is longer than the proof's protocol says",
                "every rank must run the same build of kernelscope-cli");
  return m;
}

// ---- rank 0 ----

ProofRanks::ProofRanks(RankLink& link)
    : link_(link), out_(std::size_t(link.size()), 0), batch_(std::size_t(link.size()), 1),
      names_(std::size_t(link.size())), finished_(std::size_t(link.size()), 0) {}

void ProofRanks::start(std::uint64_t fingerprint) {
  for (int r = 1; r < ranks(); ++r) {
    const BnbMessage m = decode_bnb(link_.receive(r));
    if (m.type == BnbMessageType::Failed)
      throw Error(ErrorKind::Device, fmt::format("rank {} could not start: {}", r, m.text));
    if (m.type != BnbMessageType::Hello)
      throw Error(ErrorKind::Io, fmt::format("rank {} did not say hello", r), "every rank must run the same build");
    if (m.fingerprint != fingerprint)
      throw_usage(fmt::format("rank {} ({}) proves another problem than rank 0", r, m.text),
                  "give every rank the same inputs and options");
    names_[std::size_t(r)] = m.text;
    // Subtrees per Assign: a few per thread, so that a rank's threads all have one and the tail stays short,
    // and two groups per GPU (its feeding thread takes a group at once; the thread is not a diver).
    const std::uint32_t divers = m.threads - std::min(m.threads, m.devices);
    batch_[std::size_t(r)] =
        std::max<std::uint32_t>(4, 2 * divers) + 2 * std::uint32_t(kSubtreesPerGroup) * m.devices;
  }
}

void ProofRanks::tick(int c, ProofTree& tree, Incumbent& incumbent, bool stopping) {
  int from = 0;
  std::vector<std::uint8_t> bytes;
  while (link_.poll(from, bytes)) {
    if (from <= 0 || from >= ranks()) continue;
    const BnbMessage m = decode_bnb(bytes);
    switch (m.type) {
      case BnbMessageType::Report:
        --out_[std::size_t(from)];
        if (m.configuration == c) tree.finished_elsewhere(m.subtrees, m.nodes);
        finished_[std::size_t(from)] += m.subtrees.size();
        break;
      case BnbMessageType::Better:
        if (m.configuration == c && int(m.location_of.size()) == tree.n()) incumbent.offer(m.cost, m.location_of);
        break;
      case BnbMessageType::Failed:
        out_[std::size_t(from)] = 0;
        throw Error(ErrorKind::Device, fmt::format("rank {} ({}) failed: {}", from, names_[std::size_t(from)], m.text),
                    "the checkpoint keeps the subtrees proved so far: resume once the cause is mended");
      default:
        throw Error(ErrorKind::Io, fmt::format("rank {} sent a message out of turn", from));
    }
  }
  const std::int64_t best = incumbent.cost();
  if (c != sent_configuration_ || best < sent_cost_) {
    // Every rank hears of the better placement (an Assign carries it too).
    BnbMessage better = message(BnbMessageType::Better);
    better.configuration = c;
    better.cost = best;
    better.location_of = incumbent.location_of();
    if (c == sent_configuration_)
      for (int r = 1; r < ranks(); ++r) link_.send(r, encode(better));
    sent_configuration_ = c;
    sent_cost_ = best;
  }
  if (stopping) return;
  for (int r = 1; r < ranks(); ++r) {
    while (out_[std::size_t(r)] < kAssignsAhead) {
      BnbMessage a = message(BnbMessageType::Assign);
      a.subtrees = tree.claim(batch_[std::size_t(r)], incumbent);
      if (a.subtrees.empty()) return;  // every subtree is taken
      a.configuration = c;
      a.cost = incumbent.cost();
      a.location_of = incumbent.location_of();
      link_.send(r, encode(a));
      ++out_[std::size_t(r)];
    }
  }
}

bool ProofRanks::outstanding() const {
  for (int n : out_)
    if (n > 0) return true;
  return false;
}

void ProofRanks::stop_all() noexcept {
  if (stopped_) return;
  stopped_ = true;
  try {
    for (int r = 1; r < ranks(); ++r) link_.send(r, encode(message(BnbMessageType::Stop)));
    for (int r = 1; r < ranks(); ++r)
      while (decode_bnb(link_.receive(r)).type != BnbMessageType::Bye) {
      }
  } catch (...) {
    // A rank that sends garbage at the end: rank 0 has its result (and checkpoint) already.
  }
}

// ---- ranks > 0 ----

namespace {

std::size_t matrix(const Problem& p) { return std::size_t(p.n) * std::size_t(p.n); }

// One configuration on this rank: its tree and incumbent, and a thread exploring on the pool what rank 0 hands
// out, appended to a feed as it comes, while the rank's main thread talks to rank 0 (the only one calling MPI).
class RankExploration {
 public:
  RankExploration(const Problem& p, const BnbRequest& r, const BnbMessage& first, ThreadPool& pool,
                  std::vector<NodeEvaluator*> devices)
      : configuration_(first.configuration),
        tree_(p.traffic_scaled.data() + std::size_t(p.summed_slice ? p.timestamps : 0) * matrix(p),
              p.cost_scaled.data() + std::size_t(first.configuration) * matrix(p), p.n, r.reduced_cost_pruning),
        incumbent_(first.cost, first.location_of) {
    tree_.build_frontier(pool);
    for (NodeEvaluator* e : devices) e->load(tree_.traffic(), tree_.costs(), p.n);
    worker_ = std::thread([this, &pool, devices] {
      try {
        tree_.explore_feed(pool, feed_, incumbent_, stop_, devices);
      } catch (...) {
        failure_ = std::current_exception();
      }
      ended_ = true;
    });
  }
  ~RankExploration() { stop(); }
  RankExploration(const RankExploration&) = delete;
  RankExploration& operator=(const RankExploration&) = delete;

  int configuration() const { return configuration_; }
  Incumbent& incumbent() { return incumbent_; }

  void add(const BnbMessage& assign) {
    for (std::uint32_t subtree : assign.subtrees)
      if (subtree >= tree_.subtrees())
        throw Error(ErrorKind::Io, "an assignment of another problem", "every rank must run the same build");
    incumbent_.offer(assign.cost, assign.location_of);
    pending_.push_back(feed_.append(assign.subtrees));
  }
  // The hand-outs finished since the last call, in the order they came: a Report each.
  std::vector<BnbMessage> reports() {
    if (ended_ && failure_) std::rethrow_exception(failure_);
    std::vector<BnbMessage> out;
    while (!pending_.empty() && tree_.all_done(feed_.subtrees(pending_.front()))) {
      BnbMessage report = message(BnbMessageType::Report);
      report.configuration = configuration_;
      report.subtrees = feed_.subtrees(pending_.front());
      report.nodes = feed_.nodes(pending_.front());
      out.push_back(std::move(report));
      pending_.pop_front();
    }
    return out;
  }
  // Every hand-out explored (rank 0 moves on to another configuration only once all were reported).
  std::vector<BnbMessage> drain() {
    feed_.close();
    if (worker_.joinable()) worker_.join();
    return reports();
  }
  // Stopped: what is under way is left (rank 0 keeps it open).
  void stop() noexcept {
    stop_ = true;
    feed_.close();
    if (worker_.joinable()) worker_.join();
  }

 private:
  int configuration_;
  ProofTree tree_;
  Incumbent incumbent_;
  SubtreeFeed feed_;
  std::atomic<bool> stop_{false}, ended_{false};
  std::exception_ptr failure_;   // set before ended_
  std::deque<std::size_t> pending_;  // hand-outs not reported yet
  std::thread worker_;
};

void wait_for_stop(RankLink& link) {
  for (;;) {
    const std::vector<std::uint8_t> bytes = link.receive(0);
    if (!bytes.empty() && BnbMessageType(bytes[0]) == BnbMessageType::Stop) break;
  }
  link.send(0, encode(message(BnbMessageType::Bye)));
}

}  // namespace

int refuse_proof(RankLink& link, const std::string& why) {
  BnbMessage failed = message(BnbMessageType::Failed);
  failed.text = why;
  link.send(0, encode(failed));
  wait_for_stop(link);
  return 1;
}

int serve_proof(const Problem& p, const BnbRequest& r, ThreadPool& pool, RankLink& link, const std::string& where) {
  const std::vector<NodeEvaluator*> devices = r.devices_for(pool.size());
  BnbMessage hello = message(BnbMessageType::Hello);
  hello.fingerprint = bnb_fingerprint(p, r);
  hello.threads = pool.size();
  hello.devices = std::uint32_t(devices.size());
  hello.text = fmt::format("{}, CPU ({} threads)", where, pool.size());
  if (!devices.empty()) {
    hello.text += fmt::format(" + {} (batches)", describe_evaluators(devices));
  }
  link.send(0, encode(hello));
  bool stopping = false;
  try {
    std::unique_ptr<RankExploration> current;
    std::int64_t told = 0;  // the best cost rank 0 knows of (it told, or this rank told it)
    const auto send_all = [&](const std::vector<BnbMessage>& reports) {
      for (const BnbMessage& m : reports) link.send(0, encode(m));
    };
    // What arrives from rank 0: Assigns go to the feed (a new configuration once the last one is drained), Better
    // is offered, Stop ends the rank.
    const auto take = [&](const BnbMessage& m) {
      if (m.type == BnbMessageType::Stop) {
        stopping = true;
      } else if (m.type == BnbMessageType::Assign) {
        if (m.configuration < 0 || m.configuration >= p.configs || int(m.location_of.size()) != p.n)
          throw Error(ErrorKind::Io, "an assignment of another problem", "every rank must run the same build");
        if (!current || current->configuration() != m.configuration) {
          if (current) send_all(current->drain());
          current.reset();
          current = std::make_unique<RankExploration>(p, r, m, pool, devices);
          told = m.cost;
        }
        current->add(m);
        told = std::min(told, m.cost);
      } else if (m.type == BnbMessageType::Better && current && m.configuration == current->configuration()) {
        current->incumbent().offer(m.cost, m.location_of);
        told = std::min(told, m.cost);
      }
    };
    while (!stopping) {
      int from = 0;
      std::vector<std::uint8_t> bytes;
      while (!stopping && link.poll(from, bytes))
        if (from == 0) take(decode_bnb(bytes));
      if (stopping || !current) {
        if (!stopping) std::this_thread::sleep_for(kIdle);
        continue;
      }
      if (current->incumbent().cost() < told) {  // found here: rank 0 passes it on to every rank
        BnbMessage better = message(BnbMessageType::Better);
        better.configuration = current->configuration();
        better.cost = current->incumbent().cost();
        better.location_of = current->incumbent().location_of();
        told = better.cost;
        link.send(0, encode(better));
      }
      send_all(current->reports());
      std::this_thread::sleep_for(kIdle);
    }
    if (current) current->stop();
    link.send(0, encode(message(BnbMessageType::Bye)));
    return 0;
  } catch (const std::exception& e) {
    const Error* err = dynamic_cast<const Error*>(&e);
    BnbMessage failed = message(BnbMessageType::Failed);
    failed.text = fmt::format("{}: {}", where, err ? err->full_message() : e.what());
    link.send(0, encode(failed));
    if (!stopping) wait_for_stop(link);
    else link.send(0, encode(message(BnbMessageType::Bye)));
    return 1;
  }
}

}  // namespace ks::topo
