#pragma once
// A fixed set of worker threads for the CPU backend. parallel_for splits [begin, end) into contiguous chunks,
// one task per worker and a few more for balance, and returns when all are done (exceptions propagate).
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ks {

class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads = 0);  // 0: std::thread::hardware_concurrency()
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const noexcept { return unsigned(workers_.size()); }
  // body(chunk_begin, chunk_end) for disjoint chunks covering [begin, end).
  void parallel_for(long long begin, long long end, const std::function<void(long long, long long)>& body);

 private:
  void worker_loop();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::function<void()>> queue_;
  std::size_t pending_ = 0;
  bool stopping_ = false;
};

}  // namespace ks
