#include "cli/interrupt.hpp"

#include <signal.h>

#include <csignal>

namespace ks::cli {

namespace {
// A signal handler can only reach static storage; these flags are the one piece of process-wide state of the
// CLI, private to this file and reachable only through InterruptFlag.
volatile std::sig_atomic_t g_interrupted = 0;
volatile std::sig_atomic_t g_terminated = 0;

extern "C" void on_sigint(int) {
  g_interrupted = 1;
}
extern "C" void on_sigterm(int) {
  g_terminated = 1;
}

bool install(int sig, void (*handler)(int), struct sigaction& previous) {
  struct sigaction current {};
  sigaction(sig, nullptr, &current);
  // A shell without job control starts background jobs with SIGINT ignored; Ctrl-C is not meant for them.
  if (sig == SIGINT && current.sa_handler == SIG_IGN) return false;
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // a second signal gets the default action: terminate
  return sigaction(sig, &action, &previous) == 0;
}
}  // namespace

InterruptFlag::InterruptFlag(bool also_terminate) {
  g_interrupted = 0;
  g_terminated = 0;
  installed_ = install(SIGINT, on_sigint, previous_);
  if (also_terminate) installed_term_ = install(SIGTERM, on_sigterm, previous_term_);
}

InterruptFlag::~InterruptFlag() {
  if (installed_) sigaction(SIGINT, &previous_, nullptr);
  if (installed_term_) sigaction(SIGTERM, &previous_term_, nullptr);
}

bool InterruptFlag::raised() const noexcept {
  return g_interrupted != 0 || g_terminated != 0;
}

bool InterruptFlag::terminated() const noexcept {
  return g_terminated != 0;
}

}  // namespace ks::cli
