#pragma once
// The launch overlay's words, apart from its drawing so the tests can read them: the header over the image
// (which launch, on which device, how many blocks and idle threads) and the hover text of one pixel (its
// blockIdx and threadIdx, the window it reads).
#include <string>
#include <vector>

#include "core/launch_geometry.hpp"
#include "session/launch/launch_picture.hpp"

namespace ks::app {

// "tiled on H100 SXM (model)", "grid 40 x 75 blocks of 32 x 8 threads = 96000 threads", "1234 idle threads
// (1.3%) in the partial blocks at the right and bottom edges", how the kernel maps threads; or why there is
// no picture.
std::vector<std::string> describe_launch(const LaunchPicture& picture);

// "pixel (37, 12)", "blockIdx (1, 1)  threadIdx (5, 4)", "reads 5 x 5 pixels: x 35..39, y 10..14", and for a
// shared tile where that window comes from.
std::vector<std::string> describe_pixel(const LaunchGeometry& geometry, int x, int y);

}  // namespace ks::app
