#include "usercode/run/child_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

[[noreturn]] void cannot_start(const std::string& executable, int err) {
  throw Error(ErrorKind::Device, fmt::format("cannot start the worker process {}: {}", executable, std::strerror(err)),
              "reinstall kernelscope, or set KS_WORKER to the path of kernelscope-cli");
}

}  // namespace

ChildProcess::ChildProcess(const std::string& executable, const std::vector<std::string>& arguments) {
  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) cannot_start(executable, errno);
  // A pipe that exec closes: the child writes errno into it when exec fails, so the parent knows at once.
  int exec_report[2];
  if (::pipe2(exec_report, O_CLOEXEC) != 0) {
    const int err = errno;
    ::close(sockets[0]);
    ::close(sockets[1]);
    cannot_start(executable, err);
  }
  // argv is built before fork: the child of a threaded process may only make async-signal-safe calls.
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(executable.c_str()));
  for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();

  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);  // its own group: kill() reaches whatever it started too
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl
    ::dup2(sockets[1], STDIN_FILENO);
    ::dup2(sockets[1], STDOUT_FILENO);
    ::execv(executable.c_str(), argv.data());
    const int err = errno;
    [[maybe_unused]] const auto written = ::write(exec_report[1], &err, sizeof err);
    ::_exit(127);
  }
  const int fork_errno = errno;
  ::close(sockets[1]);
  ::close(exec_report[1]);
  if (pid < 0) {
    ::close(sockets[0]);
    ::close(exec_report[0]);
    cannot_start(executable, fork_errno);
  }
  int exec_errno = 0;
  ssize_t got;
  do got = ::read(exec_report[0], &exec_errno, sizeof exec_errno);
  while (got < 0 && errno == EINTR);
  ::close(exec_report[0]);
  pid_ = pid;
  socket_ = sockets[0];
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    kill();
    ::close(socket_);
    socket_ = -1;
    cannot_start(executable, exec_errno);
  }
}

ChildProcess::~ChildProcess() {
  kill();
  if (socket_ >= 0) ::close(socket_);
}

bool ChildProcess::send_line(const std::string& line) {
  const std::string data = line + "\n";
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(socket_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

ChildProcess::Read ChildProcess::read_line(std::string& line, std::chrono::milliseconds timeout,
                                           const std::function<bool()>& cancelled) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (const auto nl = pending_.find('\n'); nl != std::string::npos) {
      line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return Read::Line;
    }
    if (cancelled && cancelled()) return Read::Cancelled;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Read::TimedOut;
    pollfd p{socket_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, cancelled ? 50 : left)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return Read::Ended;
    }
    if (ready == 0) continue;
    char buffer[65536];
    const ssize_t n = ::recv(socket_, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      settle();
      return Read::Ended;
    }
    pending_.append(buffer, static_cast<std::size_t>(n));
  }
}

void ChildProcess::settle() {
  // A child that closed its socket is exiting: give it a moment to say how, then make sure it has gone.
  for (int i = 0; i < 200 && !reaped_; ++i) {
    reap(false);
    if (!reaped_) ::usleep(10000);
  }
  kill();
}

void ChildProcess::kill() {
  if (pid_ > 0 && !reaped_) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);  // in case it had not yet made its group
    reap(true);
  }
}

void ChildProcess::reap(bool block) {
  if (reaped_ || pid_ <= 0) return;
  int status = 0;
  pid_t r;
  do r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == pid_) {
    reaped_ = true;
    status_ = status;
  }
}

std::string ChildProcess::how_it_ended() {
  reap(true);
  if (WIFEXITED(status_)) return fmt::format("exited with status {}", WEXITSTATUS(status_));
  if (WIFSIGNALED(status_))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status_), ::strsignal(WTERMSIG(status_)));
  return "ended";
}

}  // namespace ks::usercode
