#pragma once
// The kernels' source files, embedded at build time from the very files the build compiles
// (cmake/EmbedSources.cmake, list from gpu/CMakeLists.txt), so the Source panel can never show a stale copy.
#include <span>
#include <string_view>

namespace ks::embedded {

struct EmbeddedFile {
  const char* path;  // relative to the repository root, e.g. "gpu/stencil/cuda/naive_window.cu"
  std::span<const unsigned char> bytes;  // the file exactly as it was when this binary was built
};

// Every embedded file, sorted by path. Defined in the generated embedded_kernel_sources.cpp.
std::span<const EmbeddedFile> kernel_source_files();

}  // namespace ks::embedded

namespace ks::source {

inline std::string_view text_of(const embedded::EmbeddedFile& f) {
  return {reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size()};
}

// The embedded file at `path` (repository-relative), or null when the build did not embed it.
const embedded::EmbeddedFile* find_embedded(std::string_view path);

}  // namespace ks::source
