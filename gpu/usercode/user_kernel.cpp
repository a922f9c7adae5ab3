#include "usercode/user_kernel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

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
    throw_usage(fmt::format("{}:{}: {} declares the family {} but {} was asked for", r.file_name, d.family_line,
                            r.file_name, to_string(*from_source), to_string(asked)),
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

// The 1-based line where the entry's name follows a `__global__` (on that line or the next two), or 0: what the
// editor marks for a refusal about the entry. `name` may be qualified or a template ("ns::f", "f<float>").
int entry_line(std::string_view source, const std::string& name) {
  std::string shortest = name.substr(name.rfind("::") == std::string::npos ? 0 : name.rfind("::") + 2);
  shortest = shortest.substr(0, shortest.find('<'));
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start <= source.size();) {
    const std::size_t end = std::min(source.find('\n', start), source.size());
    lines.push_back(source.substr(start, end - start));
    start = end + 1;
  }
  auto names_it = [&](std::string_view line) {
    for (std::size_t at = line.find(shortest); at != std::string_view::npos; at = line.find(shortest, at + 1)) {
      const bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '_');
      const std::size_t after = at + shortest.size();
      const bool ends = after == line.size() || line[after] == '(' || line[after] == '<' || line[after] == ' ';
      if (starts && ends) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("__global__") == std::string_view::npos) continue;
    for (std::size_t j = i; j < std::min(i + 3, lines.size()); ++j)
      if (names_it(lines[j])) return static_cast<int>(j + 1);
  }
  return 0;
}

// "FILE:LINE: " for a refusal the editor can mark at `line` (the compiler's own messages have that form), or
// nothing when there is no line to mark.
std::string place(const std::string& file_name, int line) {
  return line > 0 ? fmt::format("{}:{}: ", file_name, line) : std::string();
}

// The first line holding `__global__` (a template kernel that nothing instantiates), else line 1: where a file
// without a compiled kernel is marked.
int first_global_line(std::string_view source) {
  const std::size_t at = source.find("__global__");
  if (at == std::string_view::npos) return 1;
  return 1 + static_cast<int>(std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

int pick_entry(const CompileRequest& r, const KernelDeclarations& d, const CompiledModule& m) {
  const std::string wanted = r.entry.empty() ? d.entry : r.entry;
  if (m.kernels.empty())
    throw_usage(fmt::format("{}{} has no __global__ function", place(r.file_name, first_global_line(r.source)),
                            r.file_name),
                "write one (a template kernel is compiled only where it is instantiated), or start from a template "
                "in assets/kernels/");
  if (wanted.empty()) {
    if (m.kernels.size() == 1) return 0;
    throw_usage(fmt::format("{}{} has {} __global__ functions: {}",
                            place(r.file_name, entry_line(r.source, m.kernels[1].name)), r.file_name,
                            m.kernels.size(), kernel_list(m.kernels)),
                "say which one is the kernel with --entry NAME (or a `// @entry NAME` line in the file)");
  }
  // A name from the file's `// @entry` is marked there; one from --entry has no line in the file.
  const int wanted_line = r.entry.empty() ? d.entry_line : 0;
  int found = -1;
  for (std::size_t i = 0; i < m.kernels.size(); ++i) {
    if (!names(m.kernels[i], wanted)) continue;
    if (found >= 0)
      throw_usage(fmt::format("{}`{}` names more than one __global__ function of {}: {} and {}",
                              place(r.file_name, wanted_line), wanted, r.file_name,
                              m.kernels[static_cast<std::size_t>(found)].signature, m.kernels[i].signature),
                  "give the full name, as the list of kernels shows it");
    found = static_cast<int>(i);
  }
  if (found < 0)
    throw_usage(fmt::format("{}{} has no __global__ function `{}`; it has {}", place(r.file_name, wanted_line),
                            r.file_name, wanted, kernel_list(m.kernels)),
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
  if (!mismatch.empty()) {
    // "FILE:LINE: " as the declarations' errors: the editor marks the entry's line.
    throw_usage(fmt::format("{}the entry {} of {} does not match the {} contract: {}",
                            place(r.file_name, entry_line(r.source, entry.name)), entry.signature,
                            r.file_name, to_string(family), mismatch),
                fmt::format("a {} kernel is\n{}", to_string(family), contract_text(family)));
  }
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
