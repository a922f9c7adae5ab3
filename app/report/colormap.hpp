#pragma once
// The colormaps of single-channel images as 256-entry RGBA tables: the shader looks values up in a 256x1 texture
// made from them, and the legend shows the same texture, so the two cannot disagree. The simulation pictures
// of the CLI and the app (sim_frames.hpp) and their GIF palettes use the same tables; the view names them as
// its own (ks::ui, session/display_frame.hpp).
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/enum_names.hpp"

namespace ks::report {

enum class Colormap { Gray, Viridis, Magma, Diverging };

using Rgba8 = std::array<std::uint8_t, 4>;
using ColormapTable = std::array<Rgba8, 256>;

// Entry i is the colour of t = i / 255. Opaque.
const ColormapTable& colormap_table(Colormap map);

inline constexpr EnumName<Colormap> kColormapNames[] = {{Colormap::Gray, "gray"},
                                                        {Colormap::Viridis, "viridis"},
                                                        {Colormap::Magma, "magma"},
                                                        {Colormap::Diverging, "diverging"}};

std::string_view colormap_name(Colormap map);  // "gray", "viridis", "magma", "diverging"
std::span<const Colormap> all_colormaps();

}  // namespace ks::report
