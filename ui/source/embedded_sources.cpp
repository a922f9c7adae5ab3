#include "source/embedded_sources.hpp"

#include <algorithm>

namespace ks::source {

const embedded::EmbeddedFile* find_embedded(std::string_view path) {
  const auto files = embedded::kernel_source_files();
  const auto it = std::find_if(files.begin(), files.end(), [&](const embedded::EmbeddedFile& f) {
    return std::string_view(f.path) == path;
  });
  return it == files.end() ? nullptr : &*it;
}

}  // namespace ks::source
