#include "report/compile_report_json.hpp"

namespace ks::report {

nlohmann::ordered_json compile_facts_json(const usercode::CompiledModule& m) {
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const auto& f : m.kernels) {
    // null where this NVRTC gave no ptxas report (KernelFacts::resources_reported)
    auto figure = [&](int value) { return f.resources_reported ? nlohmann::ordered_json(value) : nullptr; };
    kernels.push_back({{"name", f.name},
                       {"registers", figure(f.registers)},
                       {"stack_bytes", figure(f.stack_bytes)},
                       {"spill_stores", figure(f.spill_stores)},
                       {"spill_loads", figure(f.spill_loads)},
                       {"shared_bytes", figure(f.shared_bytes)},
                       {"max_threads_per_block", figure(f.max_threads_per_block)}});
  }
  return {{"kernels", std::move(kernels)}, {"log", m.log}, {"compile_ms", m.compile_ms}};
}

}  // namespace ks::report
