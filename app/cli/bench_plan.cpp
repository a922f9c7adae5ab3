#include "cli/bench_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "registry/registry.hpp"

namespace ks::cli {

std::string BenchCase::label() const {
  std::string s = fmt::format("{} {} {} {}ch {}", spec->id, to_string(type), size, channels, variant);
  if (block) {
    s += ' ';
    s += to_string(*block);
  }
  return s;
}

double BenchCase::work(int runs) const {
  return double(size) * size * channels * std::max(runs, 1);
}

namespace {

void check_config(const BenchConfig& c) {
  auto require = [](bool ok, const char* what, const char* hint) {
    if (!ok) throw_usage(what, hint);
  };
  require(!c.kernels.empty(), "no kernels to benchmark", "give --kernels box,gaussian,...");
  require(!c.sizes.empty(), "no image sizes to benchmark", "give --sizes 256,1024,...");
  require(!c.types.empty(), "no element types to benchmark", "give --types u8,f32");
  require(!c.channels.empty(), "no channel counts to benchmark", "give --channels 1 or 1,4");
  require(!c.backends.empty(), "no backends to benchmark", "give --backends cpu,cuda");
  for (int s : c.sizes)
    if (s < 1 || s > 65536)
      throw_usage(fmt::format("image size {} is out of range", s), "allowed: 1 .. 65536");
  for (ElemType t : c.types)
    if (t != ElemType::U8 && t != ElemType::F32)
      throw_usage(fmt::format("element type {} cannot be benchmarked", to_string(t)), "use u8 or f32");
  if (std::find(c.backends.begin(), c.backends.end(), Backend::Cuda) != c.backends.end() && c.blocks.empty())
    throw_usage("no block shapes for the CUDA backend", "give --blocks 16x16,32x8");
}

// Each kernel's parameters: the defaults, then every assignment naming one of its parameters. An assignment
// that names a parameter of no selected kernel is a typo, not something to ignore.
std::vector<ParamSet> kernel_params(const std::vector<const KernelSpec*>& specs,
                                    const std::vector<std::string>& assignments) {
  std::vector<ParamSet> sets;
  for (const KernelSpec* spec : specs) sets.push_back(spec->default_params());
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0)
      throw_usage(fmt::format("'{}' is not NAME=VALUE", a), "write e.g. --param radius=2");
    const std::string name = a.substr(0, eq);
    bool used = false;
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const auto& ps = specs[i]->params;
      if (std::none_of(ps.begin(), ps.end(), [&](const ParamSpec& p) { return p.name == name; })) continue;
      try {
        sets[i].set_assignment(a);
      } catch (const Error& e) {
        throw Error(e.kind(), fmt::format("{} (kernel '{}')", e.what(), specs[i]->id), e.hint());
      }
      used = true;
    }
    if (!used)
      throw_usage(fmt::format("no selected kernel has a parameter '{}'", name), "see `kernelscope-cli list`");
  }
  return sets;
}

}  // namespace

std::vector<BenchCase> plan_bench(const BenchConfig& c) {
  check_config(c);
  const KernelRegistry& registry = KernelRegistry::builtin();
  std::vector<const KernelSpec*> specs;
  for (const auto& id : c.kernels) {
    const KernelSpec& spec = registry.get(id);
    if (spec.category != "stencil")
      throw_usage(fmt::format("'{}' is not an image stencil kernel", id), "bench sweeps stencil kernels");
    if (std::find(specs.begin(), specs.end(), &spec) == specs.end()) specs.push_back(&spec);
  }
  const std::vector<ParamSet> params = kernel_params(specs, c.params);
  for (int ch : c.channels)
    if (std::none_of(specs.begin(), specs.end(), [&](const KernelSpec* s) { return s->takes_channels(ch); }))
      throw_usage(fmt::format("no selected kernel takes {}-channel images", ch),
                  "stencil kernels take 1 or 4");

  // Size outermost: one random image per (size, type, channels) serves every kernel and variant after it.
  std::vector<BenchCase> cases;
  for (int size : c.sizes)
    for (ElemType type : c.types)
      for (int ch : c.channels)
        for (std::size_t k = 0; k < specs.size(); ++k) {
          const KernelSpec& spec = *specs[k];
          if (!spec.takes(type) || !spec.takes_channels(ch)) continue;
          for (Backend backend : c.backends)
            for (const VariantSpec& v : spec.variants) {
              if (v.backend != backend) continue;
              // Variants that cannot run these parameters (separable for a non-separable matrix) are not
              // cases.
              if (spec.unavailable_reason && spec.unavailable_reason(v.name, params[k])) continue;
              BenchCase bc{&spec, params[k], size, type, ch, backend, v.name, std::nullopt};
              if (backend == Backend::Cpu) {
                cases.push_back(bc);
                continue;
              }
              for (const BlockShape& b : c.blocks) {
                bc.block = b;
                cases.push_back(bc);
              }
            }
        }
  if (cases.empty())
    throw_usage("nothing to benchmark: no selected kernel takes these types and channel counts",
                "see `kernelscope-cli list` for what each kernel takes");
  return cases;
}

}  // namespace ks::cli
