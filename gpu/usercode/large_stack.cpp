#include "usercode/large_stack.hpp"

#include <pthread.h>

#include <exception>

namespace ks::usercode {

namespace {

struct Job {
  const std::function<void()>* work;
  std::exception_ptr failure;
};

void* run_job(void* arg) {
  auto* job = static_cast<Job*>(arg);
  try {
    (*job->work)();
  } catch (...) {
    job->failure = std::current_exception();
  }
  return nullptr;
}

}  // namespace

void run_with_large_stack(const std::function<void()>& work, std::size_t stack_bytes) {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, stack_bytes);
  Job job{&work, nullptr};
  pthread_t thread;
  const int started = pthread_create(&thread, &attributes, run_job, &job);
  pthread_attr_destroy(&attributes);
  if (started != 0) {
    // No thread (a process at its limit): compile here, as before, rather than not at all.
    work();
    return;
  }
  pthread_join(thread, nullptr);
  if (job.failure) std::rethrow_exception(job.failure);
}

}  // namespace ks::usercode
