#include "usercode/run/worker_loop.hpp"

#include <istream>
#include <optional>
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

void say(std::ostream& out, const nlohmann::json& j) { out << j.dump() << std::endl; }

WorkerReply failed(std::string message) {
  WorkerReply r;
  r.outcome = RunOutcome::Failed;
  r.message = std::move(message);
  return r;
}

}  // namespace

int serve_worker(std::istream& in, std::ostream& out) {
  PlanExecutor executor;
  const WorkerHello hello = executor.open_device();
  say(out, {{"hello", to_json(hello)}});
  if (!hello.ok) return kExitNoDevice;

  // The client reuses one block of shared memory while it is large enough: mapped (and pinned) once.
  std::optional<SharedMemory> memory;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    WorkerReply reply;
    try {
      const nlohmann::json request = nlohmann::json::parse(line);
      const LaunchPlan plan = launch_plan_from_json(request.at("run"));
      const std::string name = request.at("shm").get<std::string>();
      const auto bytes = request.at("shm_bytes").get<std::uint64_t>();
      if (!memory || memory->name() != name || memory->bytes().size() != bytes) {
        executor.unpin();
        memory.reset();
        memory = SharedMemory::open(name, bytes);
        executor.pin(memory->bytes());
      }
      reply = executor.execute(plan, memory->bytes(), [&](int done) { say(out, {{"progress", done}}); });
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
