#pragma once
// Shared by the session tests: a session on the CPU backend only (2 threads, 2 timed launches per run), so that
// they behave the same with and without a GPU and stay quick.
#include "session/session.hpp"

namespace ks::app::session_test {

inline Session::Options cpu_options() {
  Session::Options o;
  o.cpu_threads = 2;
  o.use_cuda = false;
  o.repeat = 2;
  return o;
}

}  // namespace ks::app::session_test
