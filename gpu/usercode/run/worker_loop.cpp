#include "usercode/run/worker_loop.hpp"

#include <algorithm>
#include <istream>
#include <span>
#include <vector>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "core/error.hpp"
#include "usercode/run/plan_executor.hpp"
#include "usercode/run/shared_memory.hpp"

namespace ks::usercode {

namespace {

constexpr int kExitAfterFault = 3;
constexpr int kExitNoDevice = 1;
// The blocks kept mapped and pinned: the client's main block and its two result blocks (WorkerClient).
constexpr std::size_t kMappedBlocks = 3;

void say(std::ostream& out, const nlohmann::json& j) { out << j.dump() << std::endl; }

WorkerReply failed(std::string message) {
  WorkerReply r;
  r.outcome = RunOutcome::Failed;
  r.message = std::move(message);
  return r;
}

// The client's blocks of shared memory, each mapped and pinned once (pinning 256 MB takes longer than a run's
// copies), the least recently used unpinned and unmapped when a new one comes and kMappedBlocks are held.
class MappedBlocks {
 public:
  explicit MappedBlocks(PlanExecutor& executor) : executor_(executor) {}
  MappedBlocks(const MappedBlocks&) = delete;
  MappedBlocks& operator=(const MappedBlocks&) = delete;
  ~MappedBlocks() {
    for (auto& m : blocks_) executor_.unpin(m.bytes());
  }

  std::span<std::byte> get(const std::string& name, std::uint64_t bytes) {
    const auto it = std::find_if(blocks_.begin(), blocks_.end(), [&](const SharedMemory& m) { return m.name() == name; });
    if (it != blocks_.end() && it->bytes().size() == bytes) {
      std::rotate(it, it + 1, blocks_.end());  // the most recently used last
      return blocks_.back().bytes();
    }
    if (it != blocks_.end()) drop(it);
    if (blocks_.size() >= kMappedBlocks) drop(blocks_.begin());
    blocks_.push_back(SharedMemory::open(name, bytes));
    executor_.pin(blocks_.back().bytes());
    return blocks_.back().bytes();
  }

 private:
  void drop(std::vector<SharedMemory>::iterator it) {
    executor_.unpin(it->bytes());
    blocks_.erase(it);
  }

  PlanExecutor& executor_;
  std::vector<SharedMemory> blocks_;
};

}  // namespace

int serve_worker(std::istream& in, std::ostream& out) {
  PlanExecutor executor;
  const WorkerHello hello = executor.open_device();
  say(out, {{"hello", to_json(hello)}});
  if (!hello.ok) return kExitNoDevice;

  MappedBlocks blocks(executor);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    WorkerReply reply;
    try {
      const nlohmann::json request = nlohmann::json::parse(line);
      const LaunchPlan plan = launch_plan_from_json(request.at("run"));
      const std::span<std::byte> memory =
          blocks.get(request.at("shm").get<std::string>(), request.at("shm_bytes").get<std::uint64_t>());
      std::span<std::byte> results;
      if (request.contains("result_shm"))
        results = blocks.get(request.at("result_shm").get<std::string>(),
                             request.at("result_shm_bytes").get<std::uint64_t>());
      reply = executor.execute(plan, memory, results, [&](int done) { say(out, {{"progress", done}}); });
    } catch (const nlohmann::json::exception& e) {
      reply = failed(std::string("the worker could not read its request: ") + e.what());
    } catch (const Error& e) {
      reply = failed(e.full_message());
    }
    say(out, {{"reply", to_json(reply)}});
    if (reply.outcome == RunOutcome::Fault) return kExitAfterFault;
  }
  return 0;
}

}  // namespace ks::usercode
