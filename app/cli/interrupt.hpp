#pragma once
// Ctrl-C for long loops (bench): while an InterruptFlag exists, SIGINT sets a flag the loop checks between
// steps, so it can stop cleanly and report what it has. The first Ctrl-C only asks; a second one kills the
// process as usual (the handler resets itself), for when a single step takes too long to wait for.
//
// Long sweeps also catch SIGTERM (`also_terminate`): what Slurm sends at a job's time limit and mpirun sends every
// rank when one of them died. They have about a second before SIGKILL: enough to write a checkpoint.
#include <signal.h>

namespace ks::cli {

class InterruptFlag {
 public:
  // Installs the handlers, unless SIGINT was ignored when we started (a background job; SIGTERM is still caught).
  explicit InterruptFlag(bool also_terminate = false);
  ~InterruptFlag();  // restores the previous handlers
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  bool raised() const noexcept;      // SIGINT or (when caught) SIGTERM
  bool terminated() const noexcept;  // SIGTERM

 private:
  bool installed_ = false, installed_term_ = false;
  struct sigaction previous_ {}, previous_term_ {};
};

// Exit code after stopping on SIGINT, as shells report a process killed by it (128 + 2); SIGTERM: 128 + 15.
inline constexpr int kInterruptedExitCode = 130;
inline constexpr int kTerminatedExitCode = 143;

}  // namespace ks::cli
