#pragma once
// The JSON form of what the compiler made of a user's kernel: what `compile --json` writes and the Python
// module's ks.compile(...).report. {"kernels": [{"name", "registers", "stack_bytes", "spill_stores",
// "spill_loads", "shared_bytes", "max_threads_per_block"}], "log", "compile_ms"}; a figure is null where this
// NVRTC gave no ptxas report (KernelFacts::resources_reported).
#include <nlohmann/json.hpp>

#include "usercode/compiled_module.hpp"

namespace ks::report {

nlohmann::ordered_json compile_facts_json(const usercode::CompiledModule& module);

}  // namespace ks::report
