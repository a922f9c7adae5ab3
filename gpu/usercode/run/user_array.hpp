#pragma once
// Runs a user's `array` kernel through the worker: its inputs (as many `const T*` as the entry takes, n elements
// each), its output (n elements, or one for `// @output scalar`, set to zero before every launch), n, the declared
// parameters; a 1-D grid of ceil(n / block) blocks.
#include <cstddef>
#include <span>
#include <vector>

#include "core/dtype.hpp"
#include "usercode/run/user_launch.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks::usercode {

// The C++ name of an element type an array kernel may take: "float", "double", "int", "unsigned int".
const char* c_type_name(DType t) noexcept;

struct ArrayForm {
  DType element = DType::F32;  // F32, F64, I32 or U32
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
