#pragma once
// Compile as you type: each edit of the text cancels the compile in flight (NVRTC's flow callback reads the
// cancel flag) and starts a new one after a pause in typing, on a thread of its own, never the GUI's; the outcome
// comes back to the GUI thread through a queued signal, tagged with the edit it was for (the editor drops it
// when the text has changed since). A CompileCache makes an unchanged text cost nothing.
#include <QObject>
#include <QTimer>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "editor/compile_outcome.hpp"

namespace ks::ui::qt {

class CompileWorker : public QObject {
  Q_OBJECT

 public:
  static constexpr int kPauseMs = 400;  // the pause in typing after which a compile starts

  explicit CompileWorker(editor::CompileFunction compile, QObject* parent = nullptr);
  ~CompileWorker() override;  // cancels the compile in flight and joins the thread

  void set_options(const usercode::CompileOptions& options) { options_ = options; }
  const usercode::CompileOptions& options() const noexcept { return options_; }

  // The text as of edit `generation`: the compile in flight is cancelled, this one starts after the pause.
  void schedule(std::string source, std::string file_name, std::uint64_t generation);
  void compile_now();  // the text scheduled last, without waiting for the pause
  // A compile is waiting for the pause or running.
  bool busy() const noexcept { return pause_.isActive() || in_flight_ > 0; }

 signals:
  void compiled(std::shared_ptr<const ks::editor::CompileOutcome> outcome);

 private:
  struct Job {
    usercode::CompileRequest request;
    std::uint64_t generation = 0;
    std::shared_ptr<std::atomic<bool>> cancel;
  };
  void start_job();
  void run();  // the worker thread

  editor::CompileFunction compile_;
  usercode::CompileOptions options_;
  usercode::CompileCache cache_;
  QTimer pause_;
  std::optional<Job> scheduled_;  // GUI thread: waiting for the pause
  std::shared_ptr<std::atomic<bool>> running_cancel_;  // GUI thread: the flag of the last job handed over
  int in_flight_ = 0;  // GUI thread: jobs handed over whose outcome has not come back

  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> next_;  // handed to the worker, not started yet
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace ks::ui::qt
