#include "cli/user_kernel_common.hpp"

#include <fmt/format.h>

#include <chrono>

#include "cli/counters_option.hpp"
#include "core/error.hpp"
#include "core/launch_shape.hpp"
#include "registry/registry.hpp"
#include "usercode/diagnostics.hpp"
#include "usercode/run/user_params.hpp"
#include "usercode/source_text.hpp"

namespace ks::cli {

namespace {

usercode::CompiledKernel compile(const UserKernelCommon& c, const std::string& source, const std::string& family,
                                 const std::string& arch) {
  usercode::CompileRequest request;
  request.file_name = c.kernel_file;
  request.source = source;
  request.family = family;
  request.options.arch = arch;
  if (c.checked) request.options.extra.push_back("-DKS_CHECKED");
  return usercode::compile_user_kernel(request);
}

// "256" (1-D) or "32x8".
std::array<unsigned, 2> parse_user_block(const std::string& text) {
  if (text.find_first_of("xX") == std::string::npos) {
    const BlockShape b = parse_block_shape(text + "x1");
    return {static_cast<unsigned>(b.x), 1};
  }
  const BlockShape b = parse_block_shape(text);
  return {static_cast<unsigned>(b.x), static_cast<unsigned>(b.y)};
}

}  // namespace

bool prepare_user_kernel(const UserKernelCommon& c, const std::string& family, PreparedUserKernel& out) {
  out.source = usercode::read_kernel_source(c.kernel_file);
  out.kernel = compile(c, out.source, family, "sm_90");
  for (const auto& d : out.kernel.module->diagnostics) fmt::print(stderr, "{}\n", usercode::format_diagnostic(d));
  if (!out.kernel.ok()) {
    const int errors = usercode::count_errors(out.kernel.module->diagnostics);
    fmt::print(stderr, "error: {} does not compile ({} error{}). Fix the lines above and run again\n", c.kernel_file,
               errors, errors == 1 ? "" : "s");
    return false;
  }
  out.launch.params = usercode::user_param_values(out.kernel.declarations, c.params);
  out.launch.checked = c.checked;
  out.launch.counters = c.counters;
  out.launch.counter_set = c.counter_set;
  if (!c.block.empty()) {
    out.launch.block = parse_user_block(c.block);
    usercode::check_user_block(out.kernel, out.launch.block);
  }
  return true;
}

std::optional<KernelCounters> user_counters(const usercode::WorkerReply& reply, bool asked) {
  if (!asked) return std::nullopt;
  if (!reply.counters) {
    say_no_counters("the worker sent none back (a bug in kernelscope)");
    return std::nullopt;
  }
  say_no_counters(reply.counters->unavailable);
  return reply.counters->counters;
}

void start_user_worker(const UserKernelCommon& c, const std::string& family, PreparedUserKernel& out) {
  usercode::WorkerClient::Options options;
  options.launch_timeout = std::chrono::milliseconds(static_cast<long long>(c.timeout_s * 1000));
  out.worker = std::make_unique<usercode::WorkerClient>(options);
  const usercode::WorkerHello& hello = out.worker->hello();
  if (!hello.ok)
    throw Error(ErrorKind::Device, "cannot run your kernel: " + hello.message,
                "running your own kernel needs an NVIDIA GPU; `kernelscope-cli compile` works without one");
  if (hello.arch != "sm_90") out.kernel = compile(c, out.source, family, hello.arch);
}

void throw_unless_ok(const usercode::WorkerReply& reply, bool checked) {
  if (reply.outcome == usercode::RunOutcome::Ok) return;
  std::string hint = "fix the kernel and run again";
  if (reply.outcome == usercode::RunOutcome::Fault && !checked)
    hint = "run with --checked to find the first access outside the buffers";
  if (reply.outcome == usercode::RunOutcome::TimedOut)
    hint = "fix the loop, or give a slow kernel more time with --timeout SECONDS";
  throw Error(ErrorKind::Device, reply.message, hint);
}

ComparedKernel parse_compare(const std::string& text) {
  const auto colon = text.find(':');
  ComparedKernel c;
  c.spec = &KernelRegistry::builtin().get(text.substr(0, colon));
  c.variant = colon == std::string::npos ? "cpu" : text.substr(colon + 1);
  if (!c.spec->find_variant(c.variant))
    throw_usage(fmt::format("{} has no variant `{}`", c.spec->id, c.variant),
                "see `kernelscope-cli list` for its variants");
  c.label = c.spec->id + ":" + c.variant;
  return c;
}

usercode::Tolerance chosen_tolerance(usercode::Tolerance defaults, std::optional<double> abs_tol,
                                     std::optional<double> rel_tol) {
  if (abs_tol) defaults.abs = *abs_tol;
  if (rel_tol) defaults.rel = *rel_tol;
  usercode::check_tolerance(defaults);  // a usage Error for a negative or non-finite one
  return defaults;
}

std::string comparison_line(const std::string& label, const usercode::Comparison& comparison) {
  return fmt::format("check against {}: {}", label, usercode::comparison_summary(comparison));
}

}  // namespace ks::cli
