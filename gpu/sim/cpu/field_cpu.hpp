#pragma once
// Heat and Gray-Scott on the host: the references of the CUDA variants, with the same per-cell arithmetic
// (sim_math.hpp), so that both give bit-identical fields.
#include "core/image.hpp"
#include "sim/sim_math.hpp"

namespace ks {
class ThreadPool;
}

namespace ks::sim::cpu {

// One step; images are width x height f32, 1 channel. `fixed` is the outside value of FieldBoundary::Fixed.
void heat_step(const Image& in, Image& out, FieldBoundary boundary, float fixed, const HeatCoefficients& c,
               ThreadPool& pool);
void grayscott_step(const Image& u, const Image& v, Image& u_out, Image& v_out, FieldBoundary boundary,
                    const GrayScottCoefficients& c, ThreadPool& pool);

}  // namespace ks::sim::cpu
