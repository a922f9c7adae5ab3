#pragma once
// Runs a user's `stencil` kernel on an image through the worker: the input and output images (accessor or raw
// signature, as the entry takes them), a 2-D grid over the image, the declared parameters, warm-up and timed
// launches. The output comes back as an image of the input's shape.
#include "core/image.hpp"
#include "usercode/run/user_launch.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks::usercode {

// How a stencil entry takes its images.
struct StencilForm {
  bool accessors = true;  // ks::InImage<T> / ks::OutImage<T>; false: raw pointers, width, height, channels, pitch
  ElemType type = ElemType::F32;
};
// Usage Error when the kernel is not a stencil.
StencilForm stencil_form(const CompiledKernel& kernel);

struct UserStencilRun {
  // Empty unless reply.outcome is Ok. It borrows the worker client's result block (WorkerClient::result_block),
  // which it keeps alive: a copy of it owns its pixels.
  Image output;
  WorkerReply reply;
  std::array<unsigned, 2> block{};
  std::array<unsigned, 2> grid{};
};

// `border` is the prelude's ks::Border (the built-ins' order: replicate, reflect, reflect101, wrap, constant).
// Usage Error (nothing runs) for an input whose type is not the kernel's or whose channels are not 1 or 4, or a
// block the kernel cannot run.
UserStencilRun run_user_stencil(WorkerClient& worker, const CompiledKernel& kernel, const Image& input, int border,
                                double constant_value, const UserLaunchOptions& options);

}  // namespace ks::usercode
