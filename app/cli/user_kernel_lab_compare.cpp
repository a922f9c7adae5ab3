#include "cli/user_kernel_lab_compare.hpp"

#include <fmt/format.h>

#include "cli/request_checks.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "lab/lab.hpp"

namespace ks::cli {

std::optional<LabComparePlan> plan_lab_compare(const LabCompareOptions& opt, const usercode::ArrayForm& form) {
  if (opt.compare.empty()) {
    if (opt.abs_tol || opt.rel_tol || !opt.compare_params.empty())
      throw_usage("--compare-param, --abs-tol and --rel-tol go with --compare KERNEL[:VARIANT]");
    return std::nullopt;
  }
  LabComparePlan plan;
  plan.reference = parse_compare(opt.compare);
  const KernelSpec& spec = *plan.reference.spec;
  if (!spec.lab) {
    const std::vector<std::string> fitting = inputs::fitting_lab_kernels(form);
    std::string ids;
    for (const auto& id : fitting) ids += (ids.empty() ? "" : ", ") + id;
    throw_usage(fmt::format("--compare {}: an array kernel of yours is checked against a lab kernel, and {} is a {} "
                            "kernel",
                            opt.compare, spec.id, spec.category),
                fitting.empty() ? std::string("no lab kernel takes ") + inputs::describe_array_form(form)
                                : "lab kernels that fit yours: " + ids);
  }
  plan.params = params_from_assignments(spec, opt.compare_params);
  plan.mapping = inputs::lab_array_mapping(spec, plan.params, form);
  return plan;
}

std::vector<NdArray> lab_compare_inputs(Engine& engine, const LabComparePlan& plan, std::int64_t n, std::uint64_t seed,
                                        std::vector<NdArray> given) {
  const KernelSpec& spec = *plan.reference.spec;
  lab::LabRequest request;
  request.kernel = spec.id;
  request.size = lab::LabSize::elements(n);
  request.params = plan.params;
  request.variant = plan.reference.variant;
  request.backend = spec.find_variant(plan.reference.variant)->backend;
  lab::check_lab_request(engine, request, false);  // n within the lab kernel's limits, before anything runs
  std::vector<NdArray> named;
  for (std::size_t k = 0; k < given.size() && k < plan.mapping.inputs.size(); ++k) {
    if (given[k].data.empty()) continue;
    if (given[k].type != plan.mapping.lab_input_type)
      throw_usage(fmt::format("in{} is {}'s `{}`, which holds {} values; the file holds {}", k + 1, spec.id,
                              plan.mapping.inputs[k], to_string(plan.mapping.lab_input_type), to_string(given[k].type)),
                  fmt::format("give a 1-D {} .npy, or leave --in out and it is generated", to_string(plan.mapping.lab_input_type)));
    given[k].name = plan.mapping.inputs[k];
    named.push_back(std::move(given[k]));
  }
  return inputs::lab_inputs(spec, lab::LabSize::elements(n), plan.params, seed, engine.pool(), plan.mapping,
                            std::move(named));
}

}  // namespace ks::cli
