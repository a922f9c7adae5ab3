#pragma once
// Runs the kernelscope-cli binary (KS_CLI_PATH) the way a user would, capturing stdout, stderr and the exit
// code.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace ks::test {

struct CliResult {
  int exit_code = -1;  // the process's exit status; 128 + signal when a signal ended it
  std::string out;
  std::string err;
};

// How to start the CLI: through a launcher (its command line before the CLI's path, e.g. mpirun and its
// options; found on PATH), and with extra environment variables ("NAME=value").
struct CliLaunch {
  std::vector<std::string> launcher;
  std::vector<std::string> env;
};

// Runs the CLI with `args` in the folder `cwd` and waits for it.
CliResult run_cli(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                  const CliLaunch& launch = {});

// A CLI process running in the background (for Ctrl-C tests): stdout and stderr go to files in `cwd`.
class CliProcess {
 public:
  CliProcess(const std::vector<std::string>& args, const std::filesystem::path& cwd, const CliLaunch& launch = {});
  pid_t pid() const { return pid_; }
  ~CliProcess();  // kills the process if it still runs
  CliProcess(const CliProcess&) = delete;
  CliProcess& operator=(const CliProcess&) = delete;

  std::string out() const;
  std::string err() const;
  void signal(int sig);
  CliResult wait();

 private:
  pid_t pid_ = -1;
  std::filesystem::path out_path_, err_path_;
};

// A request the CLI must refuse: runs it in `cwd` and expects `exit_code` and `message` in stderr (gtest
// expectations, traced with the command line).
void expect_refused(const std::vector<std::string>& args, int exit_code, const std::string& message,
                    const std::filesystem::path& cwd);

std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& bytes);

// Whether the CLI compiles users' kernels (a build without the CUDA toolkit has no NVRTC): KS_REQUIRE_CLI_NVRTC.
bool cli_has_nvrtc();

}  // namespace ks::test

#define KS_REQUIRE_CLI_NVRTC()                                                   \
  do {                                                                           \
    if (!::ks::test::cli_has_nvrtc()) GTEST_SKIP() << "this build has no NVRTC"; \
  } while (0)
