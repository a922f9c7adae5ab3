#pragma once
// The thread pool the tests of a binary share, made on first use: two workers by default (CI has two cores);
// pool<0>() has one per core (the GPU tests, whose pool only merges results).
#include "core/thread_pool.hpp"

namespace ks::test {

template <unsigned Threads = 2>
ThreadPool& pool() {
  static ThreadPool p(Threads);
  return p;
}

}  // namespace ks::test
