// The embedded data itself is generated at build time (cmake/EmbedFile.cmake); this file anchors the library.
#include "assets.hpp"

namespace ks::embedded {

// The copies' templates (assets/CMakeLists.txt embeds them; only this file reads them as bytes).
std::span<const unsigned char> kernel_copy_naive_window_cu();
std::span<const unsigned char> kernel_copy_tiled_window_cu();
std::span<const unsigned char> kernel_copy_separable_cu();
std::span<const unsigned char> kernel_copy_naive_median_cu();
std::span<const unsigned char> kernel_copy_tiled_median_cu();
std::span<const unsigned char> kernel_copy_life_naive_cu();
std::span<const unsigned char> kernel_copy_heat_naive_cu();
std::span<const unsigned char> kernel_copy_vec_naive_cu();
std::span<const unsigned char> kernel_copy_vec_gridstride_cu();
std::span<const unsigned char> kernel_copy_vec_vector4_cu();

namespace {
std::string_view as_text(std::span<const unsigned char> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}
}  // namespace

std::vector<DemoPlaylist> demo_playlists() {
  return {{"naive-tiled-separable", as_text(playlist_naive_tiled_separable())},
          {"block-sizes-occupancy", as_text(playlist_block_sizes_occupancy())},
          {"life-naive-to-bitpacked", as_text(playlist_life_naive_to_bitpacked())}};
}

std::vector<KernelTemplate> kernel_templates() {
  return {{"smooth3x3.cu", "3x3 smoothing (stencil)", as_text(kernel_smooth3x3_cu())},
          {"vecadd.cu", "Vector add (array)", as_text(kernel_vecadd_cu())},
          {"reduce_sum.cu", "Shared-memory sum (array, scalar out)", as_text(kernel_reduce_sum_cu())},
          {"life_step.cu", "Game of Life step (step)", as_text(kernel_life_step_cu())}};
}

namespace {
struct CopyTemplate {
  std::string_view name;
  std::span<const unsigned char> (*bytes)();
};
constexpr CopyTemplate kCopyTemplates[] = {{"naive_window.cu", kernel_copy_naive_window_cu},
                                           {"tiled_window.cu", kernel_copy_tiled_window_cu},
                                           {"separable.cu", kernel_copy_separable_cu},
                                           {"naive_median.cu", kernel_copy_naive_median_cu},
                                           {"tiled_median.cu", kernel_copy_tiled_median_cu},
                                           {"life_naive.cu", kernel_copy_life_naive_cu},
                                           {"heat_naive.cu", kernel_copy_heat_naive_cu},
                                           {"vec_naive.cu", kernel_copy_vec_naive_cu},
                                           {"vec_gridstride.cu", kernel_copy_vec_gridstride_cu},
                                           {"vec_vector4.cu", kernel_copy_vec_vector4_cu}};
}  // namespace

std::string_view kernel_copy_template(std::string_view file_name) {
  for (const CopyTemplate& t : kCopyTemplates)
    if (t.name == file_name) return as_text(t.bytes());
  return {};
}

std::vector<std::string_view> kernel_copy_template_names() {
  std::vector<std::string_view> names;
  for (const CopyTemplate& t : kCopyTemplates) names.push_back(t.name);
  return names;
}

}  // namespace ks::embedded
