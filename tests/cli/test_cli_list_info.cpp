// `list`, `info`, `--version` and `--help`: what a user reads before running anything.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "core/device_info.hpp"
#include "lab/lab_kernel.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/simd/simd_target.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

TEST(CliList, NamesEveryKernelAndParameterRange) {
  TempDir dir;
  CliResult r = run_cli({"list"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& k : KernelRegistry::builtin().kernels()) {
    EXPECT_NE(r.out.find(k.id + " — " + k.title), std::string::npos) << k.id;
    for (const auto& p : k.params) {
      EXPECT_NE(r.out.find(p.name), std::string::npos) << k.id << "." << p.name;
      EXPECT_NE(r.out.find(p.range_text()), std::string::npos)
          << k.id << "." << p.name << ": " << p.range_text();
    }
    for (const auto& v : k.variants)
      EXPECT_NE(r.out.find(v.name), std::string::npos) << k.id << " " << v.name;
  }
  if (!gpu_available()) {
    EXPECT_NE(r.out.find("(needs CUDA)"), std::string::npos);
  }
}

TEST(CliList, JsonParsesAndMatchesTheRegistry) {
  TempDir dir;
  CliResult r = run_cli({"list", "--json"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& kernels = KernelRegistry::builtin().kernels();
  ASSERT_EQ(j.at("kernels").size(), kernels.size());
  EXPECT_EQ(j.at("cuda_available").get<bool>(), gpu_available());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& jk = j["kernels"][i];
    EXPECT_EQ(jk.at("id"), kernels[i].id);
    ASSERT_EQ(jk.at("params").size(), kernels[i].params.size());
    for (std::size_t p = 0; p < kernels[i].params.size(); ++p) {
      const ParamSpec& spec = kernels[i].params[p];
      const auto& jp = jk["params"][p];
      EXPECT_EQ(jp.at("name"), spec.name);
      EXPECT_EQ(jp.at("default"), spec.default_text);
      if (spec.type == ParamType::Int || spec.type == ParamType::Float) {
        EXPECT_DOUBLE_EQ(jp.at("min").get<double>(), spec.min);
        EXPECT_DOUBLE_EQ(jp.at("max").get<double>(), spec.max);
      }
    }
    EXPECT_FALSE(jk.at("variants").empty());
    if (kernels[i].lab) {
      // Lab kernels take sizes, not image types: their size form and limits instead.
      EXPECT_EQ(jk.at("lab").at("size_form"), lab::to_string(kernels[i].lab->info().form));
    } else if (kernels[i].category != "topology") {
      EXPECT_FALSE(jk.at("types").empty());  // the search has no image
    }
  }
}

TEST(CliList, OneKernelAndUnknownKernel) {
  TempDir dir;
  CliResult box = run_cli({"list", "box"}, dir.path());
  ASSERT_EQ(box.exit_code, 0) << box.err;
  EXPECT_NE(box.out.find("box"), std::string::npos);
  EXPECT_EQ(box.out.find("median —"), std::string::npos);
  CliResult bad = run_cli({"list", "nope"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.rfind("error: unknown kernel 'nope'", 0), 0u) << bad.err;
}

TEST(CliInfo, SaysWhatRunsWhenThereIsNoDevice) {
  TempDir dir;
  CliResult r = run_cli({"--threads", "3", "info", "--no-bandwidth"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  if (gpu_available()) {
    EXPECT_NE(r.out.find(list_devices().at(0).name), std::string::npos) << r.out;
  } else {
    EXPECT_NE(r.out.find("No CUDA device: " + no_device_reason()), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("CPU backend is used, with 3 threads"), std::string::npos) << r.out;
  }
}

// On a machine without NVIDIA's driver (no libcuda, as in CI) the reason says so in words, not the runtime's
// "CUDA driver version is insufficient", which reads as if an old driver were installed.
TEST(CliInfo, NoDriverIsSaidInWords) {
  if (gpu_available()) GTEST_SKIP() << "a CUDA device is present";
  if (void* lib = dlopen("libcuda.so.1", RTLD_LAZY)) {
    dlclose(lib);
    GTEST_SKIP() << "an NVIDIA driver is installed here";
  }
  TempDir dir;
  CliResult r = run_cli({"info", "--no-bandwidth"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("insufficient"), std::string::npos) << r.out;
#ifdef KS_HAVE_CUDA  // (a build without CUDA says that instead)
  EXPECT_NE(r.out.find("No CUDA device: no NVIDIA GPU or driver was found"), std::string::npos) << r.out;
#endif
}

TEST(CliInfo, Json) {
  TempDir dir;
  CliResult r = run_cli({"info", "--json", "--no-bandwidth"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("devices").size(), list_devices().size());
  EXPECT_EQ(j.at("no_device_reason").get<std::string>().empty(), gpu_available());
  EXPECT_GE(j.at("cpu").at("threads").get<int>(), 1);
  // Which instruction set the CPU backend's SIMD loops chose, and those it could run here (best first).
  EXPECT_EQ(j.at("cpu").at("simd"), cpu::simd::simd_description());
  const auto& targets = j.at("cpu").at("simd_targets");
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(targets.front(), cpu::simd::current_simd_target().name);
}

TEST(CliInfo, SaysWhichSimdInstructionsTheCpuBackendRuns) {
  TempDir dir;
  CliResult r = run_cli({"info", "--no-bandwidth"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CPU SIMD: " + cpu::simd::simd_description()), std::string::npos) << r.out;
}

TEST(CliGeneral, VersionAndHelpOnEveryCommand) {
  TempDir dir;
  CliResult v = run_cli({"--version"}, dir.path());
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find(KS_VERSION), std::string::npos) << v.out;
  for (const char* cmd : {"list", "info", "run", "bench", "demo"}) {
    CliResult h = run_cli({cmd, "--help"}, dir.path());
    EXPECT_EQ(h.exit_code, 0) << cmd << ": " << h.err;
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << cmd;
    CliResult cv = run_cli({cmd, "--version"}, dir.path());
    EXPECT_EQ(cv.exit_code, 0) << cmd;
    EXPECT_NE(cv.out.find(KS_VERSION), std::string::npos) << cmd;
  }
}

TEST(CliGeneral, ParseErrorsExit2) {
  TempDir dir;
  EXPECT_EQ(run_cli({}, dir.path()).exit_code, 2);                        // no command
  EXPECT_EQ(run_cli({"frobnicate"}, dir.path()).exit_code, 2);            // unknown command
  EXPECT_EQ(run_cli({"list", "--frobnicate"}, dir.path()).exit_code, 2);  // unknown option
  EXPECT_EQ(run_cli({"--threads", "-1", "list"}, dir.path()).exit_code, 2);
}

}  // namespace
}  // namespace ks::test
