#include "cli/interrupt.hpp"

#include <signal.h>

#include <csignal>

namespace ks::cli {

namespace {
// A signal handler can only reach static storage; this flag is the one piece of process-wide state of the
// CLI, private to this file and reachable only through InterruptFlag.
volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void on_sigint(int) {
  g_interrupted = 1;
}
}  // namespace

InterruptFlag::InterruptFlag() {
  g_interrupted = 0;
  struct sigaction current {};
  sigaction(SIGINT, nullptr, &current);
  // A shell without job control starts background jobs with SIGINT ignored; Ctrl-C is not meant for them.
  if (current.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // a second Ctrl-C gets the default action: terminate
  installed_ = sigaction(SIGINT, &action, &previous_) == 0;
}

InterruptFlag::~InterruptFlag() {
  if (installed_) sigaction(SIGINT, &previous_, nullptr);
}

bool InterruptFlag::raised() const noexcept {
  return g_interrupted != 0;
}

}  // namespace ks::cli
