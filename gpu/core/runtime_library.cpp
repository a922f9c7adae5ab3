#include "core/runtime_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include "core/error.hpp"

namespace ks {

RuntimeLibrary::RuntimeLibrary(const std::vector<std::string>& candidates, const std::string& what,
                               const std::string& hint, bool stays_mapped)
    : what_(what), hint_(hint) {
  std::vector<std::string> reasons;
  for (const auto& candidate : candidates) {
    // RTLD_LOCAL: the library's symbols stay out of the global scope (a Python process may load another copy).
    handle_ = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | (stays_mapped ? RTLD_NODELETE : 0));
    if (handle_) {
      path_ = candidate;
      return;
    }
    const char* reason = dlerror();
    reasons.push_back(reason ? reason : candidate + ": not found");
  }
  throw Error(ErrorKind::Device, fmt::format("{} could not be loaded ({})", what, fmt::join(reasons, "; ")), hint);
}

RuntimeLibrary::~RuntimeLibrary() {
  if (handle_) dlclose(handle_);
}

void* RuntimeLibrary::symbol(const char* name) const {
  dlerror();  // clears an earlier error, so that the one read below is this lookup's
  void* address = dlsym(handle_, name);
  if (!address)
    throw Error(ErrorKind::Device, fmt::format("{} ({}) has no function {}: is it another major version?", what_,
                                               path_, name),
                hint_);
  return address;
}

std::vector<std::string> toolkit_library_candidates(const std::string& soname, const std::string& toolkit_dir) {
  std::vector<std::string> candidates = {soname};
  if (!toolkit_dir.empty()) candidates.push_back(toolkit_dir + "/" + soname);
  return candidates;
}

}  // namespace ks
