#pragma once
// The JSON form of the registry's kernel descriptions (what `list --json` prints). Free of CLI concerns.
#include <nlohmann/json.hpp>

#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"

namespace ks {

const char* to_string(ParamType type) noexcept;  // "int", "float", "bool", "choice", "matrix"

// {"name", "type", "help", "default", "range", and "min"/"max" (int, float), "choices" (choice),
//  "matrix_max_size" (matrix)}
nlohmann::ordered_json to_json(const ParamSpec& param);
// {"id", "title", "category", "description", "params": [...], "variants": [{"name", "backend", "help",
//  "available"}], "types": ["u8", ...], "channels": [1, 4]}. `cuda_available` fills each variant's
//  "available"; lab kernels also "lab": {"size_form", "min", "max", "default_size", "splits", "block_rank",
//  "default_block", "makes_image"}.
nlohmann::ordered_json to_json(const KernelSpec& kernel, bool cuda_available);

}  // namespace ks
