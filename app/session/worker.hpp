#pragma once
// The session's one background thread. Everything that may take longer than a frame (loading a file, running a
// kernel, a block sweep, the CPU reference) runs here, one job at a time, so the GUI thread never waits.
//
// Jobs never touch the session's state: they `post` closures that the GUI thread runs in Session::poll(). Only
// the GUI thread therefore reads or writes the session, and no lock guards it.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ks::app {

class Worker {
 public:
  // What a running job sees: whether it should stop, where to report progress, where to send its results.
  class Context {
   public:
    bool cancelled() const;
    // `fraction` in 0..1, or negative when the job cannot tell how far it is.
    void set_progress(double fraction, std::string detail = {});
    // `apply` runs on the GUI thread at the next Session::poll(), in the order posted.
    void post(std::function<void()> apply);

   private:
    friend class Worker;
    explicit Context(Worker& worker) : worker_(worker) {}
    Worker& worker_;
  };

  using Body = std::function<void(Context&)>;

  struct Status {
    bool busy = false;          // a job runs or waits
    std::string label;          // of the running job ("Running box on the CPU")
    std::string detail;         // its last progress text ("block 16x8, 12 of 66")
    double fraction = -1;       // 0..1, negative: unknown
    double elapsed_s = 0;       // since the running job started
    bool cancel_requested = false;
    std::size_t pending = 0;    // jobs waiting behind it
  };

  // `on_error` runs on the GUI thread (posted like any result) when a job's body throws.
  explicit Worker(std::function<void(const std::string& label, std::exception_ptr)> on_error);
  ~Worker();  // stop(), then joins the thread
  // Cancels the running job and drops the waiting ones; no job starts after it. Returns at once, so that a
  // closing app stops all its workers together before it joins them one by one.
  void stop();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Queues a job. `kind` groups jobs that supersede each other: with `replace_waiting`, a waiting job of the
  // same kind is dropped, since only the newest request matters (a slider dragged through ten values runs once
  // for the last value, not ten times).
  void submit(std::string kind, std::string label, Body body, bool replace_waiting = true);
  // Drops waiting jobs of this kind (the running one continues).
  void drop_waiting(const std::string& kind);
  // Asks the running job to stop; it checks between steps. Waiting jobs stay.
  void cancel_running();
  // Jobs of this kind are no longer wanted: waiting ones are dropped, and a running one is asked to stop (a check
  // of a result about to be replaced stops rather than hold up the run that replaces it).
  void supersede(const std::string& kind);

  Status status() const;
  bool idle() const;
  // Whether closures wait to be taken: a job that ended may have posted its result after the last take.
  bool has_posted() const;
  // Blocks the caller until no job runs or waits (tests, the headless path, run_now).
  void wait_idle();
  // The closures posted since the last call, in order (GUI thread).
  std::vector<std::function<void()>> take_posted();

 private:
  struct Job {
    std::string kind;
    std::string label;
    Body body;
  };

  void loop();

  std::function<void(const std::string&, std::exception_ptr)> on_error_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_cv_;
  std::deque<Job> waiting_;
  bool running_ = false;
  std::string running_label_;
  std::string running_kind_;
  std::string detail_;
  double fraction_ = -1;
  bool cancel_ = false;
  bool stopping_ = false;
  std::chrono::steady_clock::time_point started_;
  std::vector<std::function<void()>> posted_;
  std::thread thread_;  // last: starts after every member above exists
};

}  // namespace ks::app
