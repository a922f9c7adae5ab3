#include "cli/user_kernel_run.hpp"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <memory>

#include "cli/request_checks.hpp"
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
#include "usercode/diagnostics.hpp"
#include "usercode/run/user_params.hpp"
#include "usercode/run/user_stencil.hpp"
#include "usercode/run/worker_client.hpp"
#include "usercode/source_text.hpp"

namespace ks::cli {

namespace {

constexpr int kDoesNotCompile = 2;

double parse_border_value(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw_usage(fmt::format("border_value `{}` is not a number", text));
  return v;
}

// The border words of every stencil, taken out of the assignments; the rest are the kernel's own parameters.
struct BorderChoice {
  Border border = Border::Reflect101;
  double value = 0;
};

BorderChoice take_border(std::vector<std::string>& assignments, const usercode::KernelDeclarations& declarations) {
  auto declared = [&](const std::string& name) {
    for (const auto& p : declarations.parameters)
      if (p.name == name) return true;
    return false;
  };
  BorderChoice choice;
  std::vector<std::string> rest;
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    const std::string name = eq == std::string::npos ? a : a.substr(0, eq);
    if (name == "border" && !declared(name)) {
      choice.border = border_from_string(a.substr(eq + 1));
    } else if (name == "border_value" && !declared(name)) {
      choice.value = parse_border_value(a.substr(eq + 1));
    } else {
      rest.push_back(a);
    }
  }
  assignments = std::move(rest);
  return choice;
}

usercode::CompiledKernel compile_or_report(const UserKernelRunOptions& opt, const std::string& source,
                                           const std::string& arch) {
  usercode::CompileRequest request;
  request.file_name = opt.kernel_file;
  request.source = source;
  request.family = "stencil";
  request.options.arch = arch;
  if (opt.checked) request.options.extra.push_back("-DKS_CHECKED");
  return usercode::compile_user_kernel(request);
}

}  // namespace

int run_user_kernel(const UserKernelRunOptions& opt, const GlobalOptions& global) {
  // The kernel first: it compiles without a GPU, and a kernel that does not compile is a bad request.
  const std::string source = usercode::read_kernel_source(opt.kernel_file);
  usercode::CompiledKernel kernel = compile_or_report(opt, source, "sm_90");
  for (const auto& d : kernel.module->diagnostics) fmt::print(stderr, "{}\n", usercode::format_diagnostic(d));
  if (!kernel.ok()) {
    const int errors = usercode::count_errors(kernel.module->diagnostics);
    fmt::print(stderr, "error: {} does not compile ({} error{}). Fix the lines above and run again\n",
               opt.kernel_file, errors, errors == 1 ? "" : "s");
    return kDoesNotCompile;
  }
  std::vector<std::string> assignments = opt.params;
  const BorderChoice border = take_border(assignments, kernel.declarations);
  usercode::UserLaunchOptions launch;
  launch.params = usercode::user_param_values(kernel.declarations, assignments);
  if (!opt.block.empty()) {
    const BlockShape b = parse_block_shape(opt.block);
    launch.block = {static_cast<unsigned>(b.x), static_cast<unsigned>(b.y)};
  }
  launch.warmup = opt.warmup;
  launch.repeat = opt.repeat;
  launch.checked = opt.checked;
  const usercode::StencilForm form = usercode::stencil_form(kernel);
  std::optional<ElemType> type = form.type;
  if (!opt.type.empty()) type = kernel_type_from_string(opt.type);
  inputs::check_output_folder(opt.output);
  if (!opt.json.empty()) inputs::check_output_folder(opt.json);

  inputs::InputImage input = inputs::load_input(opt.input);
  const ImageShape input_shape = input.image.shape();
  const auto loaded = std::make_shared<const Image>(std::move(input.image));
  const std::shared_ptr<const Image> image = prepare_stencil_input(loaded, type);

  usercode::WorkerClient::Options worker_options;
  worker_options.launch_timeout = std::chrono::milliseconds(static_cast<long long>(opt.timeout_s * 1000));
  usercode::WorkerClient worker(worker_options);
  const usercode::WorkerHello& hello = worker.hello();
  if (!hello.ok)
    throw Error(ErrorKind::Device, "cannot run your kernel: " + hello.message,
                "running your own kernel needs an NVIDIA GPU; `kernelscope-cli compile` works without one");
  if (hello.arch != "sm_90") kernel = compile_or_report(opt, source, hello.arch);

  const usercode::UserStencilRun run =
      usercode::run_user_stencil(worker, kernel, *image, static_cast<int>(border.border), border.value, launch);
  if (run.reply.outcome != usercode::RunOutcome::Ok) {
    std::string hint = "fix the kernel and run again";
    if (run.reply.outcome == usercode::RunOutcome::Fault && !opt.checked)
      hint = "run with --checked to find the first access outside the image";
    throw Error(ErrorKind::Device, run.reply.message, hint);
  }

  Engine engine(Engine::Options{global.threads});
  report::UserRunContext context;
  context.file_name = opt.kernel_file;
  context.kernel = &kernel;
  context.device = hello.device;
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
             hello.arch, kernel.module->compile_ms, kernel.from_cache ? " (cached)" : "");
  fmt::print("{}", report::run_report_text(report));
  fmt::print("wrote {}\n", opt.output);
  if (!opt.json.empty()) fmt::print("wrote {}\n", opt.json);
  return 0;
}

}  // namespace ks::cli
