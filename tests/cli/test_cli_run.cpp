// `run`: results equal the engine's, the JSON report says what ran, and failures exit 2 (the request) or 1
// (the files or the machine) without leaving an output file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/simd/simd_target.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

namespace fs = std::filesystem;

class CliRun : public ::testing::Test {
 protected:
  void SetUp() override { save_image(random_image(64, 48, 3, ElemType::U8, 7), dir_ / "in.png"); }

  // Runs `run` with the common arguments after `extra`; the output goes to out.png.
  CliResult run(std::vector<std::string> args) {
    args.insert(args.begin(), "run");
    return run_cli(args, dir_.path());
  }

  TempDir dir_;
};

TEST_F(CliRun, BoxOnAPngEqualsTheEngineAndWritesTheReport) {
  CliResult r = run({"box", "-i", "in.png", "-o", "out.png", "--param", "radius=2", "--backend", "cpu",
                     "--repeat", "3", "--json", "report.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* word : {"upload", "kernel", "download", "GB/s", "wrote out.png", "wrote report.json"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word << " in\n" << r.out;

  const Image got = load_image(dir_ / "out.png");
  const Image in = load_image(dir_ / "in.png");
  const KernelSpec& spec = KernelRegistry::builtin().get("box");
  StencilRequest req;
  req.kernel = "box";
  req.params = spec.default_params();
  req.params.set("radius", "2");
  req.backend = Backend::Cpu;
  Engine engine;
  const Image expected =
      restore_channels(engine.run_stencil(prepare_stencil_input(in, std::nullopt), req).output, 3);
  EXPECT_TRUE(images_match(got, expected));

  const auto j = nlohmann::json::parse(read_file(dir_ / "report.json"));
  EXPECT_EQ(j.at("kernel"), "box");
  EXPECT_EQ(j.at("variant"), "cpu");
  EXPECT_EQ(j.at("backend"), "cpu");
  EXPECT_NE(j.at("device").get<std::string>().find("CPU"), std::string::npos);
  EXPECT_EQ(j.at("cpu_simd"), cpu::simd::simd_description());
  EXPECT_EQ(j.at("image").at("width"), 64);
  EXPECT_EQ(j.at("image").at("height"), 48);
  EXPECT_EQ(j.at("image").at("channels"), 4);  // prepared: RGB runs as RGBA
  EXPECT_EQ(j.at("image").at("type"), "u8");
  EXPECT_EQ(j.at("input").at("image").at("channels"), 3);
  EXPECT_EQ(j.at("params").at("radius"), "2");
  EXPECT_EQ(j.at("params").at("border"), "reflect101");
  EXPECT_TRUE(j.at("block").is_null());
  EXPECT_EQ(j.at("timings_ms").at("kernel").at("count"), 3);
  EXPECT_GT(j.at("timings_ms").at("kernel").at("median").get<double>(), 0);
  EXPECT_EQ(j.at("cost").at("bytes").get<std::uint64_t>(),
            spec.cost(ImageShape{64, 48, 4, ElemType::U8}, req.params).bytes);
  EXPECT_GT(j.at("gbps").get<double>(), 0);
  EXPECT_EQ(j.at("percent_of_copy").get<double>(), 0);  // no copy bandwidth to compare with on the CPU
  EXPECT_TRUE(j.at("occupancy").is_null());
  EXPECT_EQ(j.at("warmup"), 1);
}

TEST_F(CliRun, SixteenBitInputGivesSixteenBitOutput) {
  save_image(random_image(40, 30, 1, ElemType::U16, 3), dir_ / "in16.png");
  CliResult r = run({"gaussian", "-i", "in16.png", "-o", "out16.png", "--backend", "cpu", "--repeat", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Image got = load_image(dir_ / "out16.png");
  EXPECT_EQ(got.type(), ElemType::U16);
  EXPECT_EQ(got.channels(), 1);
  EXPECT_EQ(got.width(), 40);
}

TEST_F(CliRun, EmbeddedSampleAndF32) {
  CliResult r =
      run({"sobel", "-i", "sample", "-o", "sobel.png", "--backend", "cpu", "--repeat", "1", "--type", "f32"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Image got = load_image(dir_ / "sobel.png");
  EXPECT_EQ(got.width(), 1024);
  EXPECT_EQ(got.height(), 768);
  EXPECT_EQ(got.channels(), 3);
}

TEST_F(CliRun, UsageErrorsExit2AndWriteNothing) {
  const std::vector<std::vector<std::string>> cases = {
      {"nope", "-i", "in.png", "-o", "out.png"},                                        // unknown kernel
      {"box", "-i", "in.png", "-o", "out.png", "--param", "nope=1"},                    // unknown parameter
      {"box", "-i", "in.png", "-o", "out.png", "--param", "radius=999"},                // out of range
      {"box", "-i", "in.png", "-o", "out.png", "--param", "radius"},                    // not NAME=VALUE
      {"box", "-i", "in.png", "-o", "out.png", "--backend", "cuda", "--block", "0x8"},  // invalid block
      {"box", "-i", "in.png", "-o", "out.png", "--block", "0x8"},
      {"box", "-i", "in.png", "-o", "out.png", "--frobnicate"},                           // unknown option
      {"box", "-i", "in.png", "-o", "out.png", "--backend", "cpu", "--variant", "warp"},  // unknown variant
      {"box", "-i", "in.png", "-o", "out.xyz", "--backend", "cpu"},  // unknown output format
      {"box", "-i", "in.png", "-o", "out.png", "--backend", "cpu", "--variant", "tiled"},  // variant of cuda
      {"box", "-i", "in.png", "-o", "out.png", "--backend", "cpu", "--block", "16x16"},
      {"box", "-i", "in.png", "-o", "out.png", "--repeat", "0"},
      {"box", "-i", "in.png", "-o", "out.png", "--type", "u16"},
      {"box", "-i", "in.png", "-o", "out.png", "--backend", "opencl"},
      {"box", "-o", "out.png"},  // -i missing
      {"laplacian", "-i", "in.png", "-o", "out.png", "--backend", "cuda", "--variant", "separable"},
  };
  for (const auto& args : cases) {
    CliResult r = run(args);
    std::string shown;
    for (const auto& a : args) shown += a + " ";
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.err;
    EXPECT_FALSE(r.err.empty()) << shown;
    EXPECT_FALSE(fs::exists(dir_ / "out.png")) << shown;
    EXPECT_FALSE(fs::exists(dir_ / "out.xyz")) << shown;
  }
  // Our own errors read `error: what. hint`.
  CliResult r = run({"box", "-i", "in.png", "-o", "out.png", "--param", "radius=999"});
  EXPECT_EQ(r.err.rfind("error: radius=999 is out of range", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("1 .. 50"), std::string::npos) << r.err;
}

TEST_F(CliRun, RuntimeErrorsExit1AndWriteNothing) {
  write_file(dir_ / "corrupt.png", "\x89PNG\r\n\x1a\n this is not really a png");
  const std::vector<std::vector<std::string>> cases = {
      {"box", "-i", "missing.png", "-o", "out.png", "--backend", "cpu"},
      {"box", "-i", "corrupt.png", "-o", "out.png", "--backend", "cpu"},
      {"box", "-i", "in.png", "-o", "no/such/folder/out.png", "--backend", "cpu"},
  };
  for (const auto& args : cases) {
    CliResult r = run(args);
    EXPECT_EQ(r.exit_code, 1) << args[2] << " " << args[4] << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  }
  for (const auto& entry : fs::directory_iterator(dir_.path())) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "in.png" || name == "corrupt.png" || name.rfind(".cli-", 0) == 0)
        << "left behind: " << name;
  }
}

TEST_F(CliRun, CudaWithoutDeviceSuggestsTheCpu) {
  if (gpu_available()) GTEST_SKIP() << "a CUDA device is present";
  CliResult r = run({"box", "-i", "in.png", "-o", "out.png", "--backend", "cuda"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--backend cpu"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out.png"));
}

TEST_F(CliRun, CudaMatchesTheCpuAndReportsOccupancy) {
  KS_REQUIRE_GPU();
  CliResult cpu = run({"box", "-i", "in.png", "-o", "cpu.png", "--backend", "cpu", "--param", "radius=3"});
  ASSERT_EQ(cpu.exit_code, 0) << cpu.err;
  for (const char* variant : {"naive", "tiled", "separable"}) {
    const std::string out = std::string(variant) + ".png";
    CliResult r = run({"box", "-i", "in.png", "-o", out, "--variant", variant, "--block", "16x16", "--param",
                       "radius=3", "--json", "r.json"});
    ASSERT_EQ(r.exit_code, 0) << variant << ": " << r.err;
    EXPECT_TRUE(images_match(load_image(dir_ / out), load_image(dir_ / "cpu.png"))) << variant;
    const auto j = nlohmann::json::parse(read_file(dir_ / "r.json"));
    EXPECT_EQ(j.at("backend"), "cuda");
    EXPECT_EQ(j.at("variant"), variant);
    EXPECT_EQ(j.at("block").at("x"), 16);
    EXPECT_GT(j.at("occupancy").at("occupancy").get<double>(), 0);
    EXPECT_GT(j.at("copy_bandwidth_gbps").get<double>(), 0);
    EXPECT_GT(j.at("percent_of_copy").get<double>(), 0);
  }
  // More threads per block than any CUDA device allows: the request is wrong, not the machine.
  CliResult big = run({"box", "-i", "in.png", "-o", "big.png", "--backend", "cuda", "--block", "64x32"});
  EXPECT_EQ(big.exit_code, 2) << big.err;
  EXPECT_FALSE(fs::exists(dir_ / "big.png"));
}

}  // namespace
}  // namespace ks::test
