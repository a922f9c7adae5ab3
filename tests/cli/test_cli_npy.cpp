// .npy images on the command line: `run -i x.npy -o y.npy` gives the values the PNG route gives for u8, and
// for f32 the values of the CPU reference computed here (no 8-bit rounding on the way); `sim` starts from a
// .npy field and writes its state's values; bad .npy inputs exit 1 naming the file and writing nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cli/cli_runner.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "sim/simulation.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

namespace fs = std::filesystem;

bool same_bytes(const Image& a, const Image& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.byte_size()) == 0;
}

TEST(CliNpy, RunOnU8NpyEqualsTheSameRunThroughPng) {
  TempDir dir;
  const Image in = random_image(61, 37, 3, ElemType::U8, 5);
  save_image(in, dir / "in.png");
  save_image(in, dir / "in.npy");
  for (const char* ext : {"png", "npy"}) {
    const CliResult r =
        run_cli({"run", "box", "-i", std::string("in.") + ext, "-o", std::string("out.") + ext, "-p",
                 "radius=2", "--backend", "cpu", "--repeat", "1"},
                dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const Image via_npy = load_image(dir / "out.npy");
  EXPECT_EQ(via_npy.shape(), (ImageShape{61, 37, 3, ElemType::U8}));
  EXPECT_TRUE(same_bytes(via_npy, load_image(dir / "out.png")));
}

TEST(CliNpy, RunOnF32NpyKeepsTheValuesOfTheCpuReference) {
  TempDir dir;
  Image in = random_image(45, 29, 1, ElemType::F32, 8);
  for (float& v : in.elements<float>()) v = v * 300.0f - 100.0f;  // far outside 0..1: a PNG could not hold it
  save_image(in, dir / "in.npy");
  const CliResult r = run_cli({"run", "gaussian", "-i", "in.npy", "-o", "out.npy", "-p", "sigma=1.5",
                               "--backend", "cpu", "--repeat", "1"},
                              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Image got = load_image(dir / "out.npy");

  StencilRequest req;
  req.kernel = "gaussian";
  req.params = KernelRegistry::builtin().get("gaussian").default_params();
  req.params.set("sigma", "1.5");
  req.backend = Backend::Cpu;
  Engine engine;
  const Image expected = engine.run_stencil(in, req).output;
  EXPECT_EQ(got.shape(), (ImageShape{45, 29, 1, ElemType::F32}));
  EXPECT_TRUE(images_match(got, expected));
  float highest = 0;
  for (float v : got.elements<float>()) highest = std::max(highest, v);
  EXPECT_GT(highest, 10.0f) << "values outside 0..1 survive (the input's mean is 50)";
}

TEST(CliNpy, SimStartsFromANpyFieldAndWritesItsValues) {
  TempDir dir;
  const Image start = random_image(33, 17, 1, ElemType::F32, 3);
  save_image(start, dir / "start.npy");
  const CliResult r = run_cli(
      {"sim", "heat", "--steps", "7", "-i", "start.npy", "-o", "end.npy", "--backend", "cpu"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("the state's values"), std::string::npos) << r.out;
  SimulationRequest req;
  req.kernel = "heat";
  req.params = KernelRegistry::builtin().get("heat").default_params();
  req.backend = Backend::Cpu;
  Engine engine;
  Simulation sim(engine, req, SimulationStart{.image = start});
  sim.step(7);
  EXPECT_TRUE(same_bytes(load_image(dir / "end.npy"), sim.image()));
}

TEST(CliNpy, ABadNpyInputExitsOneNamingTheFile) {
  TempDir dir;
  // A float64 array, as numpy.save writes numpy.zeros((2, 2)).
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }";
  dict.append(117 - dict.size(), ' ');
  dict += '\n';
  write_file(dir / "f64.npy",
             std::string("\x93NUMPY\x01\x00", 8) + char(118) + char(0) + dict + std::string(32, '\0'));
  const CliResult r = run_cli(
      {"run", "box", "-i", "f64.npy", "-o", "out.npy", "--backend", "cpu", "--repeat", "1"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("f64.npy"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'<f8'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("uint8 or float32"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out.npy"));
}

// numpy.load reads what the CLI writes (skipped where python3 lacks numpy).
TEST(CliNpy, NumpyLoadsTheCliOutput) {
  if (std::system("python3 -c 'import numpy' >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3 with numpy";
  TempDir dir;
  save_image(random_image(20, 10, 4, ElemType::U8, 2), dir / "in.npy");
  ASSERT_EQ(run_cli({"run", "box", "-i", "in.npy", "-o", "out.npy", "--backend", "cpu", "--repeat", "1"},
                    dir.path())
                .exit_code,
            0);
  const std::string check =
      "python3 -c \"import numpy as np, sys; a = np.load(sys.argv[1]); "
      "assert a.dtype == np.uint8 and a.shape == (10, 20, 4), (a.dtype, a.shape)\" " +
      (dir / "out.npy").string();
  EXPECT_EQ(std::system(check.c_str()), 0);
}

}  // namespace
}  // namespace ks::test
