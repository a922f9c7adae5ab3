#include "gui/screenshot_user_kernel.hpp"

#include <fmt/format.h>

#include <memory>

#include "core/error.hpp"
#include "gui/screenshot.hpp"
#include "inputs/lab_user_inputs.hpp"
#include "inputs/step_reference.hpp"
#include "registry/registry.hpp"
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"
#include "usercode/diagnostics.hpp"
#include "usercode/run/user_array.hpp"
#include "usercode/run/user_params.hpp"
#include "usercode/run/user_stencil.hpp"
#include "usercode/run/user_step.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::app {

namespace {

struct CompareText {
  std::string kernel, variant;  // variant empty when none is named
};

CompareText split_compare(const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) return {text, {}};
  return {text.substr(0, colon), text.substr(colon + 1)};
}

// The compiler's diagnostics as the CLI prints them, errors and warnings, at the file's own lines.
std::string diagnostics_text(const std::vector<usercode::Diagnostic>& diagnostics) {
  std::string text;
  for (const usercode::Diagnostic& d : diagnostics) {
    text += '\n';
    text += usercode::format_diagnostic(d);
  }
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The first error the session noted while the kernel ran: what the app shows in its status bar and dialogs (a run
// that could not start, a fault, a reference that failed).
void throw_noted_error(Session& session, const std::string& file_name) {
  for (const Notice& n : session.take_notices())
    if (n.level == Notice::Level::Error) throw Error(ErrorKind::Device, file_name + ": " + n.text);
}

[[noreturn]] void no_check(const std::string& file_name, const std::string& reference) {
  throw Error(ErrorKind::Internal,
              fmt::format("{} ran, and its check against {} did not come back", file_name, reference));
}

void run_stencil(Session& session, const ScreenshotRequest& r, const ScreenshotUserKernel& user) {
  if (session.kernel().category != "stencil")
    throw_usage(fmt::format("{} is a stencil kernel, and {} is not an image stencil", user.choice.file_name,
                            session.kernel().id),
                "check it against one with --compare, e.g. --compare box:naive");
  session.use_user_kernel(user.choice);
  const ElemType takes = usercode::stencil_form(*user.choice.kernel).type;
  if (!r.type.empty() && elem_type_from_string(r.type) != takes)
    throw_usage(fmt::format("{} takes {} images, and --type asks for {}", user.choice.file_name, to_string(takes),
                            r.type),
                fmt::format("drop --type (the image runs as {}), or write the kernel for {}", to_string(takes), r.type));
  if (r.show_difference) session.stencil().set_show_difference(true);  // the check then makes the heatmap
  session.run_now();  // throws the run's error: the app's words
  session.wait_idle();  // the CPU reference starts once the result is in, and the check with it
  throw_noted_error(session, user.choice.file_name);
  const auto& check = session.stencil().user_check();
  if (!check || (r.show_difference && !check->heatmap)) no_check(user.choice.file_name, session.kernel().id);
}

void run_array(Session& session, const ScreenshotUserKernel& user) {
  if (!session.in_lab())
    throw_usage(fmt::format("{} is an array kernel, checked in the Lab, and {} is not a lab kernel",
                            user.choice.file_name, session.kernel().id),
                "check it against a lab kernel it fits, e.g. --compare vecadd");
  // A usage Error naming the lab kernels it fits (the app would choose one of them by itself).
  inputs::lab_array_mapping(session.kernel(), session.params(), usercode::array_form(*user.choice.kernel));
  const auto settle = [&] {
    session.wait_idle();
    if (const auto& error = session.lab().last_error()) throw *error;
    throw_noted_error(session, user.choice.file_name);
  };
  session.use_user_array_kernel(user.choice);  // runs it at once
  settle();  // without a GPU, the run's words before those of a GPU variant to check against
  if (!user.lab_reference.empty()) {
    session.lab().set_user_reference(user.lab_reference);  // and runs it again
    settle();
  }
  if (!session.lab().user_check())
    no_check(user.choice.file_name, session.lab().spec().id + ":" + session.lab().user_reference());
}

void run_step(Session& session, const ScreenshotRequest& r, const ScreenshotUserKernel& user) {
  // A usage Error naming the simulation that fits (the app would choose it by itself).
  inputs::check_step_reference(session.kernel().id, usercode::step_element(*user.choice.kernel));
  session.use_user_step_kernel(user.choice);
  session.simulation().set_playing(false);  // the frame shows exactly --steps steps of the user's kernel
  if (r.show_difference) session.simulation().set_show_difference(true);
  session.wait_idle();  // its start, and the check of one step from there
  if (const auto& error = session.simulation().error()) throw *error;
  throw_noted_error(session, user.choice.file_name);
  if (!session.simulation().user_check()) no_check(user.choice.file_name, session.kernel().id);
}

}  // namespace

void check_user_kernel_options(const ScreenshotRequest& r) {
  if (!r.kernel_file) {
    const char* option = !r.compare.empty()        ? "--compare"
                         : r.show_difference       ? "--show-difference"
                         : !r.kernel_params.empty() ? "--kernel-param"
                                                    : nullptr;
    if (option)
      throw_usage(fmt::format("{} goes with --kernel-file (your own kernel)", option),
                  "give --kernel-file FILE.cu, or drop " + std::string(option));
    return;
  }
  if (r.backend == "cpu")
    throw_usage("--kernel-file runs your kernel on the GPU, and --backend cpu says not to use CUDA",
                "drop --backend cpu (the CPU reference it is checked against runs on the CPU anyway)");
  if (r.compare.empty()) return;
  const CompareText compare = split_compare(r.compare);
  const KernelSpec& spec = KernelRegistry::builtin().get(compare.kernel);  // a usage Error names the kernels
  if (!compare.variant.empty() && !spec.find_variant(compare.variant)) {
    std::string known;
    for (const VariantSpec& v : spec.variants) known += (known.empty() ? "" : ", ") + v.name;
    throw_usage(fmt::format("--compare {}: {} has no variant '{}'", r.compare, spec.id, compare.variant),
                "its variants are: " + known);
  }
  if (!r.kernel.empty() && r.kernel != compare.kernel)
    throw_usage(fmt::format("--kernel {} and --compare {} name two kernels to check against", r.kernel, r.compare),
                "give the reference once, with --compare");
}

ScreenshotUserKernel compile_screenshot_kernel(const Session& session, const ScreenshotRequest& r) {
  const std::string path = r.kernel_file->string();
  usercode::CompileRequest request;
  request.file_name = path;  // the compiler's messages name the file as given
  request.source = usercode::read_kernel_source(*r.kernel_file);
  const DeviceInfo& device = session.device().info;
  // The GPU's own architecture; without one, the H100's, as the kernel editor compiles (errors come all the same).
  request.options.arch =
      session.device().cuda ? fmt::format("sm_{}{}", device.cc_major, device.cc_minor) : std::string("sm_90");
  auto kernel = std::make_shared<usercode::CompiledKernel>(usercode::compile_user_kernel(request));
  if (!kernel->ok()) {
    const int errors = usercode::count_errors(kernel->module->diagnostics);
    throw_usage(fmt::format("{} does not compile ({} error{}); fix it and take the screenshot again:{}", path, errors,
                            errors == 1 ? "" : "s", diagnostics_text(kernel->module->diagnostics)));
  }
  if (!kernel->family)
    throw_usage(fmt::format("{} declares no family, so it has no place to run in the app", path),
                "add `// @family stencil`, `array` or `step` (README, \"Your own kernel\")");

  ScreenshotUserKernel user;
  user.family = *kernel->family;
  const std::string file_name = r.kernel_file->filename().string();  // as the editor and the playlists name it
  user.choice = {kernel, file_name, usercode::user_param_values(kernel->declarations, r.kernel_params)};
  const CompareText compare = split_compare(r.compare);
  user.kernel = r.compare.empty() ? r.kernel : compare.kernel;
  // The app's choice where none is given, made first so that --steps, --grid and the --lab-* options apply to it:
  // the simulation whose cells the kernel keeps, the first lab kernel it fits (a stencil stays on the default box).
  if (user.kernel.empty() && user.family == usercode::Family::Step)
    user.kernel = inputs::simulation_for_step(usercode::step_element(*kernel));
  if (user.kernel.empty() && user.family == usercode::Family::Array)
    user.kernel = inputs::lab_kernel_for(usercode::array_form(*kernel), nullptr, nullptr).id;
  if (user.family == usercode::Family::Array) {
    user.lab_reference = compare.variant;
    user.variant = r.variant;
  } else {
    if (!compare.variant.empty() && !r.variant.empty() && compare.variant != r.variant)
      throw_usage(fmt::format("--variant {} and --compare {} name two variants", r.variant, r.compare),
                  "give the variant once, with --compare KERNEL:VARIANT");
    user.variant = compare.variant.empty() ? r.variant : compare.variant;
  }
  if (r.show_difference && user.family == usercode::Family::Array)
    throw_usage(fmt::format("{} is an array kernel: the Lab shows its check in words, with no difference picture",
                            file_name),
                "drop --show-difference (--sections lab shows the check)");
  return user;
}

void run_screenshot_kernel(Session& session, const ScreenshotRequest& r, const ScreenshotUserKernel& user) {
  session.take_notices();  // what setting up the request said; from here on, an error is the kernel's
  switch (user.family) {
    case usercode::Family::Stencil: return run_stencil(session, r, user);
    case usercode::Family::Array: return run_array(session, user);
    case usercode::Family::Step: return run_step(session, r, user);
  }
}

}  // namespace ks::app
