#pragma once
// What the tests of users' kernels share: one worker process for the test binary (the CLI beside it, a short
// launch time-out), compiling for its GPU, the launch options of a quick run, and the CPU reference of the box
// filter the 3x3 kernels imitate.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/thread_pool.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "stencil/stencil_plan.hpp"
#include "usercode/run/user_launch.hpp"
#include "usercode/run/worker_client.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::test::user_kernels {

using namespace usercode;
using namespace std::chrono_literals;

inline ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

inline WorkerClient& worker() {
  static WorkerClient w([] {
    WorkerClient::Options o;
    o.executable = KS_CLI_PATH;
    o.launch_timeout = 1500ms;
    return o;
  }());
  return w;
}

inline CompiledKernel compile(const std::string& name, const std::string& source, const std::string& arch) {
  CompileRequest r;
  r.file_name = name;
  r.source = source;
  r.options.arch = arch;
  CompiledKernel k = compile_user_kernel(r);
  EXPECT_TRUE(k.ok()) << (k.module ? k.module->log : std::string("no module"));
  return k;
}

inline CompiledKernel compile_template(const std::string& file) {
  return compile(file, read_kernel_source(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels" / file),
                 worker().hello().arch);
}

inline Image box3x3_reference(const Image& input, const char* border, const char* border_value) {
  const KernelSpec& spec = KernelRegistry::builtin().get("box");
  ParamSet params = spec.default_params();
  params.set("radius", "1");
  params.set("border", border);
  params.set("border_value", border_value);
  return cpu::run_stencil(make_stencil_plan("box", params), input, pool(), cpu::CpuPath::Reference);
}

inline UserLaunchOptions launch(std::array<unsigned, 2> block, std::vector<double> params = {}) {
  UserLaunchOptions o;
  o.block = block;
  o.params = std::move(params);
  o.warmup = 0;
  o.repeat = 2;
  return o;
}

}  // namespace ks::test::user_kernels
