#include "usercode/run/user_stencil.hpp"

#include <fmt/format.h>

#include <cstring>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

std::uint64_t round_up(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

// The constant border of a u8 image as the built-in stencils read it (stencil_plan.hpp's contract: saturate_u8,
// rounded half up and saturated to 0..255, in float), so that a user's kernel and the built-in it is checked
// against read the same pixel outside the image. gpu/stencil is not among ks_usercode's dependencies, hence the
// few lines here.
double constant_u8(double value) {
  const float v = static_cast<float>(value);
  if (!(v > 0.f)) return 0;
  if (v >= 255.f) return 255;
  return static_cast<int>(v + 0.5f);
}

}  // namespace

StencilForm stencil_form(const CompiledKernel& kernel) {
  if (!kernel.family || *kernel.family != Family::Stencil)
    throw_usage("this kernel is not a stencil", "declare `// @family stencil` and take ks::InImage / ks::OutImage");
  const auto& types = kernel.entry_facts().parameter_types;
  const std::string first = types.empty() ? std::string() : types[0];
  StencilForm form;
  form.accessors = first.starts_with("ks::InImage<");
  form.type = first.find("unsigned char") != std::string::npos ? ElemType::U8 : ElemType::F32;
  return form;
}

UserStencilRun run_user_stencil(WorkerClient& worker, const CompiledKernel& kernel, const Image& input, int border,
                                double constant_value, const UserLaunchOptions& options) {
  const StencilForm form = stencil_form(kernel);
  if (input.type() != form.type)
    throw_usage(fmt::format("your kernel takes {} images; this image is {}", form.type == ElemType::U8 ? "u8" : "f32",
                            to_string(input.type())),
                fmt::format("run it with --type {}", form.type == ElemType::U8 ? "u8" : "f32"));
  if (input.channels() != 1 && input.channels() != 4)
    throw_usage(fmt::format("a stencil takes images of 1 or 4 channels; this one has {}", input.channels()));
  std::array<unsigned, 2> block = options.block;
  if (block[0] == 0) block = {32, 8};
  check_user_block(kernel, block);

  UserStencilRun run;
  run.block = block;
  run.grid = {(static_cast<unsigned>(input.width()) + block[0] - 1) / block[0],
              (static_cast<unsigned>(input.height()) + block[1] - 1) / block[1]};

  LaunchPlan plan;
  place_module(plan, *kernel.module);
  plan.entry = kernel.entry_facts().mangled_name;
  plan.grid = {run.grid[0], run.grid[1], 1};
  plan.block = {block[0], block[1], 1};
  plan.warmup = options.warmup;
  plan.timed = options.repeat;
  plan.checked = options.checked;
  plan.counters = options.counters;
  plan.counter_set = options.counter_set;
  const std::uint64_t image_bytes = input.shape().byte_size();
  const std::uint64_t in_offset = round_up(plan.module_bytes, 256);
  plan.buffers.push_back({image_bytes, in_offset, true, false, false, options.input_key});
  BufferPlan output{image_bytes, 0, false, true, false, ""};
  output.in_result_block = true;  // the result image reads it there (result_block)
  plan.buffers.push_back(output);

  ImageArgument image;
  image.width = input.width();
  image.height = input.height();
  image.channels = input.channels();
  image.pitch = input.width() * input.channels();
  image.element_bytes = static_cast<int>(elem_size(input.type()));
  image.border = border;
  image.constant_value = form.type == ElemType::U8 ? constant_u8(constant_value) : constant_value;
  if (form.accessors) {
    plan.arguments.push_back(image_argument(ArgumentKind::InImage, 0, image));
    plan.arguments.push_back(image_argument(ArgumentKind::OutImage, 1, image));
  } else {
    plan.arguments.push_back(buffer_argument(0));
    plan.arguments.push_back(buffer_argument(1));
    for (int v : {image.width, image.height, image.channels, image.pitch}) plan.arguments.push_back(int_argument(v));
  }
  add_declared_arguments(plan, kernel.declarations, options.params);

  SharedMemory& memory = worker.shared_memory(in_offset + image_bytes);
  const std::shared_ptr<SharedMemory> results = worker.result_block(image_bytes);
  std::memcpy(memory.bytes().data(), kernel.module->cubin.data(), kernel.module->cubin.size());
  if (!worker.shared_memory_holds(options.input_key, in_offset)) {
    std::memcpy(memory.bytes().data() + in_offset, input.data(), image_bytes);
    worker.mark_input(options.input_key, in_offset);
  }
  run.reply = worker.run(plan, memory, *results, options.cancelled);
  name_counters(run.reply, kernel);
  // The result is read where the worker wrote it, not copied: the image keeps the block, which no later run
  // writes while the image (or a copy of its shared_ptr) lives.
  if (run.reply.outcome == RunOutcome::Ok) run.output = Image::borrow(input.shape(), results->bytes().data(), results);
  return run;
}

}  // namespace ks::usercode
