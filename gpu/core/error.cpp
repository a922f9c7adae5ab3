#include "core/error.hpp"

namespace ks {

std::string Error::full_message() const {
  if (hint_.empty()) return what();
  return std::string(what()) + ". " + hint_;
}

void throw_usage(const std::string& what, std::string hint) {
  throw Error(ErrorKind::Usage, what, std::move(hint));
}

void throw_io(const std::string& what, std::string hint) { throw Error(ErrorKind::Io, what, std::move(hint)); }

int exit_code_for(ErrorKind kind) noexcept { return kind == ErrorKind::Usage ? 2 : 1; }

}  // namespace ks
