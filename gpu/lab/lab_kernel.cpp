#include "lab/lab_kernel.hpp"

#include <fmt/format.h>

namespace ks::lab {

const char* to_string(OperationKind k) noexcept { return k == OperationKind::Flop ? "flop" : "comparison"; }

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

std::string describe_size(const LabInfo& info) {
  std::string dims;
  static constexpr const char* kNames[3][3] = {{"n", "", ""}, {"N", "M", ""}, {"M", "N", "K"}};
  if (info.form == SizeForm::Image) {
    dims = "the loaded image (-i)";
  } else {
    const int row = info.form == SizeForm::Elements ? 0 : info.form == SizeForm::Grid ? 1 : 2;
    const int rank = info.default_size.rank();
    for (int i = 0; i < rank; ++i) {
      const auto d = std::size_t(i);
      dims += fmt::format("{}{} {}..{}", i ? ", " : "", kNames[row][i], short_text(info.limits.min[d]),
                          short_text(info.limits.max[d]));
    }
    dims += fmt::format(" (default {})", info.form == SizeForm::Elements ? short_text(info.default_size.n())
                                                                         : to_string(info.default_size));
  }
  return fmt::format("size: {}; --streams: {}; block: {}, default {}", dims,
                     info.splits ? "splits into chunks" : "no (one piece of work)",
                     info.block_rank == 1 ? "1-D (--block B)" : "2-D (--block WxH)",
                     info.block_rank == 1 ? std::to_string(info.default_block.x) : to_string(info.default_block));
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
