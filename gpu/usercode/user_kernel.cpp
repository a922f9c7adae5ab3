#include "usercode/user_kernel.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/source_text.hpp"

namespace ks::usercode {

namespace {

std::optional<Family> requested_family(const CompileRequest& r, const KernelDeclarations& d) {
  std::optional<Family> from_source;
  if (d.family) {
    from_source = family_from_string(*d.family);
    if (!from_source)
      throw_usage(fmt::format("{}:{}: unknown kernel family `{}`", r.file_name, d.family_line, *d.family),
                  fmt::format("the families are {}", family_names()));
  }
  if (r.family.empty()) return from_source;
  const Family asked = parse_family(r.family);
  if (from_source && *from_source != asked)
    throw_usage(fmt::format("{} declares the family {} (line {}) but {} was asked for", r.file_name,
                            to_string(*from_source), d.family_line, to_string(asked)),
                "drop one of the two, or make them agree");
  return asked;
}

std::string kernel_list(const std::vector<KernelFacts>& kernels) {
  std::string s;
  for (const auto& k : kernels) s += (s.empty() ? "" : ", ") + k.name;
  return s;
}

bool names(const KernelFacts& k, const std::string& wanted) {
  if (k.name == wanted || k.mangled_name == wanted) return true;
  // "ns::smooth" answers to "smooth" as well.
  return k.name.size() > wanted.size() + 2 && k.name.ends_with("::" + wanted);
}

int pick_entry(const CompileRequest& r, const KernelDeclarations& d, const CompiledModule& m) {
  const std::string wanted = r.entry.empty() ? d.entry : r.entry;
  if (m.kernels.empty())
    throw_usage(fmt::format("{} has no __global__ function", r.file_name),
                "write one (a template kernel is compiled only where it is instantiated), or start from a template "
                "in assets/kernels/");
  if (wanted.empty()) {
    if (m.kernels.size() == 1) return 0;
    throw_usage(fmt::format("{} has {} __global__ functions: {}", r.file_name, m.kernels.size(), kernel_list(m.kernels)),
                "say which one is the kernel with --entry NAME (or a `// @entry NAME` line in the file)");
  }
  int found = -1;
  for (std::size_t i = 0; i < m.kernels.size(); ++i) {
    if (!names(m.kernels[i], wanted)) continue;
    if (found >= 0)
      throw_usage(fmt::format("`{}` names more than one __global__ function of {}: {} and {}", wanted, r.file_name,
                              m.kernels[static_cast<std::size_t>(found)].signature, m.kernels[i].signature),
                  "give the full name, as the list of kernels shows it");
    found = static_cast<int>(i);
  }
  if (found < 0)
    throw_usage(fmt::format("{} has no __global__ function `{}`; it has {}", r.file_name, wanted,
                            kernel_list(m.kernels)),
                "name one of those as the entry");
  return found;
}

void check_contract(const CompileRequest& r, Family family, const KernelDeclarations& d, const KernelFacts& entry) {
  if (entry.c_linkage)
    throw_usage(fmt::format("the entry `{}` of {} is extern \"C\", so its parameter types cannot be checked against "
                            "the {} contract",
                            entry.name, r.file_name, to_string(family)),
                "declare it without extern \"C\"");
  const std::string mismatch = contract_mismatch(family, entry.parameter_types, d.parameters);
  if (!mismatch.empty())
    throw_usage(fmt::format("the entry {} of {} does not match the {} contract: {}", entry.signature, r.file_name,
                            to_string(family), mismatch),
                fmt::format("a {} kernel is\n{}", to_string(family), contract_text(family)));
  if (family != Family::Array && d.output)
    throw_usage(fmt::format("{} declares `@output`, which only the array family has", r.file_name),
                "remove the line");
}

}  // namespace

CompiledKernel compile_user_kernel(const CompileRequest& request, CompileCache* cache) {
  check_source_text(request.source, request.file_name);
  CompiledKernel out;
  out.declarations = parse_declarations(request.source, request.file_name);
  out.family = requested_family(request, out.declarations);

  const std::string key = cache ? CompileCache::key(request.source, request.file_name, request.options) : std::string();
  if (cache) out.module = cache->find(key);
  out.from_cache = out.module != nullptr;
  if (!out.module) {
    out.module = std::make_shared<const CompiledModule>(
        compile_with_nvrtc(request.source, request.file_name, request.options, request.cancel));
    if (cache) cache->insert(key, out.module);
  }
  if (!out.module->ok) return out;

  out.entry = pick_entry(request, out.declarations, *out.module);
  if (out.family) check_contract(request, *out.family, out.declarations, out.entry_facts());
  return out;
}

}  // namespace ks::usercode
