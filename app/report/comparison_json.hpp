#pragma once
// A check against a reference (usercode::Comparison) as JSON, for `run --kernel-file --compare` and the app's
// exports:
//   {"matches": true | false, "compared": 1048576, "unit": "pixels" | "elements", "differing": 312,
//    "fraction": 0.000297, "max_abs_diff": 0.5,
//    "max_at": {"x", "y", "channel", "got", "expected"} (arrays: {"index", "got", "expected"}) | null,
//    "first": the same for the first value beyond the tolerance | null,
//    "nan_mismatches": 0, "tolerance": {"abs": 1e-05, "rel": 1e-05}, "summary": "differs: 312 of ..."}
// Numbers that are not finite (a NaN got, an infinite max_abs_diff) are null, as in every report of kernelscope;
// the summary spells them out.
#include <nlohmann/json.hpp>

#include "usercode/check/comparison.hpp"

namespace ks::report {

nlohmann::ordered_json comparison_json(const usercode::Comparison& comparison);

}  // namespace ks::report
