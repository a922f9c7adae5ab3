#include "cli/user_kernel_run.hpp"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <memory>

#include "cli/request_checks.hpp"
#include "cli/user_kernel_common.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "inputs/image_files.hpp"
#include "io/atomic_file.hpp"
#include "io/image_io.hpp"
#include "report/report_json.hpp"
#include "report/report_text.hpp"
#include "report/text_format.hpp"
#include "report/user_run_report.hpp"
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

}  // namespace

int run_user_kernel(const UserKernelRunOptions& opt, const GlobalOptions& global) {
  UserKernelCommon common{opt.kernel_file, opt.params, opt.block, opt.checked, opt.timeout_s};
  const BorderChoice border = take_border(common.params);
  PreparedUserKernel prepared;
  if (!prepare_user_kernel(common, "stencil", prepared)) return kKernelDoesNotCompile;
  usercode::UserLaunchOptions launch = prepared.launch;
  launch.warmup = opt.warmup;
  launch.repeat = opt.repeat;
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

  const usercode::UserStencilRun run = usercode::run_user_stencil(*prepared.worker, kernel, *image,
                                                                  static_cast<int>(border.border), border.value, launch);
  throw_unless_ok(run.reply, opt.checked);

  Engine engine(Engine::Options{global.threads});
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

  save_image(inputs::to_file_layout(Image(run.output), input_shape), opt.output);
  if (!opt.json.empty()) {
    nlohmann::ordered_json j = to_json(report);
    j["input"] = {{"path", input.name}, {"image", to_json(input_shape)}};
    j["output"] = opt.output;
    j["warmup"] = opt.warmup;
    j["user_kernel"] = report::user_kernel_json(opt.kernel_file, kernel);
    write_text_atomically(opt.json, j.dump(2) + "\n");
  }
  fmt::print("input {} ({})\n", input.name, report::format_shape(input_shape));
  fmt::print("your kernel {} ({}), compiled for {} in {:.0f} ms{}\n", kernel.entry_facts().name, opt.kernel_file,
             prepared.worker->hello().arch, kernel.module->compile_ms, kernel.from_cache ? " (cached)" : "");
  fmt::print("{}", report::run_report_text(report));
  fmt::print("wrote {}\n", opt.output);
  if (!opt.json.empty()) fmt::print("wrote {}\n", opt.json);
  return 0;
}

}  // namespace ks::cli
