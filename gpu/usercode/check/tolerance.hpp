#pragma once
// How far a value may be from the reference's and still agree. Two values a (the kernel's) and b (the
// reference's) agree when
//     a == b  (infinities of the same sign too),  or  both are NaN,  or  |a - b| <= abs + rel * max(|a|, |b|)
// with |a - b| finite. So rel alone is a relative bound that demands exactness at 0; abs is the floor that lets
// values which cancel to about zero (a Sobel on a flat region) differ by rounding. A NaN against a number, or an
// infinity against anything else, never agrees.
#include <string>

#include "core/dtype.hpp"
#include "core/image.hpp"

namespace ks::usercode {

struct Tolerance {
  double abs = 0;
  double rel = 0;
  bool operator==(const Tolerance&) const = default;
};

// Integers (u8 pixels, int and unsigned arrays): exact. Floats (f32 pixels, float and double arrays): rel 1e-5
// with abs 1e-5, which for values up to 1 is the 1e-5 * max(|b|, 1) the project's own tests hold its float
// results to.
Tolerance default_tolerance(ElemType type);
Tolerance default_tolerance(DType type);

// A Usage Error unless abs and rel are finite and not negative.
void check_tolerance(const Tolerance& t);

// "exact", "1e-5 relative", "0.5 absolute", "1e-5 relative + 1e-5 absolute".
std::string tolerance_text(const Tolerance& t);

}  // namespace ks::usercode
