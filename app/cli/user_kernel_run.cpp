#include "cli/user_kernel_run.hpp"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <memory>

#include "cli/counters_option.hpp"
#include "cli/request_checks.hpp"
#include "cli/user_kernel_common.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "inputs/image_files.hpp"
#include "io/atomic_file.hpp"
#include "io/image_io.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"
#include "report/report_json.hpp"
#include "report/report_text.hpp"
#include "report/text_format.hpp"
#include "report/comparison_json.hpp"
#include "report/diff_heatmap.hpp"
#include "report/user_run_report.hpp"
#include "registry/registry.hpp"
#include "usercode/check/compare.hpp"
#include "usercode/run/checked_outcome.hpp"
#include "stencil/border.hpp"
#include "usercode/run/user_stencil.hpp"

namespace ks::cli {

namespace {

double parse_border_value(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw_usage(fmt::format("border_value `{}` is not a number", text));
  return v;
}

// The border words of every stencil (`border=`, `border_value=`, as the built-ins take them), taken out of the
// assignments; the rest are the kernel's declared parameters.
struct BorderChoice {
  Border border = Border::Reflect101;
  double value = 0;
};

BorderChoice take_border(std::vector<std::string>& assignments) {
  BorderChoice choice;
  std::vector<std::string> rest;
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    const std::string name = eq == std::string::npos ? a : a.substr(0, eq);
    if (name == "border" && eq != std::string::npos) {
      choice.border = border_from_string(a.substr(eq + 1));
    } else if (name == "border_value" && eq != std::string::npos) {
      choice.value = parse_border_value(a.substr(eq + 1));
    } else {
      rest.push_back(a);
    }
  }
  assignments = std::move(rest);
  return choice;
}

// The built-in kernel a user kernel is checked against: KERNEL[:VARIANT] (variant "cpu" or none: the CPU
// reference), its parameters, and the user's border unless the reference's own parameters name one.
struct Reference {
  std::string label;
  StencilRequest request;
};

Reference parse_reference(const UserKernelRunOptions& opt, const BorderChoice& border) {
  const ComparedKernel compared = parse_compare(opt.compare);
  const KernelSpec& spec = *compared.spec;
  if (spec.category != "stencil")
    throw_usage(fmt::format("--compare {}: a stencil kernel of yours is checked against a built-in stencil, and {} "
                            "is a {} kernel",
                            opt.compare, spec.id, spec.category));
  Reference r;
  r.request.kernel = spec.id;
  r.request.variant = compared.variant;
  const VariantSpec* variant = spec.find_variant(r.request.variant);
  r.request.backend = variant->backend;
  std::vector<std::string> assignments = {fmt::format("border={}", to_string(border.border)),
                                          fmt::format("border_value={}", border.value)};
  assignments.insert(assignments.end(), opt.compare_params.begin(), opt.compare_params.end());
  r.request.params = params_from_assignments(spec, assignments);
  if (auto why = spec.unavailable_reason(r.request.variant, r.request.params))
    throw_usage(fmt::format("--compare {}: {}", opt.compare, *why));
  r.request.keep_alpha = false;  // your kernel filters every channel it is given
  r.request.warmup = 0;
  r.request.repeat = 1;
  r.label = compared.label;
  return r;
}

}  // namespace

