#pragma once
// A command-line tool run to its end as a child process, with a time limit, its standard output and error
// captured: for the CUDA toolkit's tools (nvdisasm), which have no library to call. POSIX only (posix_spawn, pipes,
// poll). Not the worker's ChildProcess (usercode/run/), which stays and is spoken to line by line.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace ks::usercode {

struct ProcessResult {
  bool started = false;    // false: the program could not be run (start_error says why)
  std::string start_error;
  bool timed_out = false;  // it ran past the limit and was killed
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it (SIGKILL after a time-out)
  std::string out, err;
};

// Runs `program` with `args` (argv[1...]) and waits at most `limit`: past it the child is killed (SIGKILL) and
// reaped. Never throws for the child's own failures; they are in the result.
ProcessResult run_process(const std::filesystem::path& program, const std::vector<std::string>& args,
                          std::chrono::milliseconds limit);

}  // namespace ks::usercode
