#include "usercode/run/user_params.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

std::string declared_names(const KernelDeclarations& d) {
  if (d.parameters.empty()) return "it declares none";
  std::string names;
  for (const auto& p : d.parameters) names += (names.empty() ? "" : ", ") + p.name;
  return "it declares " + names;
}

}  // namespace

std::vector<double> user_param_values(const KernelDeclarations& declarations,
                                      const std::vector<std::string>& assignments) {
  std::vector<double> values;
  for (const auto& p : declarations.parameters) values.push_back(p.value);
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0)
      throw_usage(fmt::format("`{}` is not NAME=VALUE", a), "write e.g. -p strength=0.5");
    const std::string name = a.substr(0, eq);
    const std::string text = a.substr(eq + 1);
    std::size_t i = 0;
    while (i < declarations.parameters.size() && declarations.parameters[i].name != name) ++i;
    if (i == declarations.parameters.size())
      throw_usage(fmt::format("your kernel has no parameter `{}`", name),
                  declared_names(declarations) + " (declare one with `// @param NAME float [MIN, MAX] = DEFAULT`)");
    const DeclaredParameter& p = declarations.parameters[i];
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
      throw_usage(fmt::format("`{}` is not a number (parameter `{}`)", text, name));
    if (p.type == ParamType::Int && v != std::floor(v))
      throw_usage(fmt::format("parameter `{}` is an int; `{}` is not a whole number", name, text));
    if (v < p.min || v > p.max)
      throw_usage(fmt::format("parameter `{}` = {} is outside its declared range [{:g}, {:g}]", name, text, p.min,
                              p.max),
                  fmt::format("pick a value in [{:g}, {:g}], or widen the range in its `// @param` line {}", p.min,
                              p.max, p.line));
    values[i] = v;
  }
  return values;
}

std::vector<double> with_user_param(const KernelDeclarations& declarations, const std::vector<double>& values,
                                    std::size_t index, double value) {
  const auto& declared = declarations.parameters;
  if (index >= declared.size() || values.size() != declared.size())
    throw Error(ErrorKind::Internal, "no such declared parameter");
  std::vector<std::string> assignments;
  for (std::size_t i = 0; i < declared.size(); ++i)
    assignments.push_back(fmt::format("{}={}", declared[i].name, i == index ? value : values[i]));
  return user_param_values(declarations, assignments);
}

std::vector<double> carried_param_values(const KernelDeclarations& declarations, const KernelDeclarations* before,
                                         const std::vector<double>& before_values) {
  std::vector<double> values;
  for (const auto& p : declarations.parameters) {
    double value = p.value;
    if (before)
      for (std::size_t i = 0; i < before->parameters.size() && i < before_values.size(); ++i) {
        const auto& q = before->parameters[i];
        if (q.name == p.name && q.type == p.type && before_values[i] >= p.min && before_values[i] <= p.max)
          value = before_values[i];
      }
    values.push_back(value);
  }
  return values;
}

}  // namespace ks::usercode