int run_user_kernel(const UserKernelRunOptions& opt, const GlobalOptions& global) {
  UserKernelCommon common{opt.kernel_file, opt.params,  opt.block,        opt.checked,
                          opt.timeout_s,   opt.counters, opt.counter_set};
  const BorderChoice border = take_border(common.params);
  PreparedUserKernel prepared;
  if (!prepare_user_kernel(common, "stencil", prepared)) return kKernelDoesNotCompile;
  usercode::UserLaunchOptions launch = prepared.launch;
  launch.warmup = opt.warmup;
  launch.repeat = opt.repeat;
  std::optional<Reference> reference;
  if (!opt.compare.empty()) reference = parse_reference(opt, border);
  if (opt.compare.empty() && (!opt.diff.empty() || opt.abs_tol || opt.rel_tol || !opt.compare_params.empty()))
    throw_usage("--compare-param, --diff, --abs-tol and --rel-tol go with --compare KERNEL[:VARIANT]");
  if (!opt.diff.empty()) inputs::check_output_folder(opt.diff);
  std::optional<ElemType> type = usercode::stencil_form(prepared.kernel).type;
  if (!opt.type.empty()) type = kernel_type_from_string(opt.type);
  inputs::check_output_folder(opt.output);
  if (!opt.json.empty()) inputs::check_output_folder(opt.json);

  inputs::InputImage input = inputs::load_input(opt.input);
  const ImageShape input_shape = input.image.shape();
  const auto loaded = std::make_shared<const Image>(std::move(input.image));
  const std::shared_ptr<const Image> image = prepare_stencil_input(loaded, type);
  start_user_worker(common, "stencil", prepared);
  const usercode::CompiledKernel& kernel = prepared.kernel;

  usercode::UserStencilRun run = usercode::run_user_stencil(*prepared.worker, kernel, *image,
                                                                  static_cast<int>(border.border), border.value, launch);
  throw_unless_ok(run.reply, opt.checked);
  // A checked run that went out of bounds: its output holds skipped accesses, so nothing is written.
  if (const auto violation = usercode::checked_violation(run.reply, {"in", "out"}))
    throw Error(ErrorKind::Device, "your kernel went outside its images: " + *violation,
                "fix the index at that access; nothing was written");

  Engine engine(Engine::Options{global.threads});
  std::optional<usercode::Comparison> comparison;
  if (reference) {
    const StencilResult expected = engine.run_stencil(*image, reference->request);
    const usercode::Tolerance tolerance =
        chosen_tolerance(usercode::default_tolerance(image->type()), opt.abs_tol, opt.rel_tol);
    comparison = usercode::compare_images(run.output, expected.output, tolerance, &engine.pool());
    if (!opt.diff.empty()) {
      const Image diff = usercode::difference_image(run.output, expected.output, &engine.pool());
      save_image(report::diff_heatmap(diff), opt.diff);
    }
  }
  report::UserRunContext context;
  context.file_name = opt.kernel_file;
  context.kernel = &kernel;
  context.device = prepared.worker->hello().device;
  const DeviceInfo& device = engine.cuda().device();
  context.device_info = &device;
  context.copy_bandwidth_gbps = engine.cuda().copy_bandwidth_gbps();
  context.peaks = engine.peaks(Backend::Cuda);
  for (std::size_t i = 0; i < kernel.declarations.parameters.size(); ++i)
    context.params.emplace_back(kernel.declarations.parameters[i].name, fmt::format("{:g}", launch.params[i]));
  context.params.emplace_back("border", to_string(border.border));
  const RunReport report = report::user_stencil_report(context, image->shape(), run.block, run.reply);
  if (opt.counters) say_no_counters(report.counters_unavailable);

  save_image(inputs::to_file_layout(std::move(run.output), input_shape), opt.output);
  if (!opt.json.empty()) {
    nlohmann::ordered_json j = to_json(report, &device);
    j["input"] = {{"path", input.name}, {"image", to_json(input_shape)}};
    j["output"] = opt.output;
    j["warmup"] = opt.warmup;
    j["user_kernel"] = report::user_kernel_json(opt.kernel_file, kernel);
    if (opt.checked) j["checked"] = {{"violation", nullptr}};
    if (comparison) {
      j["comparison"] = report::comparison_json(*comparison);
      j["comparison"]["reference"] = reference->label;
    }
    write_text_atomically(opt.json, j.dump(2) + "\n");
  }
  fmt::print("input {} ({})\n", input.name, report::format_shape(input_shape));
  fmt::print("your kernel {} ({}), compiled for {} in {:.0f} ms{}\n", kernel.entry_facts().name, opt.kernel_file,
             prepared.worker->hello().arch, kernel.module->compile_ms, kernel.from_cache ? " (cached)" : "");
  fmt::print("{}", report::run_report_text(report));
  fmt::print("{}", report::why_paragraph(report::explain_why(report, &device), report.counters.has_value()));
  if (opt.checked) fmt::print("checked: no access outside the images\n");
  if (comparison) fmt::print("{}\n", comparison_line(reference->label, *comparison));
  fmt::print("wrote {}\n", opt.output);
  if (!opt.json.empty()) fmt::print("wrote {}\n", opt.json);
  if (!opt.diff.empty()) fmt::print("wrote {} (|difference| as a heatmap)\n", opt.diff);
  // A result that differs from its reference is a failure of the kernel, as a lab run that disagrees with the CPU.
  return comparison && !comparison->matches() ? 1 : 0;
}

}  // namespace ks::cli
