#pragma once
// An X server of our own for the GUI tests: Xvfb on a display number it picks itself (-displayfd), so tests that
// run in parallel never race for one, stopped when the object goes. Mesa's GLX on it draws with llvmpipe.
#include <sys/types.h>

#include <string>

namespace ks::test {

class XvfbServer {
 public:
  // Why no server can be started here (Xvfb is not installed), or empty. Tests skip on it.
  static std::string unavailable_reason();

  // Starts Xvfb with one screen of width x height x 24 and waits until it accepts clients. Throws
  // std::runtime_error saying what went wrong.
  XvfbServer(int width, int height);
  ~XvfbServer();  // SIGTERM, then waits for it
  XvfbServer(const XvfbServer&) = delete;
  XvfbServer& operator=(const XvfbServer&) = delete;

  const std::string& display() const noexcept { return display_; }  // ":N", for DISPLAY

 private:
  pid_t pid_ = -1;
  std::string display_;
};

}  // namespace ks::test
