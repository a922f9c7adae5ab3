#pragma once
// Files embedded in the executables (see assets/README.md for where each comes from).
#include <span>
#include <string_view>
#include <vector>

namespace ks::embedded {
std::span<const unsigned char> sample_png();  // the sample image: 1024x768 RGB, made by tools/make_sample

// The demo playlists of assets/playlists (JSON, schema kernelscope.playlist/1).
std::span<const unsigned char> playlist_naive_tiled_separable();
std::span<const unsigned char> playlist_block_sizes_occupancy();
std::span<const unsigned char> playlist_life_naive_to_bitpacked();

struct DemoPlaylist {
  std::string_view name;  // the file's stem: "naive-tiled-separable"
  std::string_view text;  // the JSON
};
std::vector<DemoPlaylist> demo_playlists();  // in the order a course would show them

// The kernel templates of assets/kernels (CUDA sources a user starts their own kernel from).
std::span<const unsigned char> kernel_smooth3x3_cu();
std::span<const unsigned char> kernel_vecadd_cu();
std::span<const unsigned char> kernel_reduce_sum_cu();
std::span<const unsigned char> kernel_life_step_cu();

struct KernelTemplate {
  std::string_view file_name;  // "smooth3x3.cu"
  std::string_view title;      // "3x3 smoothing (stencil)": how a menu lists it
  std::string_view text;
};
std::vector<KernelTemplate> kernel_templates();  // in the order of the first lessons: smoothing first

// The templates of the built-ins' copies (assets/kernels/copies, the Source panel's Edit a copy: app/copies) by
// file name ("naive_window.cu"); empty for a name that is not one.
std::string_view kernel_copy_template(std::string_view file_name);
std::vector<std::string_view> kernel_copy_template_names();
}  // namespace ks::embedded
