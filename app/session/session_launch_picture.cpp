// The launch picture: the geometry of the current (or modelled) CUDA launch, the device it is pictured on,
// and the occupancy there. A device model's occupancy is the published limits' arithmetic on the register
// counts recorded from the build (stencil/stencil_kernel_resources.hpp): there is no GPU to ask.
#include <fmt/format.h>

#include "core/device_models.hpp"
#include "core/occupancy_model.hpp"
#include "session/session.hpp"
#include "sim/sim_geometry.hpp"
#include "sim/sim_kernel_resources.hpp"
#include "stencil/stencil_geometry.hpp"
#include "stencil/stencil_kernel_resources.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::app {

namespace {

// The size of what the viewport shows: the image a stencil reads, or the simulation's grid.
ImageShape shown_shape(const ui::DisplayFrame& f) {
  if (f.output_placement) return ui::shown_image_shape(f);  // a window of a world larger than any image
  if (f.output) return f.output->shape();
  if (f.output_device.data) return f.output_device.shape;
  if (f.input) return f.input->shape();
  return {};
}

OccupancyReport model_occupancy(const DeviceInfo& model, const KernelResources& k, int threads) {
  const OccupancyLimits limits = occupancy_limits(model, {threads, k.registers_per_thread, k.shared_bytes});
  OccupancyReport r;
  r.kernel_name = k.kernel_name;
  r.block_threads = threads;
  r.registers_per_thread = k.registers_per_thread;
  r.dynamic_shared_bytes = k.shared_bytes;
  r.active_blocks_per_sm = limits.active_blocks;
  r.occupancy = limits.occupancy;
  r.limiter = limits.limiter;
  return r;
}

}  // namespace

void Session::set_device_model(const std::string& id) {
  device_model_ =
      id.empty() ? std::string() : ks::device_model(id).id;  // device_model throws for unknown ids
}

std::string Session::modelled_variant() const {
  if (!modelled_variant_.empty() && choice_.kernel->find_variant(modelled_variant_)) return modelled_variant_;
  if (choice_.kernel->find_variant("tiled")) return "tiled";
  return "naive";
}

void Session::set_modelled_variant(const std::string& name) {
  const VariantSpec* v = choice_.kernel->find_variant(name);
  if (!v || v->backend != Backend::Cuda)
    throw_usage(fmt::format("'{}' is not a CUDA variant of {}", name, choice_.kernel->id), "e.g. naive or tiled");
  modelled_variant_ = name;
}

LaunchPicture Session::launch_picture() const {
  LaunchPicture p;
  if (in_lab()) {
    p.why_not = "lab kernels: the Lab section shows each run's launch arithmetic";
    return p;
  }
  const bool on_gpu = choice_.backend == Backend::Cuda;
  const DeviceModel* model = device_model_.empty() ? nullptr : &ks::device_model(device_model_);
  if (!on_gpu && !model) {
    p.why_not = device_.cuda ? "the CPU backend has no blocks: choose the CUDA backend, or a device model"
                             : "no GPU here: choose a device model to see how a GPU would run it";
    return p;
  }
  p.variant = on_gpu ? effective_variant() : modelled_variant();
  p.model = model != nullptr;
  p.device_name = model ? model->limits.name : device_.info.name;
  const ImageShape shape = shown_shape(display_frame());
  if (shape.width < 1 || shape.height < 1) {
    p.why_not = "nothing to draw on yet";
    return p;
  }
  const BlockShape block = effective_block();
  const int channels = input() ? input()->channels() : 1;
  std::optional<StencilPlan> plan;
  try {
    if (simulating()) {
      SimGeometry g = sim_geometry(choice_.kernel->id, p.variant, shape.width, shape.height, block);
      p.geometry = std::move(g.geometry);
      p.why_not = std::move(g.why_not);
    } else {
      plan = make_stencil_plan(choice_.kernel->id, choice_.params);
      StencilGeometry g = stencil_geometry(*plan, p.variant, shape.width, shape.height, block, element_type(),
                                            channels);
      p.geometry = std::move(g.geometry);
      p.why_not = std::move(g.why_not);
    }
  } catch (const Error& e) {
    p.why_not = e.full_message();
    return p;
  }

  if (!model) {  // the GPU's own figures
    p.occupancy = launch_info_.occupancy;
    if (!p.occupancy) p.occupancy_note = launch_info_.problem;
    return p;
  }
  std::optional<KernelResources> k;
  if (plan && p.geometry)
    k = stencil_kernel_resources(*plan, p.variant, element_type(), channels, *p.geometry);
  else if (p.geometry)
    k = sim_kernel_resources(choice_.kernel->id, p.variant, *p.geometry);
  if (!k) {
    p.occupancy_note =
        "no register counts are recorded for this kernel and variant: its occupancy needs a GPU";
    return p;
  }
  const std::string problem = block_problem(model->limits, block.x, block.y,
                                            {block.threads(), k->registers_per_thread, k->shared_bytes});
  if (!problem.empty()) {
    p.occupancy_note = model->limits.name + " cannot launch this block: " + problem;
    return p;
  }
  p.occupancy = model_occupancy(model->limits, *k, block.threads());
  p.occupancy_note = kernel_resources_source();
  return p;
}

}  // namespace ks::app
