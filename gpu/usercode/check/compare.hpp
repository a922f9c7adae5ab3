#pragma once
// Checking a kernel's output against a reference's (issue 24, "Check it"): images of any element type and channel
// count (kernels make u8 and f32, 1 or 4 channels) and 1-D arrays of float, double, int and unsigned (a scalar out
// is an array of one). Each value is held to a Tolerance (tolerance.hpp: |a - b| <= abs + rel * max(|a|, |b|),
// NaN agrees only with NaN); the outcome is a Comparison (comparison.hpp). Outputs that cannot be compared (other
// sizes, channels or types) are a Usage Error before any value is read. With a pool the work is split over its
// threads (the outcome is the same: blocks of values merge in order); without, it runs on the caller's thread.
#include <cstdint>
#include <span>

#include "core/image.hpp"
#include "core/ndarray.hpp"
#include "core/thread_pool.hpp"
#include "usercode/check/comparison.hpp"
#include "usercode/check/tolerance.hpp"

namespace ks::usercode {

// Pixels in row-major order; a pixel differs when any of its channels does. Without a tolerance, the default for
// the reference's element type (u8 exact, f32 1e-5 relative + 1e-5 absolute).
Comparison compare_images(const Image& got, const Image& reference, const Tolerance& tolerance,
                          ThreadPool* pool = nullptr);
Comparison compare_images(const Image& got, const Image& reference, ThreadPool* pool = nullptr);

// |got - reference| per pixel, the largest over its channels, as a 1-channel f32 image of the same size (the
// differences the Comparison counts: a NaN against a number is +infinity, two NaNs 0). The app shows it as a
// heatmap (app/report/diff_heatmap.hpp).
Image difference_image(const Image& got, const Image& reference, ThreadPool* pool = nullptr);

Comparison compare_arrays(std::span<const float> got, std::span<const float> reference, const Tolerance& tolerance,
                          ThreadPool* pool = nullptr);
Comparison compare_arrays(std::span<const double> got, std::span<const double> reference, const Tolerance& tolerance,
                          ThreadPool* pool = nullptr);
Comparison compare_arrays(std::span<const std::int32_t> got, std::span<const std::int32_t> reference,
                          const Tolerance& tolerance, ThreadPool* pool = nullptr);
Comparison compare_arrays(std::span<const std::uint32_t> got, std::span<const std::uint32_t> reference,
                          const Tolerance& tolerance, ThreadPool* pool = nullptr);
// Arrays of the lab's kind (f32, f64, i32, u32; any shape, compared element by element in C order). Without a
// tolerance, the default for the reference's type (integers exact, floats 1e-5 relative + 1e-5 absolute).
Comparison compare_arrays(const NdArray& got, const NdArray& reference, const Tolerance& tolerance,
                          ThreadPool* pool = nullptr);
Comparison compare_arrays(const NdArray& got, const NdArray& reference, ThreadPool* pool = nullptr);

}  // namespace ks::usercode
