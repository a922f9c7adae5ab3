#include "xvfb_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>
#include <string>
#include <vector>

#include "app_process.hpp"

namespace ks::test {

namespace {

constexpr int kStartTimeoutMs = 20000;

}  // namespace

std::string XvfbServer::unavailable_reason() {
  if (find_program("Xvfb").empty()) return "Xvfb is not installed (Debian: apt-get install xvfb)";
  return {};
}

XvfbServer::XvfbServer(int width, int height) {
  const std::string xvfb = find_program("Xvfb").string();
  if (xvfb.empty()) throw std::runtime_error(unavailable_reason());
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const std::string screen = std::to_string(width) + "x" + std::to_string(height) + "x24";
  const std::string fd_arg = std::to_string(fds[1]);
  std::vector<std::string> args{xvfb, "-displayfd", fd_arg, "-screen", "0", screen, "-nolisten", "tcp", "-noreset"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    close(fds[0]);
    const int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);  // Xvfb's warnings about missing fonts and xkb are noise here
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  // Xvfb writes the display number and a newline to the pipe once it accepts connections.
  std::string number;
  pollfd p{fds[0], POLLIN, 0};
  while (number.find('\n') == std::string::npos && poll(&p, 1, kStartTimeoutMs) > 0) {
    char buffer[16];
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n <= 0) break;
    number.append(buffer, std::size_t(n));
  }
  close(fds[0]);
  if (number.find('\n') == std::string::npos) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
    throw std::runtime_error("Xvfb did not start within " + std::to_string(kStartTimeoutMs / 1000) + " s");
  }
  display_ = number.substr(0, number.find('\n'));
  display_.insert(0, 1, ':');  // (not ":" + ...: GCC 12 warns falsely of an overlapping memcpy there)
}

XvfbServer::~XvfbServer() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  waitpid(pid_, nullptr, 0);
}

}  // namespace ks::test
