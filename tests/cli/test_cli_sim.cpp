// `sim`: the final state and the frames equal what the library computes, the JSON report holds the steps, the
// timings and the population, and bad requests exit 2 (the request) or 1 (files, the machine) without leaving
// an output file. Ctrl-C stops between chunks with 130 and keeps only complete frames (and no GIF).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/cli_runner.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "sim/life_patterns.hpp"
#include "sim/simulation.hpp"
#include "support/test_support.hpp"

#if KS_HAVE_GIF
#include "support/gif_decode.hpp"
#endif

namespace ks::test {
namespace {

namespace fs = std::filesystem;

CliResult sim(std::vector<std::string> args, const TempDir& dir) {
  args.insert(args.begin(), "sim");
  return run_cli(args, dir.path());
}

// Life on the CPU through the library, from a built-in pattern: what the CLI's output is compared with.
Simulation library_life(Engine& engine, int width, int height, const std::string& pattern) {
  SimulationRequest req;
  req.kernel = "life";
  req.params = KernelRegistry::builtin().get("life").default_params();
  req.width = width, req.height = height;
  return Simulation(engine, req, SimulationStart{.pattern = sim::builtin_pattern(pattern)});
}

long long white_cells(const Image& img) {
  long long n = 0;
  for (auto v : img.elements<std::uint8_t>()) {
    EXPECT_TRUE(v == 0 || v == 255) << int(v);
    n += v == 255;
  }
  return n;
}

TEST(CliSim, LifeWritesTheFinalStateThePopulationAndTheReport) {
  TempDir dir;
  CliResult r = sim({"life", "--steps", "90", "--size", "200x100", "--pattern", "gosper-gun", "--backend",
                     "cpu", "-o", "gun.png", "--json", "gun.json"},
                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* word : {"median ms", "steps/s", "GB/s", "population", "wrote gun.png", "wrote gun.json"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word << " in\n" << r.out;

  // The same run through the library.
  Engine engine;
  Simulation expected = library_life(engine, 200, 100, "gosper-gun");
  expected.step(90);

  const Image png = load_image(dir / "gun.png");
  ASSERT_EQ(png.width(), 200);
  ASSERT_EQ(png.height(), 100);
  EXPECT_TRUE(images_match(png, expected.image()));
  // 90 generations of the gun: three gliders of 5 cells besides its 36.
  EXPECT_EQ(white_cells(png), 36 + 3 * 5);

  const auto j = nlohmann::json::parse(read_file(dir / "gun.json"));
  EXPECT_EQ(j.at("schema"), "kernelscope.sim/1");
  EXPECT_EQ(j.at("kernel"), "life");
  EXPECT_EQ(j.at("variant"), "cpu");
  EXPECT_EQ(j.at("backend"), "cpu");
  EXPECT_EQ(j.at("steps"), 90);
  EXPECT_EQ(j.at("population"), 36 + 3 * 5);
  EXPECT_EQ(j.at("population"), expected.population());
  EXPECT_FALSE(j.contains("total"));
  EXPECT_EQ(j.at("grid").at("width"), 200);
  EXPECT_EQ(j.at("params").at("rule"), "B3/S23");
  EXPECT_EQ(j.at("timings_ms").at("step").at("count"), 90);
  EXPECT_GT(j.at("timings_ms").at("step").at("median").get<double>(), 0);
  EXPECT_GT(j.at("steps_per_second").get<double>(), 0);
  EXPECT_EQ(j.at("bytes_per_step"), 2 * 200 * 100);
  EXPECT_TRUE(j.at("block").is_null());
  EXPECT_EQ(j.at("output"), "gun.png");
  EXPECT_TRUE(j.at("frames").is_null());
}

TEST(CliSim, BitpackedAndRleFilesGiveTheSameState) {
  TempDir dir;
  write_file(dir / "glider.rle", "#N Glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n");
  CliResult a = sim({"life", "--steps", "33", "--size", "40x30", "--pattern", "glider.rle", "--backend",
                     "cpu", "--variant", "cpu_bitpacked", "-o", "a.png"},
                    dir);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  CliResult b = sim(
      {"life", "--steps", "33", "--size", "40x30", "--pattern", "glider", "--variant", "cpu", "-o", "b.png"},
      dir);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const Image ia = load_image(dir / "a.png"), ib = load_image(dir / "b.png");
  EXPECT_TRUE(images_match(ia, ib));
  EXPECT_EQ(white_cells(ia), 5);
}

TEST(CliSim, HeatWritesEveryKthFrameAndTheTotal) {
  TempDir dir;
  CliResult r = sim({"heat", "--steps", "12", "--size", "64x48", "--param", "boundary=periodic", "--backend",
                     "cpu", "--every", "5", "--frames", "frames", "-o", "heat.png", "--json", "heat.json"},
                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The initial state and steps 5 and 10; step 12 is the final image.
  for (int i = 0; i < 3; ++i) {
    const fs::path f = dir / "frames" / fmt::format("frame_{:05}.png", i);
    ASSERT_TRUE(fs::exists(f)) << f;
    const Image img = load_image(f);
    EXPECT_EQ(img.width(), 64);
    EXPECT_EQ(img.channels(), 1);
  }
  EXPECT_FALSE(fs::exists(dir / "frames" / "frame_00003.png"));
  EXPECT_FALSE(images_match(load_image(dir / "frames" / "frame_00000.png"), load_image(dir / "heat.png")));
  const auto j = nlohmann::json::parse(read_file(dir / "heat.json"));
  EXPECT_EQ(j.at("steps"), 12);
  EXPECT_EQ(j.at("frames").at("count"), 3);
  EXPECT_EQ(j.at("frames").at("every"), 5);
  EXPECT_FALSE(j.contains("population"));
  // Periodic: the total heat is what the hot spots started with (12 discs of radius 12 at 1, some
  // overlapping).
  EXPECT_GT(j.at("total").get<double>(), 400.0);
  EXPECT_NE(r.out.find("total heat"), std::string::npos) << r.out;
}

struct BadCase {
  std::vector<std::string> args;
  int exit_code;
  const char* message;
};

TEST(CliSim, BadInputExitsWithAClearMessageAndWritesNothing) {
  TempDir dir;
  write_file(dir / "broken.rle", "x = 3, y = 3\nbob$2bo$3x!\n");
  const BadCase cases[] = {
      {{"life", "--steps", "5", "--param", "rule=B9/S23"}, 2, "9 is not a neighbour count"},
      {{"life", "--steps", "5", "--pattern", "broken.rle"}, 1, "line 2"},
      {{"life", "--steps", "5", "--pattern", "missing.rle"}, 1, "no such file"},
      {{"life", "--steps", "5", "--pattern", "no-such-pattern"}, 2, "built-in patterns: glider"},
      {{"heat", "--steps", "5", "--param", "dt=0.3"}, 2, "dt <= 0.25"},
      {{"grayscott", "--steps", "5", "--param", "Du=1"}, 2, "dt <= 0.25"},
      {{"life", "--steps", "5", "--size", "12by5"}, 2, "not a grid size"},
      {{"life", "--steps", "5", "--size", "0x5"}, 2, "not a grid size"},
      {{"life", "--steps", "5", "--size", "100000x2"}, 2, "too large"},
      {{"life", "--steps", "5", "--size", "10x10", "--pattern", "gosper-gun"}, 2, "--size 36x10"},
      {{"heat", "--steps", "5", "--pattern", "glider"}, 2, "Life patterns"},
      {{"life", "--steps", "5", "--every", "2"}, 2, "--every needs --frames or --gif"},
      {{"life", "--steps", "5", "--gif", "out.gif"}, 2, "need --every"},
      {{"life", "--steps", "5", "--every", "2", "--gif", "out.gif", "--colormap", "rainbow"}, 2, "unknown colormap"},
      {{"life", "--steps", "5", "--every", "2", "--gif", "out.gif", "--gif-delay", "0"}, 2, "--gif-delay"},
      {{"life", "--steps", "5", "--every", "2", "--gif", "nofolder/out.gif"}, 1, "does not exist"},
      {{"life", "--steps", "5", "--every", "2", "--gif", "out.gif", "--size", "70000x1"}, 2, "too large"},
      {{"box", "--steps", "5"}, 2, "not a simulation"},
      {{"nosuch", "--steps", "5"}, 2, "unknown kernel"},
      {{"life", "--steps", "0"}, 2, "steps"},
      {{"life", "--steps", "5", "--variant", "strip"}, 2, "no variant 'strip'"},
      {{"life", "--steps", "5", "--backend", "cpu", "--block", "32x8"}, 2, "--block"},
      {{"life", "--steps", "5", "-o", "nofolder/out.png"}, 1, "does not exist"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = c.args;
    if (std::find(args.begin(), args.end(), "-o") == args.end()) args.insert(args.end(), {"-o", "out.png"});
    args.insert(args.end(), {"--json", "out.json"});
    SCOPED_TRACE(fmt::format("{}", fmt::join(args, " ")));
    CliResult r = sim(args, dir);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out.png"));
    EXPECT_FALSE(fs::exists(dir / "out.json"));
    EXPECT_FALSE(fs::exists(dir / "out.gif"));
  }
}

#if KS_HAVE_GIF
// The GIF holds the initial state and every K-th generation, as the library computes them, through the colormap's
// palette (magma's ends are matplotlib's: #000004 and #FCFDBF), with the delay asked for, looping.
TEST(CliSim, GifHoldsTheInitialStateAndEveryKthGeneration) {
  TempDir dir;
  CliResult r = sim({"life", "--steps", "14", "--size", "24x20", "--pattern", "glider", "--backend", "cpu",
                     "--every", "4", "--gif", "glider.gif", "--gif-delay", "9", "--colormap", "magma", "--json",
                     "glider.json"},
                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote glider.gif (4 frames"), std::string::npos) << r.out;

  const DecodedGif gif = decode_gif(dir / "glider.gif");
  EXPECT_EQ(gif.width, 24);
  EXPECT_EQ(gif.height, 20);
  ASSERT_EQ(gif.palette.size(), 256u);
  EXPECT_EQ(gif.palette[0], (std::array<std::uint8_t, 3>{0x00, 0x00, 0x04}));
  EXPECT_EQ(gif.palette[255], (std::array<std::uint8_t, 3>{0xFC, 0xFD, 0xBF}));
  EXPECT_TRUE(gif.loops);
  // Generations 0, 4, 8, 12; the run ends at 14, which is no multiple of 4: no frame for it.
  ASSERT_EQ(gif.frames.size(), 4u);

  Engine engine;
  Simulation expected = library_life(engine, 24, 20, "glider");
  for (std::size_t k = 0; k < gif.frames.size(); ++k) {
    SCOPED_TRACE(testing::Message() << "frame " << k);
    EXPECT_EQ(gif.delays_cs[k], 9);
    const Image state = expected.image();  // 0 dead, 255 alive
    const auto cells = state.elements<std::uint8_t>();
    EXPECT_TRUE(std::equal(cells.begin(), cells.end(), gif.frames[k].begin()));
    expected.step(4);
  }
  const auto j = nlohmann::json::parse(read_file(dir / "glider.json"));
  EXPECT_EQ(j.at("gif").at("frames"), 4);
  EXPECT_EQ(j.at("gif").at("delay_cs"), 9);
  EXPECT_EQ(j.at("colormap"), "magma");
}

// Heat through viridis: the GIF's indices are the PNG frames' levels, and the PNGs are those levels in colour.
TEST(CliSim, GifAndPngFramesShowTheSamePicture) {
  TempDir dir;
  CliResult r = sim({"heat", "--steps", "200", "--size", "121x67", "--backend", "cpu", "--every", "100", "--frames",
                     "frames", "--gif", "heat.gif", "--colormap", "viridis"},
                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const DecodedGif gif = decode_gif(dir / "heat.gif");
  ASSERT_EQ(gif.frames.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    const Image png = load_image(dir / "frames" / fmt::format("frame_{:05}.png", k));
    ASSERT_EQ(png.channels(), 3);
    const auto rgb = png.elements<std::uint8_t>();
    for (std::size_t i = 0; i < gif.frames[k].size(); ++i)
      for (std::size_t c = 0; c < 3; ++c) ASSERT_EQ(rgb[3 * i + c], gif.palette[gif.frames[k][i]][c]) << k << " " << i;
  }
  // The heat spreads: the frames differ.
  EXPECT_NE(gif.frames[0], gif.frames[2]);
}
#endif

TEST(CliSim, CudaWithoutADeviceIsARuntimeError) {
  if (gpu_available()) GTEST_SKIP() << "a CUDA device is present";
  TempDir dir;
  CliResult r = sim({"life", "--steps", "5", "--backend", "cuda", "-o", "out.png"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--backend cpu"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out.png"));
}

TEST(CliSim, CtrlCStopsBetweenChunksKeepingOnlyCompleteFrames) {
  TempDir dir;
  CliProcess p({"sim", "life", "--steps", "100000000", "--size", "300x300", "--backend", "cpu", "--every",
                "1", "--frames", "frames", "-o", "out.png", "--json", "out.json", "--gif", "out.gif"},
               dir.path());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(dir / "frames" / "frame_00003.png") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(fs::exists(dir / "frames" / "frame_00003.png")) << "no frames were written";
  p.signal(SIGINT);
  CliResult r = p.wait();
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted after"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out.png"));
  EXPECT_FALSE(fs::exists(dir / "out.json"));
  for (const auto& e : fs::directory_iterator(dir.path()))  // no GIF, and no GIF's temporary either
    EXPECT_EQ(e.path().filename().string().find("gif"), std::string::npos) << e.path();
  for (const auto& e : fs::directory_iterator(dir / "frames")) {
    EXPECT_EQ(e.path().extension(), ".png") << e.path();  // no temporary file left behind
    EXPECT_EQ(load_image(e.path()).width(), 300);
  }
}

// Issue 27: the memory a run takes is printed before it starts, the report gives cell updates per second, and a
// 65536 x 65536 world is refused by the byte variant (the CPU default) before any memory is taken, naming the
// packed variants that hold it.
TEST(CliSim, PrintsTheMemoryBeforeStartingAndTheCellUpdatesPerSecond) {
  TempDir dir;
  CliResult r = sim({"life", "--steps", "4", "--size", "130x70", "--backend", "cpu", "--variant", "cpu_bitpacked",
                     "--json", "r.json"},
                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 130 cells a row = 3 words = 24 bytes, 70 rows: 1680 bytes a copy, three copies on the CPU.
  EXPECT_NE(r.out.find("memory: 5.04 kB of host memory (initial state 1.68 kB, 2 state buffers 3.36 kB)"),
            std::string::npos)
      << r.out;
  EXPECT_LT(r.out.find("memory:"), r.out.find("median ms")) << r.out;
  EXPECT_NE(r.out.find("cell updates/s:"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  EXPECT_NEAR(j.at("cell_updates_per_second").get<double>(), 130.0 * 70 * j.at("steps_per_second").get<double>(),
              1e-6 * j.at("cell_updates_per_second").get<double>());
}

TEST(CliSim, ARefusedWorldNamesThePackedVariants) {
  TempDir dir;
  CliResult r = sim({"life", "--steps", "1", "--size", "65536x65536", "--backend", "cpu"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("cpu_bitpacked"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("memory:"), std::string::npos) << "refused before the estimate: " << r.out;
}

}  // namespace
}  // namespace ks::test
