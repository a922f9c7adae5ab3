#pragma once
// Runs a function on a thread of its own with a large stack, and waits for it. NVRTC compiles in the calling
// thread, and its front end recurses deeply on some errors: under a caller whose stack is already deep (Python's
// interpreter under pytest) the default stack ran out and the process died with SIGSEGV (docs/PERF.md, "Python on
// the GPU machine"). An exception thrown by `work` is rethrown in the caller.
#include <cstddef>
#include <functional>

namespace ks::usercode {

inline constexpr std::size_t kCompileStackBytes = std::size_t(256) << 20;  // address space, touched as needed

void run_with_large_stack(const std::function<void()>& work, std::size_t stack_bytes = kCompileStackBytes);

}  // namespace ks::usercode
