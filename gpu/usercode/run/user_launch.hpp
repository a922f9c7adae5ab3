#pragma once
// What every run of a user's kernel takes besides its inputs, and the checks common to every family: the block
// must fit the device's limits and what the compiler allowed this kernel (its registers, its launch bounds).
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "usercode/run/launch_plan.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::usercode {

struct UserLaunchOptions {
  std::vector<double> params;        // the declared parameters' values, in declaration order (user_params.hpp)
  std::array<unsigned, 2> block{0, 0};  // x, y; 0: the family's default (32x8 for images, 256 for arrays)
  int warmup = 1;
  int repeat = 5;
  bool checked = false;              // compiled with -DKS_CHECKED; the reply carries the check record
  // Also the hardware counters of one more launch after the timed ones (LaunchPlan::counters): the reply's
  // `counters`, named as the kernel is (name_counters).
  bool counters = false;
  CounterSet counter_set = CounterSet::All;
  std::function<bool()> cancelled;  // asked while the run goes on: true stops it (the app's Cancel, its closing)
  // Names the input's content (the app: its image's generation): the worker keeps such an input on the GPU
  // between runs and skips its upload and its copy into shared memory. Empty: always sent.
  std::string input_key;
};

// Usage Error when `block` cannot run this kernel: a side of 0, more than 1024 threads, or more than the
// compiler allows it (its registers per thread or its __launch_bounds__), with the limit and why.
void check_user_block(const CompiledKernel& kernel, std::array<unsigned, 2> block);

inline LaunchArgument buffer_argument(int buffer) {
  LaunchArgument a;
  a.kind = ArgumentKind::Buffer;
  a.buffer = buffer;
  return a;
}
inline LaunchArgument int_argument(int value) {
  LaunchArgument a;
  a.kind = ArgumentKind::Int32;
  a.integer = value;
  return a;
}
inline LaunchArgument image_argument(ArgumentKind kind, int buffer, const ImageArgument& image) {
  LaunchArgument a;
  a.kind = kind;
  a.buffer = buffer;
  a.image = image;
  return a;
}

// The counters the worker read, named by the entry as the user wrote it ("smooth", not its mangled name).
void name_counters(WorkerReply& reply, const CompiledKernel& kernel);

// The plan's module part: the CUBIN at offset 0 of the shared memory, keyed by its hash.
void place_module(LaunchPlan& plan, const CompiledModule& module);
// Appends the declared parameters' arguments (int or float, as declared).
void add_declared_arguments(LaunchPlan& plan, const KernelDeclarations& declarations,
                            const std::vector<double>& values);

}  // namespace ks::usercode
