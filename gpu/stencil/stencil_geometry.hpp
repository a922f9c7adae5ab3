#pragma once
// The launch geometry of a stencil variant, for the launch overlay and the device models: exact for the
// variants with one thread per pixel (naive and tiled, window filters and median alike); none for the others,
// with the reason in words, rather than a picture that is not what the kernel does.
#include <optional>
#include <string>

#include "core/launch_geometry.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks {

struct StencilGeometry {
  std::optional<LaunchGeometry> geometry;
  std::string why_not;  // when there is none
};

StencilGeometry stencil_geometry(const StencilPlan& plan, const std::string& variant, int width, int height,
                                 BlockShape block);

}  // namespace ks
