#include "session/worker.hpp"

#include <algorithm>
#include <utility>

namespace ks::app {

bool Worker::Context::cancelled() const {
  std::lock_guard lock(worker_.mutex_);
  return worker_.cancel_ || worker_.stopping_;
}

void Worker::Context::set_progress(double fraction, std::string detail) {
  std::lock_guard lock(worker_.mutex_);
  worker_.fraction_ = fraction;
  worker_.detail_ = std::move(detail);
}

void Worker::Context::post(std::function<void()> apply) {
  std::lock_guard lock(worker_.mutex_);
  worker_.posted_.push_back(std::move(apply));
}

Worker::Worker(std::function<void(const std::string&, std::exception_ptr)> on_error)
    : on_error_(std::move(on_error)), thread_([this] { loop(); }) {}

Worker::~Worker() {
  stop();
  thread_.join();
}

void Worker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;  // what Context::cancelled() tells the running job
    waiting_.clear();
  }
  wake_.notify_all();
}

void Worker::submit(std::string kind, std::string label, Body body, bool replace_waiting) {
  {
    std::lock_guard lock(mutex_);
    if (replace_waiting)
      std::erase_if(waiting_, [&](const Job& j) { return j.kind == kind; });
    waiting_.push_back({std::move(kind), std::move(label), std::move(body)});
  }
  wake_.notify_one();
}

void Worker::drop_waiting(const std::string& kind) {
  std::lock_guard lock(mutex_);
  std::erase_if(waiting_, [&](const Job& j) { return j.kind == kind; });
  if (!running_ && waiting_.empty()) idle_cv_.notify_all();
}

void Worker::cancel_running() {
  std::lock_guard lock(mutex_);
  if (running_) cancel_ = true;
}

void Worker::supersede(const std::string& kind) {
  std::lock_guard lock(mutex_);
  std::erase_if(waiting_, [&](const Job& j) { return j.kind == kind; });
  if (running_ && running_kind_ == kind) cancel_ = true;
  if (!running_ && waiting_.empty()) idle_cv_.notify_all();
}

Worker::Status Worker::status() const {
  std::lock_guard lock(mutex_);
  Status s;
  s.busy = running_ || !waiting_.empty();
  s.pending = waiting_.size();
  if (running_) {
    s.label = running_label_;
    s.detail = detail_;
    s.fraction = fraction_;
    s.cancel_requested = cancel_;
    s.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  return s;
}

bool Worker::idle() const {
  std::lock_guard lock(mutex_);
  return !running_ && waiting_.empty();
}

bool Worker::has_posted() const {
  std::lock_guard lock(mutex_);
  return !posted_.empty();
}

void Worker::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_cv_.wait(lock, [&] { return !running_ && waiting_.empty(); });
}

std::vector<std::function<void()>> Worker::take_posted() {
  std::lock_guard lock(mutex_);
  return std::exchange(posted_, {});
}

void Worker::loop() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
      if (stopping_) return;
      job = std::move(waiting_.front());
      waiting_.pop_front();
      running_ = true;
      running_label_ = job.label;
      running_kind_ = job.kind;
      detail_.clear();
      fraction_ = -1;
      cancel_ = false;
      started_ = std::chrono::steady_clock::now();
    }
    Context ctx(*this);
    try {
      job.body(ctx);
    } catch (...) {
      // A job reports its own failures; this catches what it did not expect, so the thread survives and the
      // GUI still hears about it.
      std::lock_guard lock(mutex_);
      posted_.push_back([this, label = job.label, e = std::current_exception()] { on_error_(label, e); });
    }
    {
      std::lock_guard lock(mutex_);
      running_ = false;
      cancel_ = false;
      if (waiting_.empty()) idle_cv_.notify_all();
    }
  }
}

}  // namespace ks::app
