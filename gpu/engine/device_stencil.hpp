#pragma once
// Stencils on images already on the GPU: the Python module's CuPy and Numba arrays go in and come out without
// a trip through the host.
#include "core/device_image_ref.hpp"
#include "engine/engine.hpp"

namespace ks {

// Runs a stencil kernel of the registry on the CUDA backend (request.backend must say so) on `input`, device
// memory of the engine's CUDA device that the caller keeps alive during the call. Checks as
// Engine::run_stencil does. The result is left on the GPU in StencilResult::output_device (a new pitched
// allocation; with keep_alpha, 4 channels take the input's alpha); StencilResult::output stays empty and
// download_ms is 0. The report is run_stencil's.
StencilResult run_stencil_on_device(Engine& engine, const DeviceImageRef& input,
                                    const StencilRequest& request);

}  // namespace ks
