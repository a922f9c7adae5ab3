#include "cli/cli_runner.hpp"

#include "support/test_support.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace ks::test {

namespace {

// fork + exec instead of system(): no shell quoting, and the child starts with default signal handling (a
// shell would start a background job with SIGINT ignored).
pid_t spawn(const std::vector<std::string>& args, const std::filesystem::path& cwd,
            const std::filesystem::path& out, const std::filesystem::path& err, const CliLaunch& launch) {
  std::vector<std::string> argv_storage = launch.launcher;
  argv_storage.push_back(KS_CLI_PATH);
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int in = open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || in < 0 || chdir(cwd.c_str()) != 0) _exit(126);
    dup2(in, 0);
    dup2(o, 1);
    dup2(e, 2);
    signal(SIGINT, SIG_DFL);
    for (const std::string& e : launch.env) putenv(const_cast<char*>(e.c_str()));
    execvp(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

std::string read_file(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
}

CliResult run_cli(const std::vector<std::string>& args, const std::filesystem::path& cwd, const CliLaunch& launch) {
  CliProcess p(args, cwd, launch);
  return p.wait();
}

CliProcess::CliProcess(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                       const CliLaunch& launch) {
  // The capture files live beside the work folder's other files but under names no test uses.
  std::random_device rd;
  const std::string tag = std::to_string(getpid()) + "-" + std::to_string(rd());
  out_path_ = cwd / (".cli-stdout-" + tag);
  err_path_ = cwd / (".cli-stderr-" + tag);
  pid_ = spawn(args, cwd, out_path_, err_path_, launch);
}

CliProcess::~CliProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    wait_for(pid_);
  }
  std::error_code ec;
  std::filesystem::remove(out_path_, ec);
  std::filesystem::remove(err_path_, ec);
}

std::string CliProcess::out() const {
  return read_file(out_path_);
}
std::string CliProcess::err() const {
  return read_file(err_path_);
}
void CliProcess::signal(int sig) {
  kill(pid_, sig);
}

CliResult CliProcess::wait() {
  CliResult r;
  r.exit_code = wait_for(pid_);
  pid_ = -1;
  r.out = out();
  r.err = err();
  return r;
}

void expect_refused(const std::vector<std::string>& args, int exit_code, const std::string& message,
                    const std::filesystem::path& cwd) {
  std::string cmd;
  for (const auto& a : args) cmd += a + " ";
  SCOPED_TRACE(cmd);
  const CliResult r = run_cli(args, cwd);
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
}

bool cli_has_nvrtc() {
  TempDir dir;
  write_file(dir / "probe.cu", "__global__ void k() {}\n");
  return run_cli({"compile", "probe.cu"}, dir.path()).err.find("needs NVRTC") == std::string::npos;
}

}  // namespace ks::test
