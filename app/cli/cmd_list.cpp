// `list`: every kernel of the registry, grouped by category, with what a user needs to call it: parameters
// (type, range, default, help), variants (which need CUDA), element types and channel counts.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "cli/commands.hpp"
#include "cli/spec_json.hpp"
#include "report/table.hpp"
#include "report/text_format.hpp"
#include "core/device_info.hpp"
#include "lab/lab_kernel.hpp"
#include "registry/registry.hpp"

namespace ks::cli {

using report::Table;
using report::wrap_text;

namespace {

struct ListOptions {
  std::string kernel;  // empty: all
  bool json = false;
};

constexpr std::size_t kTextWidth = 100;

std::string join_types(const std::vector<ElemType>& types) {
  std::string s;
  for (ElemType t : types) s += (s.empty() ? "" : ", ") + std::string(to_string(t));
  return s;
}

std::string describe_kernel(const KernelSpec& k, bool cuda_available) {
  std::string out = fmt::format("{} — {}\n", k.id, k.title);
  out += wrap_text(k.description, kTextWidth, 2);
  if (k.params.empty()) {
    out += "  parameters: none\n";
  } else {
    out += "  parameters:\n";
    Table t({{"name"}, {"type"}, {"range"}, {"default"}});
    for (const auto& p : k.params) t.add_row({p.name, to_string(p.type), p.range_text(), p.default_text});
    // The table gives the aligned summary; each parameter's help follows, indented under its own row.
    const std::string rendered = t.render(4);
    std::size_t pos = rendered.find('\n', rendered.find('\n') + 1) + 1;  // after header and rule
    out += rendered.substr(0, pos);
    for (const auto& p : k.params) {
      const std::size_t end = rendered.find('\n', pos) + 1;
      out += rendered.substr(pos, end - pos);
      out += wrap_text(p.help, kTextWidth, 8);
      pos = end;
    }
  }
  out += "  variants:\n";
  std::size_t name_width = 0;
  for (const auto& v : k.variants) name_width = std::max(name_width, v.name.size());
  for (const auto& v : k.variants) {
    const bool missing = v.backend == Backend::Cuda && !cuda_available;
    out += fmt::format("    {:<{}}  {}{}\n", v.name, name_width, missing ? "(needs CUDA) " : "", v.help);
  }
  if (k.lab) {
    out += "  " + lab::describe_size(k.lab->info()) + "\n";
    return out;
  }
  std::string channels;
  for (int c : k.channels) channels += (channels.empty() ? "" : ", ") + std::to_string(c);
  if (!k.types.empty()) out += fmt::format("  types: {}; channels: {}\n", join_types(k.types), channels);
  return out;
}

int run_list(const ListOptions& opt) {
  const KernelRegistry& registry = KernelRegistry::builtin();
  std::vector<const KernelSpec*> kernels;
  if (!opt.kernel.empty()) {
    kernels.push_back(&registry.get(opt.kernel));  // usage error listing the ids when unknown
  } else {
    for (const auto& k : registry.kernels()) kernels.push_back(&k);
  }
  // Asking for the reason is cheap (no context is created) and tells which variants can run here.
  const std::string no_device = no_device_reason();
  const bool cuda = no_device.empty();

  if (opt.json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const KernelSpec* k : kernels) list.push_back(to_json(*k, cuda));
    nlohmann::ordered_json j = {{"schema", "kernelscope.list/1"},
                                {"cuda_available", cuda},
                                {"cuda_unavailable_reason", no_device},
                                {"kernels", std::move(list)}};
    fmt::print("{}\n", j.dump(2));
    return 0;
  }

  // Categories in the order the registry first mentions them.
  std::vector<std::string> categories;
  for (const KernelSpec* k : kernels)
    if (std::find(categories.begin(), categories.end(), k->category) == categories.end())
      categories.push_back(k->category);
  bool first = true;
  for (const auto& category : categories) {
    fmt::print("{}{} kernels\n", first ? "" : "\n", category);
    first = false;
    for (const KernelSpec* k : kernels)
      if (k->category == category) fmt::print("\n{}", describe_kernel(*k, cuda));
  }
  if (!cuda) fmt::print("\nCUDA variants need a CUDA device: {}.\n", no_device);
  return 0;
}

}  // namespace

Command add_list_command(CLI::App& app, const GlobalOptions&) {
  auto opt = std::make_shared<ListOptions>();
  CLI::App* sub =
      app.add_subcommand("list", "List the kernels: parameters, ranges, defaults, variants, types");
  sub->add_option("kernel", opt->kernel, "Show only this kernel (an id, e.g. box)");
  sub->add_flag("--json", opt->json, "Print JSON instead of text");
  return {sub, [opt] { return run_list(*opt); }};
}

}  // namespace ks::cli
