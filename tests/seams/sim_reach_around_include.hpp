#pragma once
// Reaches around the include roots with `..`: the compiler would find it relative to this file, so
// cmake/CheckGpuIncludes.cmake must refuse it (tests/seams/CMakeLists.txt runs the check on this file).
#include "../../gpu/stencil/border.hpp"
