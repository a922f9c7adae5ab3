#include "cli/bench_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "lab/lab_kernel.hpp"
#include "registry/registry.hpp"

namespace ks::cli {

std::string BenchCase::label() const {
  std::string s = lab_size ? fmt::format("{} {} {}", spec->id,
                                         lab_size->form == lab::SizeForm::Elements ? lab::short_text(lab_size->n())
                                                                                   : lab::to_string(*lab_size),
                                         variant)
                           : fmt::format("{} {} {} {}ch {}", spec->id, to_string(type), size, channels, variant);
  if (block) {
    s += ' ';
    s += to_string(*block);
  }
  return s;
}

double BenchCase::work(int runs) const {
  const double elements = lab_size ? double(lab_size->elements()) : double(size) * size * channels;
  return elements * std::max(runs, 1);
}

namespace {

void check_config(const BenchConfig& c) {
  auto require = [](bool ok, const char* what, const char* hint) {
    if (!ok) throw_usage(what, hint);
  };
  require(!c.kernels.empty(), "no kernels to benchmark", "give --kernels box,gaussian,...");
  require(!c.types.empty(), "no element types to benchmark", "give --types u8,f32");
  require(!c.channels.empty(), "no channel counts to benchmark", "give --channels 1 or 1,4");
  require(!c.backends.empty(), "no backends to benchmark", "give --backends cpu,cuda");
  for (ElemType t : c.types)
    if (t != ElemType::U8 && t != ElemType::F32)
      throw_usage(fmt::format("element type {} cannot be benchmarked", to_string(t)), "use u8 or f32");
  if (std::find(c.backends.begin(), c.backends.end(), Backend::Cuda) != c.backends.end() && c.blocks.empty())
    throw_usage("no block shapes for the CUDA backend", "give --blocks 16x16,32x8");
}

// Whether --variants lets `variant` run (every variant when it names none).
bool selected(const BenchConfig& c, const std::string& variant) {
  return c.variants.empty() || std::find(c.variants.begin(), c.variants.end(), variant) != c.variants.end();
}

// Every variant --variants names must be one of a selected kernel's: a typo would otherwise bench nothing of it.
void check_variants(const BenchConfig& c, const std::vector<const KernelSpec*>& specs) {
  for (const std::string& name : c.variants) {
    if (std::any_of(specs.begin(), specs.end(), [&](const KernelSpec* k) { return k->find_variant(name); }))
      continue;
    std::set<std::string> names;
    for (const KernelSpec* k : specs)
      for (const VariantSpec& v : k->variants) names.insert(v.name);
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    throw_usage(fmt::format("no selected kernel has a variant '{}'", name), "their variants are: " + known);
  }
}

// A stencil's image side: "1024" or "2^10", 1 .. 65536.
int image_side(const std::string& text) {
  const std::int64_t s = lab::parse_count(text);
  if (s > 65536) throw_usage(fmt::format("image size {} is out of range", text), "allowed: 1 .. 65536");
  return int(s);
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

namespace {

void add_lab_cases(const KernelSpec& spec, const ParamSet& params, const BenchConfig& c,
                   std::vector<BenchCase>& cases) {
  const lab::LabInfo& info = spec.lab->info();
  if (info.form == lab::SizeForm::Image)
    throw_usage(fmt::format("{} works on an image; bench sweeps sizes", spec.id),
                fmt::format("run it with `kernelscope-cli lab {} -i IMAGE`", spec.id));
  std::vector<lab::LabSize> sizes;
  for (const auto& text : c.sizes) sizes.push_back(lab::parse_lab_size(text, info.form, spec.id));
  if (sizes.empty()) sizes = c.cuda ? info.bench_sizes_cuda : info.bench_sizes_cpu;
  for (const auto& size : sizes) lab::check_size(size, info.form, info.limits, spec.id);
  const auto& blocks = c.lab_blocks.empty() ? info.bench_blocks : c.lab_blocks;
  for (const auto& size : sizes)
    for (Backend backend : c.backends)
      for (const VariantSpec& v : spec.variants) {
        if (v.backend != backend || !selected(c, v.name)) continue;
        BenchCase bc{&spec, params, int(std::min<std::int64_t>(size.elements(), 1 << 30)), ElemType::F32, 0,
                     backend, v.name, std::nullopt, size};
        if (backend == Backend::Cpu) {
          cases.push_back(bc);
          continue;
        }
        for (const BlockShape& b : blocks.empty() ? std::vector<BlockShape>{info.default_block} : blocks) {
          bc.block = b;
          cases.push_back(bc);
        }
      }
}

}  // namespace

std::vector<BenchCase> plan_bench(const BenchConfig& c) {
  check_config(c);
  const KernelRegistry& registry = KernelRegistry::builtin();
  std::vector<const KernelSpec*> specs;
  for (const auto& id : c.kernels) {
    const KernelSpec& spec = registry.get(id);
    if (spec.category != "stencil" && !spec.lab)
      throw_usage(fmt::format("'{}' is a {} kernel", id, spec.category), "bench sweeps stencil and lab kernels");
    if (std::find(specs.begin(), specs.end(), &spec) == specs.end()) specs.push_back(&spec);
  }
  check_variants(c, specs);
  const std::vector<ParamSet> params = kernel_params(specs, c.params);
  std::vector<BenchCase> cases;
  for (std::size_t k = 0; k < specs.size(); ++k)
    if (specs[k]->lab) add_lab_cases(*specs[k], params[k], c, cases);

  std::vector<std::size_t> stencils;
  for (std::size_t k = 0; k < specs.size(); ++k)
    if (!specs[k]->lab) stencils.push_back(k);
  if (stencils.empty()) return cases;
  std::vector<int> sizes;
  for (const auto& text : c.sizes) sizes.push_back(image_side(text));
  if (sizes.empty()) sizes = c.cuda ? std::vector<int>{1024, 4096, 8192} : std::vector<int>{512, 1024};
  for (int ch : c.channels)
    if (std::none_of(stencils.begin(), stencils.end(), [&](std::size_t k) { return specs[k]->takes_channels(ch); }))
      throw_usage(fmt::format("no selected kernel takes {}-channel images", ch), "stencil kernels take 1 or 4");

  // Size outermost: one random image per (size, type, channels) serves every kernel and variant after it.
  const std::size_t lab_cases = cases.size();
  for (int size : sizes)
    for (ElemType type : c.types)
      for (int ch : c.channels)
        for (std::size_t k : stencils) {
          const KernelSpec& spec = *specs[k];
          if (!spec.takes(type) || !spec.takes_channels(ch)) continue;
          for (Backend backend : c.backends)
            for (const VariantSpec& v : spec.variants) {
              if (v.backend != backend || !selected(c, v.name)) continue;
              // Variants that cannot run these parameters (separable for a non-separable matrix) are not
              // cases.
              if (spec.unavailable_reason && spec.unavailable_reason(v.name, params[k])) continue;
              BenchCase bc{&spec, params[k], size, type, ch, backend, v.name, std::nullopt, std::nullopt};
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
  if (cases.size() == lab_cases)
    throw_usage("nothing to benchmark: no selected kernel takes these types and channel counts",
                "see `kernelscope-cli list` for what each kernel takes");
  return cases;
}

}  // namespace ks::cli
