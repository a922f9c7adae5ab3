#pragma once
// The app's headers NVRTC gets beside a user's file, by the names the program includes them with: the prelude
// (prelude/ks_prelude.cuh) and the core headers it includes, which are the built-in kernels' own (the border
// remap of core/border_remap.hpp and what it uses), so a user's stencil and the built-ins read the same pixels
// from one source. Embedded at build time from the source tree (CMakeLists.txt here), so they cannot differ from
// the files the built-ins compile.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace ks::usercode {

inline constexpr std::array<std::string_view, 4> kPreludeHeaderNames = {
    "ks_prelude.cuh", "core/border_remap.hpp", "core/floor_mod.hpp", "core/hd.hpp"};

// Their texts, in kPreludeHeaderNames' order.
std::vector<std::string> prelude_header_texts();

}  // namespace ks::usercode
