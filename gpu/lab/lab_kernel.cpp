#include "lab/lab_kernel.hpp"

#include <fmt/format.h>

namespace ks::lab {

std::int64_t ArraySpec::count() const noexcept {
  std::int64_t c = 1;
  for (auto d : shape) c *= d;
  return c;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + ")";
}

void throw_if_cancelled(const LabRunControl& control) {
  if (control.cancelled()) throw Error(ErrorKind::Cancelled, "the lab run was cancelled");
}

KernelSpec lab_kernel_spec(std::shared_ptr<const LabKernel> kernel) {
  const LabInfo& info = kernel->info();
  KernelSpec k;
  k.id = info.id;
  k.title = info.title;
  k.category = "lab";
  k.description = info.description;
  k.params = info.params;
  k.variants = info.variants;
  k.unavailable_reason = [](const std::string&, const ParamSet&) -> std::optional<std::string> {
    return std::nullopt;
  };
  k.lab = std::move(kernel);
  return k;
}

}  // namespace ks::lab
