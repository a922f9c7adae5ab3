#include "session/playlist/user_kernel_fit.hpp"

#include <fmt/format.h>

namespace ks::app {

bool user_kernel_fits(usercode::Family family, const KernelSpec& kernel) {
  switch (family) {
    case usercode::Family::Stencil: return kernel.category == "stencil";
    case usercode::Family::Array: return kernel.category == "lab";
    case usercode::Family::Step: return kernel.id == "life" || kernel.id == "heat";
  }
  return false;
}

std::string user_kernel_misfit(usercode::Family family, const KernelSpec& kernel, const std::string& file_name) {
  if (user_kernel_fits(family, kernel)) return {};
  switch (family) {
    case usercode::Family::Stencil:
      return fmt::format("{} is a stencil kernel: it runs in place of an image kernel (box, gaussian, sobel, ...), "
                         "not '{}' ({})",
                         file_name, kernel.id, kernel.category);
    case usercode::Family::Array:
      return fmt::format("{} is an array kernel: it runs in the Lab on a lab kernel's inputs (vecadd, saxpy, reduce, "
                         "sort), not '{}' ({})",
                         file_name, kernel.id, kernel.category);
    case usercode::Family::Step:
      return kernel.id == "grayscott"
                 ? fmt::format("{} is a step kernel, which keeps one value per cell, and Gray-Scott keeps two (u "
                               "and v): choose life (u8 cells) or heat (f32)",
                               file_name)
                 : fmt::format("{} is a step kernel: it steps life (u8 cells) or heat (f32), not '{}' ({})",
                               file_name, kernel.id, kernel.category);
  }
  return {};
}

}  // namespace ks::app
