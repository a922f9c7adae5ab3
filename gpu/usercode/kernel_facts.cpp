#include "usercode/kernel_facts.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "usercode/text_scan.hpp"

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

// What `read` makes of the text after the first occurrence of `literal` it reads something from: a search of the
// line for a pattern that starts with `literal`.
template <class Read>
auto read_after(std::string_view line, std::string_view literal, Read read) -> decltype(read(line)) {
  for (std::size_t at = line.find(literal); at != std::string_view::npos; at = line.find(literal, at + 1))
    if (auto found = read(line.substr(at + literal.size()))) return found;
  return std::nullopt;
}

// `Compiling entry function 'NAME'`: the mangled name.
std::optional<std::string_view> compiled_entry(std::string_view line) {
  return read_after(line, "Compiling entry function '", [](std::string_view s) -> std::optional<std::string_view> {
    const std::string_view name = scan::take_while(s, [](char c) { return c != '\''; });
    if (name.empty() || !s.starts_with('\'')) return std::nullopt;
    return name;
  });
}

// `Function properties for NAME`.
std::optional<std::string_view> properties_for(std::string_view line) {
  return read_after(line, "Function properties for ", [](std::string_view s) -> std::optional<std::string_view> {
    const std::string_view name = scan::take_non_space(s);
    if (name.empty()) return std::nullopt;
    return name;
  });
}

// The whole number written just before each `WORDS` of the line (`N WORDS`, N a run of digits): the first of them.
std::optional<std::string_view> number_before(std::string_view line, std::string_view words) {
  for (std::size_t at = line.find(words); at != std::string_view::npos; at = line.find(words, at + 1))
    if (const std::string_view n = scan::digits_at_end(line.substr(0, at)); !n.empty()) return n;
  return std::nullopt;
}

struct Frame {
  int stack_bytes, spill_stores, spill_loads;
};

// `S bytes stack frame, T bytes spill stores, L bytes spill loads`.
std::optional<Frame> stack_frame(std::string_view line) {
  constexpr std::string_view kStack = " bytes stack frame, ";
  for (std::size_t at = line.find(kStack); at != std::string_view::npos; at = line.find(kStack, at + 1)) {
    const std::string_view stack = scan::digits_at_end(line.substr(0, at));
    std::string_view rest = line.substr(at + kStack.size());
    const std::string_view stores = scan::take_digits(rest);
    if (stack.empty() || stores.empty() || !scan::eat(rest, " bytes spill stores, ")) continue;
    const std::string_view loads = scan::take_digits(rest);
    if (loads.empty() || !rest.starts_with(" bytes spill loads")) continue;
    return Frame{scan::to_int(stack), scan::to_int(stores), scan::to_int(loads)};
  }
  return std::nullopt;
}

// `Used N registers`.
std::optional<std::string_view> registers_used(std::string_view line) {
  return read_after(line, "Used ", [](std::string_view s) -> std::optional<std::string_view> {
    const std::string_view n = scan::take_digits(s);
    if (n.empty() || !s.starts_with(" registers")) return std::nullopt;
    return n;
  });
}

// `.maxntid X[, Y[, Z]]` or `.reqntid ...` (blanks, line ends included, around the commas): X*Y*Z, or nullopt.
std::optional<long> launch_bound_at(std::string_view s) {
  if (!scan::eat(s, ".maxntid") && !scan::eat(s, ".reqntid")) return std::nullopt;
  if (!scan::skip_spaces(s)) return std::nullopt;
  const std::string_view x = scan::take_digits(s);
  if (x.empty()) return std::nullopt;
  long threads = std::stol(std::string(x));
  for (int more = 0; more < 2; ++more) {  // `(\s*,\s*(\d+))?` twice: each only where a number follows its comma
    std::string_view next = s;
    scan::skip_spaces(next);
    if (!scan::eat(next, ",")) break;
    scan::skip_spaces(next);
    const std::string_view n = scan::take_digits(next);
    if (n.empty()) break;
    threads *= std::stol(std::string(n));
    s = next;
  }
  return threads;
}

// `.entry NAME (`: the names of the PTX's entries, in order.
std::vector<std::string_view> ptx_entry_names(std::string_view ptx) {
  std::vector<std::string_view> names;
  for (std::size_t at = ptx.find(".entry"); at != std::string_view::npos; at = ptx.find(".entry", at + 1)) {
    std::string_view s = ptx.substr(at + std::string_view(".entry").size());
    if (!scan::skip_spaces(s) || s.empty() || scan::is_digit(s[0])) continue;
    const std::string_view name = scan::take_while(s, [](char c) { return scan::is_word(c) || c == '$'; });
    scan::skip_spaces(s);
    if (!name.empty() && s.starts_with('(')) names.push_back(name);
  }
  return names;
}

}  // namespace

std::vector<KernelFacts> parse_ptxas_report(std::string_view log) {
  std::vector<KernelFacts> kernels;
  KernelFacts* current_entry = nullptr;   // the entry "Used N registers" belongs to
  KernelFacts* properties_of = nullptr;   // the function the next stack-frame line describes (null: not an entry)
  while (!log.empty()) {
    const std::size_t eol = log.find('\n');
    const std::string_view line = log.substr(0, eol);
    log.remove_prefix(eol == std::string_view::npos ? log.size() : eol + 1);
    if (const auto entry = compiled_entry(line)) {
      const std::string name(*entry);
      if (!find(kernels, name)) {
        kernels.emplace_back();
        kernels.back().mangled_name = name;
      }
      current_entry = find(kernels, name);
    } else if (const auto function = properties_for(line)) {
      properties_of = find(kernels, std::string(*function));
    } else if (const auto frame = stack_frame(line)) {
      if (properties_of) {
        properties_of->stack_bytes = frame->stack_bytes;
        properties_of->spill_stores = frame->spill_stores;
        properties_of->spill_loads = frame->spill_loads;
      }
      properties_of = nullptr;
    } else if (const auto registers = registers_used(line); registers && current_entry) {
      current_entry->registers = scan::to_int(*registers);
      if (const auto smem = number_before(line, " bytes smem")) current_entry->shared_bytes = scan::to_int(*smem);
    }
  }
  return kernels;
}

int ptx_launch_bound(std::string_view ptx, const std::string& mangled_name) {
  const std::string head = ".entry " + mangled_name + "(";
  const std::size_t at = ptx.find(head);
  if (at == std::string_view::npos) return 0;
  const std::size_t body = ptx.find('{', at);
  const std::string_view directives = ptx.substr(at, body == std::string_view::npos ? std::string_view::npos : body - at);
  for (std::size_t dot = directives.find('.'); dot != std::string_view::npos; dot = directives.find('.', dot + 1))
    if (const std::optional<long> threads = launch_bound_at(directives.substr(dot))) return static_cast<int>(*threads);
  return 0;
}

void add_unreported_entries(std::vector<KernelFacts>& kernels, std::string_view ptx) {
  for (const std::string_view found : ptx_entry_names(ptx)) {
    const std::string name(found);
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
