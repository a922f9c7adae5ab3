#include <fmt/format.h>

#include <chrono>
#include <span>
#include <vector>

#include "core/error.hpp"
#include "usercode/nvrtc_api.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/prelude_headers.hpp"
#include "usercode/source_text.hpp"
#include "usercode/text_scan.hpp"

namespace ks::usercode {

namespace {

// The headers NVRTC is given, by the names the program includes them with.
struct Headers {
  std::vector<std::string> names{kPreludeHeaderNames.begin(), kPreludeHeaderNames.end()};
  std::vector<std::string> texts = prelude_header_texts();
};

class Program {
 public:
  Program(const std::string& text, const std::string& name, const Headers& headers) {
    std::vector<const char*> texts, names;
    for (std::size_t i = 0; i < headers.names.size(); ++i) {
      texts.push_back(headers.texts[i].c_str());
      names.push_back(headers.names[i].c_str());
    }
    check(nvrtc_api().create_program(&program_, text.c_str(), name.c_str(), static_cast<int>(texts.size()),
                                     texts.data(), names.data()),
          "create a program");
  }
  ~Program() { nvrtc_api().destroy_program(&program_); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram get() const { return program_; }

  static void check(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS)
      throw Error(r == NVRTC_ERROR_OUT_OF_MEMORY ? ErrorKind::OutOfMemory : ErrorKind::Internal,
                  fmt::format("NVRTC could not {}: {}", what, nvrtc_api().error_string(r)));
  }

 private:
  nvrtcProgram program_ = nullptr;
};

int cancel_requested(void* payload, void*) { return static_cast<const std::atomic<bool>*>(payload)->load() ? 1 : 0; }

std::string program_log(nvrtcProgram p) {
  std::size_t size = 0;
  Program::check(nvrtc_api().program_log_size(p, &size), "size its log");
  std::string log(size, '\0');
  Program::check(nvrtc_api().program_log(p, log.data()), "read its log");
  while (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

// sm_XX, sm_XXa or sm_XXf, and nothing after.
bool is_gpu_architecture(std::string_view arch) {
  if (!scan::eat(arch, "sm_") || scan::take_digits(arch).empty()) return false;
  return arch.empty() || arch == "a" || arch == "f";
}

std::vector<std::string> nvrtc_options(const CompileOptions& o) {
  if (!is_gpu_architecture(o.arch))
    throw_usage(fmt::format("`{}` is not a GPU architecture", o.arch),
                "give one as sm_XX, e.g. sm_90 for an H100 (`nvrtc` builds for sm_75 and later)");
  std::vector<std::string> opts = {"-arch=" + o.arch, "-std=c++17"};
  if (o.line_info) opts.push_back("-lineinfo");
  opts.push_back("-Xptxas=-v");
  // NVRTC's automatic PCH covers what precedes #line (the prelude) and warns (#20283) that it stops there; its
  // messages ("creating precompiled header file ...") are not the user's business.
  if (o.use_pch) opts.insert(opts.end(), {"-pch", "-pch-messages=false", "-diag-suppress=20283"});
  opts.insert(opts.end(), o.extra.begin(), o.extra.end());
  return opts;
}

}  // namespace

bool nvrtc_available() noexcept {
  try {
    nvrtc_api();
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::string nvrtc_version() {
  if (!nvrtc_available()) return {};
  int major = 0, minor = 0;
  if (nvrtc_api().version(&major, &minor) != NVRTC_SUCCESS) return {};
  return fmt::format("{}.{}", major, minor);
}

CompiledModule compile_with_nvrtc(std::string_view source, const std::string& file_name, const CompileOptions& options,
                                  const std::atomic<bool>* cancel) {
  CompiledModule m;
  m.file_name = file_name;
  m.options = nvrtc_options(options);
  const Headers headers;
  Program program(program_text(source, file_name), file_name, headers);
  if (cancel)
    Program::check(nvrtc_api().set_flow_callback(program.get(), cancel_requested,
                                                 const_cast<std::atomic<bool>*>(cancel)),
                   "take a cancel callback");
  std::vector<const char*> argv;
  for (const auto& o : m.options) argv.push_back(o.c_str());
  const auto start = std::chrono::steady_clock::now();
  const nvrtcResult result = nvrtc_api().compile_program(program.get(), static_cast<int>(argv.size()), argv.data());
  m.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (result == NVRTC_ERROR_CANCELLED)
    throw Error(ErrorKind::Cancelled, fmt::format("the compile of {} was cancelled", file_name));
  m.log = program_log(program.get());
  if (result == NVRTC_ERROR_INVALID_OPTION)
    throw_usage(fmt::format("NVRTC refused the options {}: {}", fmt::join(m.options, " "), m.log),
                "check --arch and the extra options");
  m.diagnostics = parse_nvrtc_log(m.log, file_name, count_lines(source));
  if (result == NVRTC_ERROR_COMPILATION) return m;
  Program::check(result, "compile");
  // A log with only "Command-line error" lines also ends in NVRTC_ERROR_COMPILATION, above.
  std::size_t size = 0;
  Program::check(nvrtc_api().ptx_size(program.get(), &size), "size the PTX");
  m.ptx.assign(size, '\0');
  Program::check(nvrtc_api().ptx(program.get(), m.ptx.data()), "read the PTX");
  while (!m.ptx.empty() && m.ptx.back() == '\0') m.ptx.pop_back();
  Program::check(nvrtc_api().cubin_size(program.get(), &size), "size the CUBIN");
  m.cubin.resize(size);
  Program::check(nvrtc_api().cubin(program.get(), m.cubin.data()), "read the CUBIN");
  m.kernels = parse_ptxas_report(m.log);
  add_unreported_entries(m.kernels, m.ptx);
  order_as_in_ptx(m.kernels, m.ptx);
  for (auto& k : m.kernels) {
    describe_entry(k);
    k.launch_bound = ptx_launch_bound(m.ptx, k.mangled_name);
    k.max_threads_per_block = k.resources_reported ? max_threads_per_block(k.registers, k.launch_bound) : 0;
  }
  m.ok = true;
  return m;
}

}  // namespace ks::usercode
