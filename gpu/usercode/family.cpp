#include "usercode/family.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

// A parameter the contract wants: its type as the demangler spells it, and its role in words.
struct Slot {
  std::string type;
  std::string role;
};

// "float const*" -> "const float*": the demangler's spelling turned into the one users write.
std::string as_written(const std::string& t) {
  const std::string suffix = " const*";
  if (t.size() > suffix.size() && t.ends_with(suffix)) return "const " + t.substr(0, t.size() - suffix.size()) + "*";
  return t;
}

std::string declared_type(ParamType t) { return t == ParamType::Int ? "int" : "float"; }

void add_declared(std::vector<Slot>& slots, const std::vector<DeclaredParameter>& declared) {
  for (const auto& p : declared)
    slots.push_back({declared_type(p.type), fmt::format("the declared parameter `{}`", p.name)});
}

std::string compare(Family f, const std::vector<Slot>& want, const std::vector<std::string>& have) {
  const std::size_t n = std::min(want.size(), have.size());
  for (std::size_t i = 0; i < n; ++i)
    if (want[i].type != have[i])
      return fmt::format("parameter {} is `{}`; the {} contract wants `{}` there ({})", i + 1, as_written(have[i]),
                         to_string(f), as_written(want[i].type), want[i].role);
  if (have.size() > want.size())
    return fmt::format("parameter {} (`{}`) is one more than the {} contract has: {} parameters{}", want.size() + 1,
                       as_written(have[want.size()]), to_string(f), want.size(),
                       " (declare each extra one with `// @param`)");
  if (have.size() < want.size())
    return fmt::format("the entry stops after {} parameter{}; the {} contract wants parameter {} too: `{}` ({})",
                       have.size(), have.size() == 1 ? "" : "s", to_string(f), have.size() + 1,
                       as_written(want[have.size()].type), want[have.size()].role);
  return {};
}

// The element type T of "ks::InImage<T>" or "T const*", or "" when `type` is neither.
std::string element_of(const std::string& type, const std::string& prefix, const std::string& suffix) {
  if (type.size() > prefix.size() + suffix.size() && type.starts_with(prefix) && type.ends_with(suffix))
    return type.substr(prefix.size(), type.size() - prefix.size() - suffix.size());
  return {};
}

bool one_of(const std::string& t, std::initializer_list<const char*> types) {
  return std::any_of(types.begin(), types.end(), [&](const char* x) { return t == x; });
}

std::string stencil_mismatch(const std::vector<std::string>& have, const std::vector<DeclaredParameter>& declared) {
  std::vector<Slot> want;
  const std::string first = have.empty() ? std::string() : have[0];
  std::string t = element_of(first, "ks::InImage<", ">");
  if (one_of(t, {"float", "unsigned char"})) {
    want = {{first, "the input image"}, {"ks::OutImage<" + t + ">", "the output image, same element type as the input"}};
  } else if (t = element_of(first, "", " const*"); one_of(t, {"float", "unsigned char"})) {
    want = {{first, "the input image's first pixel"},
            {t + "*", "the output image's first pixel"},
            {"int", "width in pixels"},
            {"int", "height in pixels"},
            {"int", "channels per pixel: 1 or 4"},
            {"int", "pitch: elements from one row to the next"}};
  } else {
    return fmt::format("parameter 1 is `{}`; the stencil contract wants `ks::InImage<float>` or "
                       "`ks::InImage<unsigned char>` there (or `const float*` / `const unsigned char*` for the raw "
                       "signature)",
                       have.empty() ? std::string("missing") : as_written(first));
  }
  add_declared(want, declared);
  return compare(Family::Stencil, want, have);
}

std::string array_mismatch(const std::vector<std::string>& have, const std::vector<DeclaredParameter>& declared) {
  const std::string t = have.empty() ? std::string() : element_of(have[0], "", " const*");
  if (!one_of(t, {"float", "double", "int", "unsigned int"}))
    return fmt::format("parameter 1 is `{}`; the array contract wants an input `const float*` there (or const "
                       "double*, const int*, const unsigned int*)",
                       have.empty() ? std::string("missing") : as_written(have[0]));
  std::vector<Slot> want;
  std::size_t i = 0;
  while (i < have.size() && have[i] == t + " const*") {
    want.push_back({have[i], fmt::format("input {}", i + 1)});
    ++i;
  }
  want.push_back({t + "*", "the output: n elements, or one for a scalar result"});
  want.push_back({"int", "n, the number of input elements"});
  add_declared(want, declared);
  return compare(Family::Array, want, have);
}

std::string step_mismatch(const std::vector<std::string>& have, const std::vector<DeclaredParameter>& declared) {
  const std::string t = have.empty() ? std::string() : element_of(have[0], "", " const*");
  if (!one_of(t, {"float", "unsigned char"}))
    return fmt::format("parameter 1 is `{}`; the step contract wants the current state `const unsigned char*` "
                       "or `const float*` there",
                       have.empty() ? std::string("missing") : as_written(have[0]));
  std::vector<Slot> want = {{have[0], "the current state, width x height cells row by row"},
                            {t + "*", "the next state, same layout"},
                            {"int", "width in cells"},
                            {"int", "height in cells"}};
  add_declared(want, declared);
  return compare(Family::Step, want, have);
}

}  // namespace

const char* to_string(Family f) noexcept {
  switch (f) {
    case Family::Stencil: return "stencil";
    case Family::Array: return "array";
    case Family::Step: return "step";
  }
  return "?";
}

std::optional<Family> family_from_string(std::string_view name) {
  for (Family f : {Family::Stencil, Family::Array, Family::Step})
    if (name == to_string(f)) return f;
  return std::nullopt;
}

std::string family_names() { return "stencil, array, step"; }

Family parse_family(std::string_view name) {
  if (auto f = family_from_string(name)) return *f;
  throw_usage(fmt::format("unknown kernel family `{}`", name), fmt::format("the families are {}", family_names()));
}

std::string contract_text(Family f) {
  switch (f) {
    case Family::Stencil:
      return "__global__ void NAME(ks::InImage<T> in, ks::OutImage<T> out, PARAMS...)   T: float or unsigned char\n"
             "__global__ void NAME(const T* in, T* out, int width, int height, int channels, int pitch, PARAMS...)";
    case Family::Array:
      return "__global__ void NAME(const T* in1, [const T* in2, ...] T* out, int n, PARAMS...)   T: float, double, "
             "int or unsigned int";
    case Family::Step:
      return "__global__ void NAME(const T* state, T* next, int width, int height, PARAMS...)   T: unsigned char or "
             "float";
  }
  return {};
}

std::string contract_mismatch(Family f, const std::vector<std::string>& parameter_types,
                              const std::vector<DeclaredParameter>& declared) {
  switch (f) {
    case Family::Stencil: return stencil_mismatch(parameter_types, declared);
    case Family::Array: return array_mismatch(parameter_types, declared);
    case Family::Step: return step_mismatch(parameter_types, declared);
  }
  return {};
}

}  // namespace ks::usercode
