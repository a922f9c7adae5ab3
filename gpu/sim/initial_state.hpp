#pragma once
// The state a simulation starts from (and returns to on reset): a random fill or hot spots from the kernel's
// parameters, an image's luminance, or (Life) a pattern placed at the centre of the grid.
#include <optional>

#include "core/image.hpp"
#include "sim/rle.hpp"
#include "sim/cpu/life_cpu.hpp"
#include "sim/sim_backend.hpp"

namespace ks::sim {

// Luminance of each pixel in 0..1 (Rec. 601 for colour; the first channel of gray + alpha; u16 / 65535;
// f32 as stored), as a 1-channel f32 image.
Image luminance(const Image& image);

// Usage Error when the pattern is larger than the grid.
void check_pattern_fits(const LifePattern& pattern, int width, int height);
// Usage Error when the pattern is larger than the grid (check_pattern_fits).
Fields initial_fields(const SimModel& model, const std::optional<Image>& image, const std::optional<LifePattern>& pattern);

// Life's initial state straight into packed words (the cells initial_fields gives, without the byte per cell
// that a 65536 x 65536 grid could not spare: 4.3 GB against 537 MB).
cpu::LifeWords initial_life_words(const SimModel& model, const std::optional<Image>& image,
                                  const std::optional<LifePattern>& pattern);

}  // namespace ks::sim
