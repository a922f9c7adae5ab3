#include "usercode/kernel_facts.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <regex>
#include <string>

namespace ks::usercode {

namespace {

KernelFacts* find(std::vector<KernelFacts>& kernels, const std::string& mangled) {
  for (auto& k : kernels)
    if (k.mangled_name == mangled) return &k;
  return nullptr;
}

std::string demangle(const std::string& mangled, bool& ok) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                   &std::free);
  ok = status == 0 && text;
  return ok ? std::string(text.get()) : mangled;
}

// Splits "a, b<c, d>, e" at its top-level commas.
std::vector<std::string> split_top_level(const std::string& s) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
      continue;
    }
    if (!(cur.empty() && c == ' ')) cur += c;
  }
  if (!cur.empty()) parts.push_back(cur);
  return parts;
}

}  // namespace

std::vector<KernelFacts> parse_ptxas_report(std::string_view log) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex properties(R"(Function properties for (\S+))");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  std::vector<KernelFacts> kernels;
  KernelFacts* current_entry = nullptr;   // the entry "Used N registers" belongs to
  KernelFacts* properties_of = nullptr;   // the function the next stack-frame line describes (null: not an entry)
  std::string text(log);
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    const std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      if (!find(kernels, m[1])) {
        kernels.emplace_back();
        kernels.back().mangled_name = m[1];
      }
      current_entry = find(kernels, m[1]);
    } else if (std::regex_search(line, m, properties)) {
      properties_of = find(kernels, m[1]);
    } else if (std::regex_search(line, m, frame)) {
      if (properties_of) {
        properties_of->stack_bytes = std::stoi(m[1]);
        properties_of->spill_stores = std::stoi(m[2]);
        properties_of->spill_loads = std::stoi(m[3]);
      }
      properties_of = nullptr;
    } else if (std::regex_search(line, m, used) && current_entry) {
      current_entry->registers = std::stoi(m[1]);
      if (std::regex_search(line, m, smem)) current_entry->shared_bytes = std::stoi(m[1]);
    }
  }
  return kernels;
}

int ptx_launch_bound(std::string_view ptx, const std::string& mangled_name) {
  const std::string head = ".entry " + mangled_name + "(";
  const std::size_t at = ptx.find(head);
  if (at == std::string_view::npos) return 0;
  const std::size_t body = ptx.find('{', at);
  const std::string directives(ptx.substr(at, body == std::string_view::npos ? std::string_view::npos : body - at));
  static const std::regex bound(R"(\.(maxntid|reqntid)\s+(\d+)(\s*,\s*(\d+))?(\s*,\s*(\d+))?)");
  std::smatch m;
  if (!std::regex_search(directives, m, bound)) return 0;
  long threads = std::stol(m[2]);
  if (m[4].matched) threads *= std::stol(m[4]);
  if (m[6].matched) threads *= std::stol(m[6]);
  return static_cast<int>(threads);
}

void add_unreported_entries(std::vector<KernelFacts>& kernels, std::string_view ptx) {
  static const std::regex entry(R"(\.entry\s+([A-Za-z_$][\w$]*)\s*\()");
  const std::string text(ptx);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    if (find(kernels, name)) continue;
    kernels.emplace_back();
    kernels.back().mangled_name = name;
    kernels.back().resources_reported = false;
  }
}

void order_as_in_ptx(std::vector<KernelFacts>& kernels, std::string_view ptx) {
  auto position = [&](const KernelFacts& k) { return ptx.find(".entry " + k.mangled_name + "("); };
  std::stable_sort(kernels.begin(), kernels.end(),
                   [&](const KernelFacts& a, const KernelFacts& b) { return position(a) < position(b); });
}

void describe_entry(KernelFacts& k) {
  bool ok = false;
  const std::string text = demangle(k.mangled_name, ok);
  if (!ok || text.empty() || text.back() != ')') {
    k.c_linkage = true;
    k.name = k.mangled_name;
    k.signature = k.mangled_name + "(...)";
    k.parameter_types.clear();
    return;
  }
  // The parameter list is the last top-level parenthesised group.
  int depth = 0;
  std::size_t open = std::string::npos;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] == ')') ++depth;
    if (text[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  std::string name = text.substr(0, open);
  // A function template's demangled name starts with its return type ("void reduce<float>"): drop it.
  const std::size_t angle = name.find('<');
  const std::size_t space = name.rfind(' ', angle == std::string::npos ? name.size() : angle);
  if (space != std::string::npos) name = name.substr(space + 1);
  k.name = name;
  k.signature = name + text.substr(open);
  const std::string params = text.substr(open + 1, text.size() - open - 2);
  k.parameter_types = params == "void" ? std::vector<std::string>() : split_top_level(params);
  k.c_linkage = false;
}

int max_threads_per_block(int registers_per_thread, int launch_bound) {
  constexpr int kMaxThreads = 1024;
  constexpr int kRegistersPerSubPartition = 65536 / 4;
  constexpr int kAllocationUnit = 256;
  int limit = kMaxThreads;
  if (launch_bound > 0) limit = std::min(limit, launch_bound);
  if (registers_per_thread > 0) {
    const int per_warp = (registers_per_thread * 32 + kAllocationUnit - 1) / kAllocationUnit * kAllocationUnit;
    const int warps = kRegistersPerSubPartition / per_warp * 4;
    limit = std::min(limit, warps * 32);
  }
  return limit;
}

}  // namespace ks::usercode
