#pragma once
// One error type for the whole project. Every message says what failed; `hint` says what to do about it.
// The kind decides the CLI's exit code (Usage -> 2, everything else -> 1) and lets the GUI word its dialog.
#include <stdexcept>
#include <string>

namespace ks {

enum class ErrorKind {
  Usage,        // the request itself is wrong: unknown kernel/parameter, value out of range, invalid block
  Io,           // a file could not be read or written, or its content is corrupt/unsupported
  Device,       // no CUDA device, CUDA call failed, launch failed
  OutOfMemory,  // host or device allocation failed
  Cancelled,    // the user stopped long work
  Internal,     // a bug: an invariant of ours did not hold
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& what, std::string hint = {})
      : std::runtime_error(what), kind_(kind), hint_(std::move(hint)) {}

  ErrorKind kind() const noexcept { return kind_; }
  const std::string& hint() const noexcept { return hint_; }
  // "what. hint" — the form printed by the CLI and shown by the GUI.
  std::string full_message() const;

 private:
  ErrorKind kind_;
  std::string hint_;
};

[[noreturn]] void throw_usage(const std::string& what, std::string hint = {});
[[noreturn]] void throw_io(const std::string& what, std::string hint = {});

// Exit code of the CLI for an error of this kind.
int exit_code_for(ErrorKind kind) noexcept;

}  // namespace ks
