#include "session/playlist/playlist_player.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "core/launch_shape.hpp"
#include "inputs/lab_user_inputs.hpp"
#include "inputs/step_reference.hpp"
#include "registry/registry.hpp"
#include "session/playlist/user_kernel_fit.hpp"
#include "session/simulation/life_pattern_files.hpp"
#include "session/session.hpp"
#include "usercode/diagnostics.hpp"
#include "usercode/run/user_params.hpp"
#include "usercode/run/user_step.hpp"
#include "usercode/source_text.hpp"

namespace ks::app {

namespace {

// Where steps 1..k together leave things: for each key, the latest step that set it.
struct MergedState {
  std::string input;  // "open:PATH" / "pattern:SPEC" (empty: none)
  std::optional<std::string> kernel, backend, variant, type, block, colormap;
  std::map<std::string, std::string> params;  // since the latest step that chose the kernel
  std::optional<bool> panels, split, play;
  std::optional<std::vector<std::string>> sections;
  std::optional<std::pair<int, int>> grid;
  std::optional<std::string> kernel_file;  // "": the built-in
  usercode::Family kernel_family = usercode::Family::Stencil;
  std::vector<std::pair<std::string, std::string>> kernel_params;
};

MergedState merge(const std::vector<PlaylistStep>& steps, int last) {
  MergedState m;
  for (int i = 0; i <= last; ++i) {
    const PlaylistStep& s = steps[std::size_t(i)];
    if (!s.ok()) continue;  // a bad step applies nothing
    if (s.open) m.input = "open:" + *s.open;
    if (s.pattern) {
      m.input = "pattern:" + *s.pattern;
      if (m.kernel != "life") m.params.clear();
      m.kernel = "life";
    }
    if (s.kernel) {
      m.kernel = s.kernel;
      m.params.clear();  // choosing a kernel starts from its defaults, as the Kernel panel does
    }
    for (const auto& [name, value] : s.params) m.params[name] = value;
    auto take = [](auto& into, const auto& from) {
      if (from) into = from;
    };
    take(m.backend, s.backend);
    take(m.variant, s.variant);
    take(m.type, s.type);
    take(m.block, s.block);
    take(m.colormap, s.colormap);
    take(m.panels, s.panels);
    take(m.split, s.split);
    take(m.sections, s.sections);
    take(m.play, s.play);
    take(m.grid, s.grid);
    if (s.kernel_file) {
      m.kernel_file = s.kernel_file;
      m.kernel_family = s.kernel_family;
      m.kernel_params = s.kernel_params;
    } else if ((s.kernel || s.pattern) && m.kernel_file && !m.kernel_file->empty() &&
               !user_kernel_fits(m.kernel_family, KernelRegistry::builtin().get(*m.kernel))) {
      m.kernel_file = std::string();  // a kernel it does not fit ends it, as the parse said (user_kernel_fit.hpp)
      m.kernel_params.clear();
    }
  }
  return m;
}

std::string current_param(const Session& session, const std::string& name) {
  for (const auto& [n, v] : session.params().as_text())
    if (n == name) return v;
  return {};
}

// Sets the parameters that differ from the playlist's: the defaults plus what the steps set. With a Life
// pattern in effect, parameters no step names (the pattern's rule) stay as the pattern left them.
void apply_params(Session& session, const MergedState& m) {
  ParamSet desired = session.kernel().default_params();
  for (const auto& [name, value] : m.params) desired.set(name, value);
  const bool pattern = m.input.starts_with("pattern:");
  for (const auto& [name, value] : desired.as_text()) {
    if (pattern && !m.params.count(name)) continue;
    if (current_param(session, name) != value) session.set_param(name, value);
  }
}

// The user's kernel of a step, compiled as its family for the GPU in use, with its declared parameters set.
UserKernelChoice user_kernel_of(const Session& session, const MergedState& m, usercode::CompileCache& cache) {
  usercode::CompileRequest request;
  request.file_name = std::filesystem::path(*m.kernel_file).filename().string();
  request.source = usercode::read_kernel_source(*m.kernel_file);
  request.family = usercode::to_string(m.kernel_family);
  const DeviceInfo& d = session.device().info;
  request.options.arch = fmt::format("sm_{}{}", d.cc_major, d.cc_minor);
  auto kernel = std::make_shared<usercode::CompiledKernel>(usercode::compile_user_kernel(request, &cache));
  if (!kernel->ok()) {
    const auto& diagnostics = kernel->module->diagnostics;
    throw_usage(fmt::format("{} does not compile{}", request.file_name,
                            diagnostics.empty() ? "" : ": " + usercode::format_diagnostic(diagnostics.front())),
                "fix it in the kernel editor (Kernel > Edit kernel...)");
  }
  std::vector<std::string> assignments;
  for (const auto& [name, value] : m.kernel_params) assignments.push_back(name + "=" + value);
  return {kernel, request.file_name, usercode::user_param_values(kernel->declarations, assignments)};
}

bool runs_user_kernel(const Session& session, usercode::Family family) {
  switch (family) {
    case usercode::Family::Stencil: return session.stencil().user_kernel().has_value();
    case usercode::Family::Array: return session.user_array_kernel().has_value();
    case usercode::Family::Step: return session.simulation().user_step() != nullptr;
  }
  return false;
}

// Puts the user's kernel in place in its family's document. With a kernel chosen by the steps, one it does not
// fit is refused in words (the session would choose another that fits, and the next step would choose back).
void use_user_kernel(Session& session, const MergedState& m, UserKernelChoice choice) {
  switch (m.kernel_family) {
    case usercode::Family::Stencil: session.use_user_kernel(std::move(choice)); return;
    case usercode::Family::Array:
      if (m.kernel && session.in_lab())  // a usage Error saying why not and which lab kernels fit
        inputs::lab_array_mapping(session.kernel(), session.params(), usercode::array_form(*choice.kernel));
      session.use_user_array_kernel(std::move(choice));
      return;
    case usercode::Family::Step:
      if (m.kernel && session.simulating())  // a usage Error naming the simulation that fits
        inputs::check_step_reference(session.kernel().id, usercode::step_element(*choice.kernel));
      session.use_user_step_kernel(std::move(choice));
      return;
  }
}

void stop_user_kernel(Session& session, usercode::Family family) {
  switch (family) {
    case usercode::Family::Stencil: session.use_user_kernel(std::nullopt); return;
    case usercode::Family::Array: session.use_user_array_kernel(std::nullopt); return;
    case usercode::Family::Step: session.use_user_step_kernel(std::nullopt); return;
  }
}

}  // namespace

bool PlaylistPlayer::next(Session& session, PlaylistViewChange* view) {
  if (current_ + 1 >= step_count()) return false;
  const PlaylistViewChange v = go_to(session, current_ + 1);
  if (view) *view = v;
  return true;
}

bool PlaylistPlayer::previous(Session& session, PlaylistViewChange* view) {
  if (current_ <= 0) return false;
  const PlaylistViewChange v = go_to(session, current_ - 1);
  if (view) *view = v;
  return true;
}

PlaylistViewChange PlaylistPlayer::go_to(Session& session, int index) {
  index = std::clamp(index, 0, step_count() - 1);
  current_ = index;
  notes_.clear();
  const PlaylistStep& step = playlist_.steps[std::size_t(index)];
  if (!step.ok()) notes_.push_back(step.error + " - this step is skipped");
  const MergedState m = merge(playlist_.steps, index);

  // Each change on its own: one that fails is noted and the others still apply.
  auto attempt = [&](const std::string& what, const auto& change) {
    try {
      change();
    } catch (const Error& e) {
      notes_.push_back(what + ": " + e.full_message());
    }
  };
  if (m.input.starts_with("open:") && m.input != applied_input_) {
    attempt("open", [&] {
      const std::string path = m.input.substr(5);
      if (path == "sample")
        session.open_sample();
      else
        session.open_image(path);
    });
    applied_input_ = m.input;  // tried once: a file that failed is not read again at every step
  }
  if (m.kernel && session.kernel().id != *m.kernel)
    attempt("kernel " + *m.kernel, [&] { session.select_kernel(*m.kernel); });
  if (m.kernel && session.kernel().id == *m.kernel) attempt("params", [&] { apply_params(session, m); });
  if (m.grid && session.simulating() &&
      (session.simulation().setup().width != m.grid->first ||
       session.simulation().setup().height != m.grid->second))
    attempt("grid", [&] { session.simulation().set_grid_size(m.grid->first, m.grid->second); });
  if (m.input.starts_with("pattern:") && m.input != applied_input_) {
    attempt("pattern", [&] { use_life_pattern(session, m.input.substr(8)); });
    applied_input_ = m.input;
  }
  if (m.type && (!session.has_input() || to_string(session.element_type()) != *m.type))
    attempt("type " + *m.type, [&] { session.set_element_type(elem_type_from_string(*m.type)); });
  if (m.backend && to_string(session.backend()) != *m.backend)
    attempt("backend " + *m.backend, [&] { session.set_backend(backend_from_string(*m.backend)); });
  if (m.variant && session.variant() != *m.variant && session.kernel().find_variant(*m.variant)) {
    const VariantSpec& v = *session.kernel().find_variant(*m.variant);
    if (v.backend == Backend::Cuda && !session.device().cuda)
      notes_.push_back(
          // Why not is in the Launch panel and the status bar; here only what the audience should expect.
          fmt::format("No CUDA here: the CPU backend shows this step; on a GPU it runs the '{}' variant",
                      v.name));
    else
      attempt("variant " + v.name, [&] { session.set_variant(v.name); });
  }
  if (!m.variant && !session.variant().empty() && session.backend() == Backend::Cuda)
    attempt("variant", [&] {  // back to the backend's default variant, as before the step that chose one
      session.set_backend(Backend::Cpu);
      session.set_backend(Backend::Cuda);
    });
  if (!m.block && session.block()) attempt("block", [&] { session.set_block(std::nullopt); });
  if (m.block) {
    const std::optional<BlockShape> block =
        *m.block == "default" ? std::nullopt : std::optional(parse_block_shape(*m.block));
    if (session.block() != block) attempt("block " + *m.block, [&] { session.set_block(block); });
    // Said at the step that names the block, not at every later one.
    if (session.backend() != Backend::Cuda && step.ok() && step.block && *step.block != "default")
      notes_.push_back("The block (" + *m.block + ") shapes CUDA launches: the CPU backend ignores it");
  }
  // A user kernel the steps put in place, and taken away again by a step with "kernel_file": null or by going
  // back before the step that named it; one the presenter runs from the editor is left alone otherwise.
  std::string wanted;
  if (m.kernel_file && !m.kernel_file->empty()) {
    wanted = *m.kernel_file;
    for (const auto& [name, value] : m.kernel_params) wanted += "|" + name + "=" + value;
  }
  if (!wanted.empty() && !session.device().cuda) {
    notes_.push_back(fmt::format("No CUDA here: on a GPU this step runs {} instead of the built-in kernel",
                                 std::filesystem::path(*m.kernel_file).filename().string()));
  } else if (!wanted.empty() && (wanted != applied_kernel_ || !runs_user_kernel(session, m.kernel_family))) {
    // Also when the session stopped it (another kernel chosen since): step k shows what steps 1..k say.
    if (!applied_kernel_.empty() && applied_family_ != m.kernel_family && runs_user_kernel(session, applied_family_))
      attempt("kernel_file", [&] { stop_user_kernel(session, applied_family_); });
    applied_kernel_.clear();
    attempt("kernel_file", [&] {
      use_user_kernel(session, m, user_kernel_of(session, m, *kernel_cache_));
      applied_kernel_ = wanted;
      applied_family_ = m.kernel_family;
    });
  } else if (wanted.empty() && !applied_kernel_.empty()) {
    if (runs_user_kernel(session, applied_family_))
      attempt("kernel_file", [&] { stop_user_kernel(session, applied_family_); });
    applied_kernel_.clear();
  } else if (wanted.empty() && m.kernel_file) {  // "kernel_file": null ends one run from the editor too
    for (const auto family : {usercode::Family::Stencil, usercode::Family::Array, usercode::Family::Step})
      if (runs_user_kernel(session, family)) attempt("kernel_file", [&] { stop_user_kernel(session, family); });
  }
  if (session.simulating()) {
    if (m.play && session.simulation().playing() != *m.play)
      attempt("play", [&] { session.simulation().set_playing(*m.play); });
    if (step.ok() && step.steps) attempt("steps", [&] { session.simulation().step(*step.steps); });
  }
  session.request_run();
  return {m.panels, m.split, m.colormap, m.sections};
}

}  // namespace ks::app
