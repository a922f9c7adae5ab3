#include "usercode/run/worker_client.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

double seconds(std::chrono::milliseconds ms) { return static_cast<double>(ms.count()) / 1000.0; }

WorkerReply ended(RunOutcome outcome, std::string message) {
  WorkerReply r;
  r.outcome = outcome;
  r.message = std::move(message);
  return r;
}

}  // namespace

std::string default_worker_executable() {
  if (const char* env = std::getenv("KS_WORKER"); env && *env) return env;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "kernelscope-cli";
  return (self.parent_path() / "kernelscope-cli").string();
}

WorkerClient::WorkerClient(Options options) : options_(std::move(options)) {
  if (options_.executable.empty()) options_.executable = default_worker_executable();
}

WorkerClient::~WorkerClient() { stop(); }

void WorkerClient::stop() {
  child_.reset();  // kills and reaps
  hello_.reset();
}

void WorkerClient::start() {
  child_ = std::make_unique<ChildProcess>(options_.executable, options_.arguments);
  ++starts_;
  std::string line;
  const auto read = child_->read_line(line, options_.setup_timeout);
  if (read != ChildProcess::Read::Line) {
    const std::string how = read == ChildProcess::Read::TimedOut
                                ? fmt::format("did not start within {:.0f} s", seconds(options_.setup_timeout))
                                : child_->how_it_ended();
    stop();
    throw Error(ErrorKind::Device, fmt::format("the worker process {} {}", options_.executable, how),
                "check that kernelscope-cli runs (kernelscope-cli info)");
  }
  try {
    hello_ = worker_hello_from_json(nlohmann::json::parse(line).at("hello"));
  } catch (const nlohmann::json::exception&) {
    stop();
    throw Error(ErrorKind::Device, fmt::format("the worker process {} said `{}` instead of hello",
                                               options_.executable, line.substr(0, 200)));
  }
}

SharedMemory& WorkerClient::shared_memory(std::uint64_t bytes) {
  if (!memory_ || memory_->bytes().size() < bytes) {
    memory_.reset();  // the old block goes first: two large ones need not fit at once
    memory_input_key_.clear();
    memory_ = SharedMemory::create(bytes);
  }
  return *memory_;
}

bool WorkerClient::shared_memory_holds(const std::string& key, std::uint64_t offset) const {
  return memory_ && !key.empty() && key == memory_input_key_ && offset == memory_input_offset_;
}

void WorkerClient::mark_input(const std::string& key, std::uint64_t offset) {
  memory_input_key_ = key;
  memory_input_offset_ = offset;
}

std::shared_ptr<SharedMemory> WorkerClient::result_block(std::uint64_t bytes) {
  // A use count of 1 is the client's own reference: no image borrows the block. Images drop theirs on other
  // threads; the acquire fence orders their last reads before the next run's writes.
  const auto unread = [](const std::shared_ptr<SharedMemory>& b) {
    if (!b || b.use_count() != 1) return false;
    std::atomic_thread_fence(std::memory_order_acquire);
    return true;
  };
  for (std::size_t k = 0; k < result_blocks_.size(); ++k) {
    std::shared_ptr<SharedMemory>& block = result_blocks_[k];
    if (!unread(block) || block->bytes().size() < bytes) continue;
    next_result_block_ = (k + 1) % result_blocks_.size();  // the other one is replaced when both are read
    return block;
  }
  // None fits: an empty slot, one no image reads (too small: freed first), else the older of the two read ones,
  // which its readers keep until they are done.
  std::size_t slot = next_result_block_;
  for (std::size_t k = 0; k < result_blocks_.size(); ++k)
    if (!result_blocks_[k] || unread(result_blocks_[k])) {
      slot = k;
      break;
    }
  result_blocks_[slot].reset();
  result_blocks_[slot] = std::make_shared<SharedMemory>(SharedMemory::create(bytes));
  next_result_block_ = (slot + 1) % result_blocks_.size();
  return result_blocks_[slot];
}

const WorkerHello& WorkerClient::hello() {
  if (!child_) start();
  return *hello_;
}

WorkerReply WorkerClient::run(const LaunchPlan& plan, const SharedMemory& memory, const std::function<bool()>& cancelled,
                              const std::function<void(int)>& progress) {
  return run_request(plan, memory, nullptr, cancelled, progress);
}

WorkerReply WorkerClient::run(const LaunchPlan& plan, const SharedMemory& memory, const SharedMemory& results,
                              const std::function<bool()>& cancelled, const std::function<void(int)>& progress) {
  return run_request(plan, memory, &results, cancelled, progress);
}

WorkerReply WorkerClient::run_request(const LaunchPlan& plan, const SharedMemory& memory, const SharedMemory* results,
                                      const std::function<bool()>& cancelled,
                                      const std::function<void(int)>& progress) {
  if (!hello().ok) {
    const std::string message = hello_->message;
    stop();
    throw Error(ErrorKind::Device, "cannot run your kernel: " + message,
                "running your own kernel needs an NVIDIA GPU; compiling it does not (kernelscope-cli compile)");
  }
  nlohmann::json request = {{"run", to_json(plan)}, {"shm", memory.name()}, {"shm_bytes", memory.bytes().size()}};
  if (results) {
    request["result_shm"] = results->name();
    request["result_shm_bytes"] = results->bytes().size();
  }
  if (!child_->send_line(request.dump())) {
    const std::string how = child_->how_it_ended();
    stop();
    return ended(RunOutcome::WorkerDied, "the worker process running your kernel " + how);
  }
  const int launches = plan.warmup + plan.timed;
  int done = -1;  // -1: setting up (module, buffers); then launches finished
  for (;;) {
    // One launch may take launch_timeout; setting up before the first and copying back after the last more.
    const bool launching = done >= 0 && done < launches;
    std::string line;
    const auto read =
        child_->read_line(line, launching ? options_.launch_timeout : options_.setup_timeout, cancelled);
    if (read == ChildProcess::Read::Cancelled) {
      if (launching) cut_off_.fetch_add(1, std::memory_order_relaxed);
      stop();
      throw Error(ErrorKind::Cancelled, "stopped: your kernel's run was cancelled");
    }
    if (read == ChildProcess::Read::TimedOut) {
      cut_off_.fetch_add(1, std::memory_order_relaxed);
      stop();
      if (launching)
        return ended(RunOutcome::TimedOut,
                     fmt::format("stopped after {:g} s: the kernel did not finish (launch {} of {}; an endless "
                                 "loop, or a wait for something that never comes?)",
                                 seconds(options_.launch_timeout), done + 1, launches));
      return ended(RunOutcome::TimedOut, fmt::format("stopped after {:g} s: the worker did not answer while "
                                                     "setting up or copying the results",
                                                     seconds(options_.setup_timeout)));
    }
    if (read == ChildProcess::Read::Ended) {
      const std::string how = child_->how_it_ended();
      stop();
      return ended(RunOutcome::WorkerDied, "the worker process running your kernel " + how);
    }
    nlohmann::json message;
    try {
      message = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
      stop();
      return ended(RunOutcome::WorkerDied, "the worker process said something unreadable: " + line.substr(0, 200));
    }
    if (message.contains("progress")) {
      done = message.at("progress").get<int>();
      if (progress && done > 0) progress(done);
      continue;
    }
    WorkerReply reply = worker_reply_from_json(message.at("reply"));
    if (reply.outcome == RunOutcome::Fault) {
      cut_off_.fetch_add(1, std::memory_order_relaxed);
      stop();  // its context is gone; it exits after replying
    }
    return reply;
  }
}

}  // namespace ks::usercode
