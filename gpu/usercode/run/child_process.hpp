#pragma once
// A child process spoken to in lines of text over one socket (its stdin and stdout); its stderr is the parent's.
// The child is killed when this object goes, and also when the parent dies (PR_SET_PDEATHSIG), so a worker
// stuck in an endless kernel never outlives the app. Writing to a child that died never raises SIGPIPE.
#include <functional>
#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ks::usercode {

class ChildProcess {
 public:
  // Starts `executable` with `arguments` (argv[1..]). Error (Device kind) when it cannot be started, with the path.
  ChildProcess(const std::string& executable, const std::vector<std::string>& arguments);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  // False when the child has gone (its end of the socket closed).
  bool send_line(const std::string& line);

  enum class Read { Line, TimedOut, Cancelled, Ended };
  // Waits up to `timeout` for the next line (without its newline). `cancelled`, when given, is asked every 50 ms.
  Read read_line(std::string& line, std::chrono::milliseconds timeout, const std::function<bool()>& cancelled = {});

  // SIGKILL and reap (idempotent).
  void kill();
  // How the child ended, once read_line said Ended or after kill(): "exited with status 3", "was killed by
  // signal 11 (Segmentation fault)".
  std::string how_it_ended();

 private:
  void reap(bool block);
  void settle();

  pid_t pid_ = -1;
  int socket_ = -1;
  std::string pending_;  // bytes read past the last line
  bool reaped_ = false;
  int status_ = 0;
};

}  // namespace ks::usercode
