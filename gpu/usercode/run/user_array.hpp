#pragma once
// Runs a user's `array` kernel through the worker: its inputs (as many `const T*` as the entry takes, n elements
// each), its output (n elements, or one for `// @output scalar`, set to zero before every launch), n, the declared
// parameters; a 1-D grid of ceil(n / block) blocks.
#include <cstddef>
#include <span>
#include <vector>

#include "usercode/run/user_launch.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks::usercode {

enum class ArrayElement { F32, F64, I32, U32 };
std::size_t element_bytes(ArrayElement e) noexcept;
const char* to_string(ArrayElement e) noexcept;  // "float", "double", "int", "unsigned int"

struct ArrayForm {
  ArrayElement element = ArrayElement::F32;
  int inputs = 1;
  bool scalar_output = false;
};
// Usage Error when the kernel is not of the array family.
ArrayForm array_form(const CompiledKernel& kernel);

struct UserArrayRun {
  std::vector<std::byte> output;  // n elements, or 1 for a scalar; empty unless reply.outcome is Ok
  WorkerReply reply;
  unsigned block = 0;
  unsigned grid = 0;
};

// `inputs`: one span of n elements of the kernel's element type per input it takes (Usage Error otherwise).
UserArrayRun run_user_array(WorkerClient& worker, const CompiledKernel& kernel,
                            const std::vector<std::span<const std::byte>>& inputs, std::size_t n,
                            const UserLaunchOptions& options);

}  // namespace ks::usercode
