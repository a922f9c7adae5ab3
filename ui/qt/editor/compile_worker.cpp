#include "qt/editor/compile_worker.hpp"

#include <QMetaObject>

namespace ks::ui::qt {

CompileWorker::CompileWorker(editor::CompileFunction compile, QObject* parent)
    : QObject(parent), compile_(std::move(compile)) {
  qRegisterMetaType<std::shared_ptr<const ks::editor::CompileOutcome>>();
  pause_.setSingleShot(true);
  pause_.setInterval(kPauseMs);
  connect(&pause_, &QTimer::timeout, this, &CompileWorker::start_job);
  thread_ = std::thread([this] { run(); });
}

CompileWorker::~CompileWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    next_.reset();
  }
  if (running_cancel_) running_cancel_->store(true);
  wake_.notify_all();
  thread_.join();
}

void CompileWorker::schedule(std::string source, std::string file_name, std::uint64_t generation) {
  if (running_cancel_) running_cancel_->store(true);  // whatever runs is for an older text now
  Job job;
  job.request.source = std::move(source);
  job.request.file_name = std::move(file_name);
  job.request.options = options_;
  job.generation = generation;
  job.cancel = std::make_shared<std::atomic<bool>>(false);
  job.request.cancel = job.cancel.get();
  scheduled_ = std::move(job);
  pause_.start();
}

void CompileWorker::compile_now() {
  if (!scheduled_) return;
  pause_.stop();
  start_job();
}

void CompileWorker::start_job() {
  if (!scheduled_) return;
  running_cancel_ = scheduled_->cancel;
  ++in_flight_;
  {
    std::lock_guard lock(mutex_);
    if (next_) --in_flight_;  // replaced before it started: it will never come back
    next_ = std::move(scheduled_);
  }
  scheduled_.reset();
  wake_.notify_one();
}

void CompileWorker::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || next_; });
      if (stop_) return;
      job = std::move(*next_);
      next_.reset();
    }
    auto outcome = std::make_shared<const editor::CompileOutcome>(
        editor::compile_for_editor(compile_, job.request, &cache_, job.generation));
    // To the GUI thread, where this object lives: queued, so the slot runs there. A worker being destroyed
    // drops it (Qt discards events of a deleted receiver).
    QMetaObject::invokeMethod(
        this,
        [this, outcome] {
          --in_flight_;
          emit compiled(outcome);
        },
        Qt::QueuedConnection);
  }
}

}  // namespace ks::ui::qt
