#pragma once
// Ctrl-C for long loops (bench): while an InterruptFlag exists, SIGINT sets a flag the loop checks between
// steps, so it can stop cleanly and report what it has. The first Ctrl-C only asks; a second one kills the
// process as usual (the handler resets itself), for when a single step takes too long to wait for.
#include <signal.h>

namespace ks::cli {

class InterruptFlag {
 public:
  InterruptFlag();   // installs the handler, unless SIGINT was ignored when we started (a background job)
  ~InterruptFlag();  // restores the previous handler
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  bool raised() const noexcept;

 private:
  bool installed_ = false;
  struct sigaction previous_ {};
};

// Exit code after stopping on SIGINT, as shells report a process killed by it (128 + 2).
inline constexpr int kInterruptedExitCode = 130;

}  // namespace ks::cli
