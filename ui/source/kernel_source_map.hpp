#pragma once
// Which source files show what a kernel's variant runs, and where in them to look: the function it launches
// (the __global__ kernel) or, for a CPU variant, the reference's loop. One table (kernel_source_map.cpp); a
// test checks that every registry kernel x variant has an entry whose files are embedded and contain the
// anchor.
#include <string_view>
#include <vector>

namespace ks::source {

struct SourceRef {
  std::string_view file;    // repository-relative path of an embedded file
  std::string_view anchor;  // text whose first occurrence the panel scrolls to, e.g. "naive_window_kernel"
};

// The files of `variant` of kernel `kernel_id`, most telling first; empty when the table has none.
std::vector<SourceRef> sources_of(std::string_view kernel_id, std::string_view variant);

}  // namespace ks::source
