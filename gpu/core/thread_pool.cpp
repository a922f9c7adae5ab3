#include "core/thread_pool.hpp"

#include <algorithm>
#include <exception>

namespace ks {

namespace {

// Enough chunks that a slow chunk (a busy core, an uneven workload) does not leave the others idle,
// few enough that the queueing cost stays negligible next to the work.
constexpr unsigned long long kChunksPerWorker = 4;

// State of one parallel_for call, shared by its chunks; guarded by the pool's mutex.
struct Batch {
  std::size_t remaining = 0;
  bool failed = false;
  std::exception_ptr error;
};

}  // namespace

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  workers_.reserve(threads);
  try {
    for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
  } catch (...) {
    // The destructor does not run for a half-built object: stop the threads already started.
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
    throw;
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::worker_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left to run
    auto task = std::move(queue_.back());
    queue_.pop_back();
    lock.unlock();
    task();  // tasks catch their own exceptions (see parallel_for)
    lock.lock();
  }
}

void ThreadPool::parallel_for(long long begin, long long end, const std::function<void(long long, long long)>& body) {
  if (end <= begin) return;
  // Unsigned arithmetic: end - begin can exceed LLONG_MAX.
  const unsigned long long count = static_cast<unsigned long long>(end) - static_cast<unsigned long long>(begin);
  const unsigned long long chunks = std::min<unsigned long long>(count, kChunksPerWorker * size());
  if (size() <= 1 || chunks <= 1) {
    // The calling thread would do all the work anyway; skip the queue.
    body(begin, end);
    return;
  }

  Batch batch;
  batch.remaining = std::size_t(chunks);
  const unsigned long long base = count / chunks, extra = count % chunks;
  {
    std::lock_guard lock(mutex_);
    unsigned long long offset = 0;
    for (unsigned long long i = 0; i < chunks; ++i) {
      const unsigned long long length = base + (i < extra ? 1 : 0);
      const long long b = static_cast<long long>(static_cast<unsigned long long>(begin) + offset);
      const long long e = static_cast<long long>(static_cast<unsigned long long>(begin) + offset + length);
      offset += length;
      queue_.emplace_back([this, &batch, &body, b, e] {
        bool skip;
        {
          std::lock_guard lock(mutex_);
          skip = batch.failed;  // after a failure the caller gets that error; the remaining work is moot
        }
        std::exception_ptr error;
        if (!skip) {
          try {
            body(b, e);
          } catch (...) {
            error = std::current_exception();
          }
        }
        // The last touch of `batch` happens under the lock: the caller cannot return (destroying it) before.
        std::lock_guard lock(mutex_);
        if (error && !batch.failed) {
          batch.failed = true;
          batch.error = error;
        }
        --pending_;
        if (--batch.remaining == 0) done_.notify_all();
      });
    }
    pending_ += std::size_t(chunks);
  }
  wake_.notify_all();

  // Help instead of only waiting: the caller's core is not wasted, and a body that itself calls parallel_for
  // (from a worker) cannot deadlock with every worker waiting on queued chunks.
  std::unique_lock lock(mutex_);
  while (batch.remaining > 0) {
    if (!queue_.empty()) {
      auto task = std::move(queue_.back());
      queue_.pop_back();
      lock.unlock();
      task();
      lock.lock();
    } else {
      done_.wait(lock);
    }
  }
  if (batch.error) std::rethrow_exception(batch.error);
}

}  // namespace ks
