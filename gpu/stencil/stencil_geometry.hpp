#pragma once
// The launch geometry of a stencil variant, for the launch overlay and the device models: exact for naive (one
// thread per pixel) and tiled (its kernel and tile as stencil/tiled_design.hpp chooses them: one pixel per thread
// for the lesson kernel, a quad of elements and a few rows for the median and the non-separable filters); none
// for separable and the gaussian's recursive, with the reason in words, rather than a picture that is not what the
// kernel does.
#include <optional>
#include <string>

#include "core/image.hpp"
#include "core/launch_geometry.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks {

struct StencilGeometry {
  std::optional<LaunchGeometry> geometry;
  std::string why_not;  // when there is none
};

StencilGeometry stencil_geometry(const StencilPlan& plan, const std::string& variant, int width, int height,
                                 BlockShape block, ElemType type = ElemType::U8, int channels = 1);

}  // namespace ks
