// The benchmarks of docs/PERF.md's "Basics lab: reduce, integrate2d, matmul" section, through run_lab (what
// `kernelscope-cli lab` runs): every variant at the sizes of the targets, warm-ups, medians of the
// timed launches (CUDA events), the check against the CPU reference. Run by hand on the GPU machine
// (scripts/gpu-check full): `ks_bench_lab [reduce|integrate2d|matmul]...`. Not a test.
#include <fmt/format.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "lab/lab.hpp"
#include "registry/registry.hpp"

namespace {

using namespace ks;

struct Case {
  std::string kernel;
  lab::LabSize size;
  std::string variant;
  std::vector<std::string> params;
  BlockShape block{256, 1};
  int repeat = 20;
};

std::string fact(const lab::LabReport& r, const std::string& name) {
  for (const auto& f : r.facts)
    if (f.name == name) return f.value;
  return "-";
}

void run_case(Engine& engine, const Case& c) {
  lab::LabRequest req;
  req.kernel = c.kernel;
  req.size = c.size;
  req.params = KernelRegistry::builtin().get(c.kernel).default_params();
  for (const auto& p : c.params) req.params.set_assignment(p);
  req.backend = c.variant == "cpu" || c.variant == "openblas" ? Backend::Cpu : Backend::Cuda;
  req.variant = c.variant;
  if (req.backend == Backend::Cuda) {
    req.block = c.block;
    req.host = lab::HostMode::Pinned;
  }
  req.warmup = 3;
  req.repeat = c.repeat;
  std::string params;
  for (const auto& p : c.params) params += (params.empty() ? "" : ",") + p;
  try {
    const lab::LabReport r = lab::run_lab(engine, req).report;
    const std::string extra = c.kernel == "reduce" ? fact(r, "rounding error")
                              : c.kernel == "integrate2d"
                                  ? fact(r, "error vs exact")
                                  : fmt::format("max |error| {:.3g}", r.check.max_abs_error);
    const std::string occupancy =
        r.occupancy
            ? fmt::format("{} regs, {:.0f}%", r.occupancy->registers_per_thread, 100 * r.occupancy->occupancy)
            : "-";
    fmt::print(
        "| {} | {} | {} | {} | {} | {:.4f} | {:.4f} | {:.4f} | {:.0f} | {:.1f}% | {:.1f} | {} | {} | {} |\n",
        c.kernel, lab::to_string(c.size), c.variant, params.empty() ? "-" : params,
        req.block ? to_string(*req.block) : "-", r.kernel_time.median_ms, r.kernel_time.min_ms,
        r.kernel_time.p95_ms, r.gbps, r.percent_of_copy, r.gflops,
        r.check.checked ? (r.check.agrees ? "ok" : "FAILED") : "-", extra, occupancy);
  } catch (const Error& e) {
    fmt::print("| {} | {} | {} | {} | error: {} |\n", c.kernel, lab::to_string(c.size), c.variant, params,
               e.full_message());
  }
  std::fflush(stdout);
}

std::vector<Case> cases(const std::string& kernel) {
  std::vector<Case> out;
  if (kernel == "reduce")
    for (const char* acc : {"accumulate=f32", "accumulate=f64"})
      for (const char* v : {"atomic", "shared", "warp", "cub"})
        out.push_back({"reduce",
                       lab::LabSize::elements(1 << 28),
                       v,
                       {acc, "distribution=uniform"},
                       {256, 1},
                       std::string(v) == "atomic" ? 5 : 30});
  if (kernel == "integrate2d")
    for (const char* acc : {"accumulate=f32", "accumulate=f64"})
      for (const char* v : {"atomic", "shared", "warp", "cub"})
        out.push_back({"integrate2d",
                       lab::LabSize::grid(16384, 16384),
                       v,
                       {acc},
                       {256, 1},
                       std::string(v) == "atomic" ? 5 : 20});
  if (kernel == "matmul") {
    for (int side : {1024, 4096})
      for (const char* v : {"naive", "tiled", "regtiled", "cublas", "cublas_tf32"})
        out.push_back(
            {"matmul", lab::LabSize::matmul(side, side, side), v, {}, {16, 16}, side == 4096 ? 10 : 20});
    out.push_back({"matmul", lab::LabSize::matmul(1024, 1024, 1024), "tiled", {}, {32, 32}, 20});
    out.push_back({"matmul", lab::LabSize::matmul(1024, 1024, 1024), "cpu", {}, {}, 3});
    out.push_back({"matmul", lab::LabSize::matmul(1024, 1024, 1024), "openblas", {}, {}, 3});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> kernels;
  for (int i = 1; i < argc; ++i) kernels.emplace_back(argv[i]);
  if (kernels.empty()) kernels = {"reduce", "integrate2d", "matmul"};
  Engine engine;
  fmt::print("device: {}; copy bandwidth {:.0f} GB/s\n", engine.cuda().device().name,
             engine.cuda().copy_bandwidth_gbps());
  fmt::print(
      "| kernel | size | variant | params | block | median ms | min ms | p95 ms | GB/s | % of copy | GFLOP/s "
      "| check | error | occupancy |\n| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | "
      "---: | --- | --- | --- |\n");
  for (const auto& k : kernels)
    for (const Case& c : cases(k)) run_case(engine, c);
  return 0;
}
