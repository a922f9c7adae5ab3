// `copy KERNEL`: the Source panel's "Edit a copy" on the command line (app/copies): a built-in variant written as
// a kernel of your own, with the parameters given filled in, printed or written to a `.cu` file to edit and run
// with `run --kernel-file`. A variant with no copy says why and exits 2, writing nothing.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/request_checks.hpp"
#include "copies/kernel_copy.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "registry/registry.hpp"

namespace ks::cli {

namespace {

struct CopyCliOptions {
  std::string kernel;
  std::string variant = "naive";
  std::vector<std::string> params;
  std::string type = "f32";
  std::string out;  // empty: stdout
};

int run_copy(const CopyCliOptions& o) {
  const KernelSpec& spec = KernelRegistry::builtin().get(o.kernel);
  if (!spec.find_variant(o.variant)) throw_usage(fmt::format("{} has no variant `{}`", o.kernel, o.variant),
                                                 "`kernelscope-cli list " + o.kernel + "` lists its variants");
  const ParamSet params = params_from_assignments(spec, o.params);
  const copies::EditCopy edit = copies::edit_copy(spec, o.variant, params, kernel_type_from_string(o.type));
  if (!edit.copy) throw_usage(fmt::format("{} {} has no copy: {}", o.kernel, o.variant, edit.reason));
  if (o.out.empty()) {
    std::fputs(edit.copy->text.c_str(), stdout);
    return 0;
  }
  write_text_atomically(o.out, edit.copy->text);
  const std::string& family = edit.copy->family;
  const std::string how = family == "stencil" ? fmt::format("run --kernel-file {} -i IMAGE -o OUT --type {}", o.out, o.type)
                          : family == "step"  ? fmt::format("sim --kernel-file {} --steps 100", o.out)
                                              : fmt::format("lab --kernel-file {}", o.out);
  std::printf("wrote %s (entry %s, family %s): run it with `kernelscope-cli %s`\n", o.out.c_str(),
              edit.copy->entry.c_str(), family.c_str(), how.c_str());
  return 0;
}

}  // namespace

Command add_copy_command(CLI::App& app, const GlobalOptions&) {
  auto o = std::make_shared<CopyCliOptions>();
  CLI::App* sub = app.add_subcommand("copy", "A built-in variant written as your own kernel (the app's Edit a copy)");
  sub->add_option("kernel", o->kernel, "A kernel of `list`: the stencils, life, heat, vecadd, saxpy")->required();
  sub->add_option("--variant", o->variant, "Its variant (a stencil's naive, tiled or separable)")
      ->capture_default_str();
  sub->add_option("-p,--param", o->params, "NAME=VALUE of the built-in, filled into the copy");
  sub->add_option("--type", o->type, "u8 or f32: a stencil copy's pixel type")->capture_default_str();
  sub->add_option("-o,--out", o->out, "Write the copy to this .cu file (default: print it)");
  return {sub, [o] { return run_copy(*o); }};
}

}  // namespace ks::cli
