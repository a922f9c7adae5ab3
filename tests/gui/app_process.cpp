#include "app_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace ks::test {

namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// This process's environment with `extra` laid over it (same names replaced).
std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
  std::map<std::string, std::string> vars;
  auto add = [&](const std::string& entry) {
    const std::size_t eq = entry.find('=');
    if (eq != std::string::npos) vars[entry.substr(0, eq)] = entry;
  };
  for (char** e = environ; *e; ++e) add(*e);
  for (const std::string& e : extra) add(e);
  std::vector<std::string> out;
  for (auto& [name, entry] : vars) out.push_back(entry);
  return out;
}

int status_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

std::string AppRun::describe() const {
  return "exit code " + std::to_string(exit_code) + (timed_out ? " (killed: time limit)" : "") + "\n--- stdout\n" +
         out + "--- stderr\n" + err;
}

std::filesystem::path find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

AppRun run_app(const AppLaunch& launch) {
  const std::filesystem::path out_path = launch.cwd / ".app-stdout", err_path = launch.cwd / ".app-stderr";
  std::vector<std::string> args{KS_APP_PATH};
  args.insert(args.end(), launch.args.begin(), launch.args.end());
  std::vector<std::string> env = merged_environment(launch.environment);
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  // fork + exec: no shell quoting, and the child's own process group, so a kill reaches whatever it starts.
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);
    const int o = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || in < 0 || chdir(launch.cwd.c_str()) != 0) _exit(126);
    dup2(in, 0);
    dup2(o, 1);
    dup2(e, 2);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }

  AppRun run;
  const auto deadline = std::chrono::steady_clock::now() + launch.time_limit;
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      run.timed_out = true;
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  run.exit_code = status_code(status);
  run.out = slurp(out_path);
  run.err = slurp(err_path);
  return run;
}

}  // namespace ks::test
