// `kernelscope-cli lab sort` and `lab kmeans` as a user runs them: arrays and images written and read back,
// checked against facts the test derives (sorted permutation of the seeded input, pairs kept together, at
// most k colours, the palette of the centroids, a non-increasing inertia), the JSON report, and bad requests
// with their exit codes. The CUDA variants where a GPU is present.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "cli/cli_runner.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"
#include "lab/sort/sort_cpu.hpp"
#include "lab/sort/sort_data.hpp"
#include "support/kmeans_images.hpp"
#include "support/sort_checks.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

Keys npy_keys(const std::filesystem::path& p) {
  const NdArray a = read_npy(p);
  EXPECT_EQ(a.type, DType::U32);
  const auto s = a.as<std::uint32_t>();
  return {s.begin(), s.end()};
}

const nlohmann::json* fact(const nlohmann::json& report, const std::string& name) {
  for (const auto& f : report.at("facts"))
    if (f.at("name") == name) return &f;
  return nullptr;
}

void sorts_pairs(const std::string& backend, const std::string& variant) {
  TempDir dir;
  CliResult r = run_cli(
      {"lab",   "sort",       "--size",        "2^10+1",       "--backend",        backend,  "--variant",
       variant, "-p",         "payload=pairs", "-p",           "distribution=few", "--seed", "4",
       "--out", "keys=k.npy", "--out",         "values=v.npy", "--json",           "r.json"},
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote k.npy (array keys)"), std::string::npos) << r.out;
  const Keys input = lab::make_keys(1025, lab::KeyDistribution::FewDistinct, 4);
  const Keys keys = npy_keys(dir / "k.npy"), values = npy_keys(dir / "v.npy");
  EXPECT_TRUE(is_sorted_permutation(input, keys));
  EXPECT_TRUE(pairs_are_input_pairs(input, keys, values));
  const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  EXPECT_EQ(j.at("kernel"), "sort");
  EXPECT_EQ(j.at("cost").at("bytes"), 16 * 1025);
  const auto* sorted = fact(j, "sorted");
  ASSERT_TRUE(sorted);
  EXPECT_EQ(sorted->at("value"), "yes");
  if (variant != "cpu") {
    EXPECT_EQ(j.at("check").at("agrees"), true) << j.at("check").dump();
  }
}

// Issue 23: sort reported "GFLOP/s 0.12, FLOP per byte 3" for its n log2 n comparisons. Comparisons are no
// floating-point operations: the text, the JSON and the roofline say comparisons, and give no FLOP figures.
TEST(CliLabSort, ComparisonsAreReportedAsComparisonsNotFlops) {
  TempDir dir;
  CliResult r = run_cli({"lab", "sort", "--size", "1000", "--backend", "cpu", "--json", "r.json"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 1000 keys: 1000 * ceil(log2 1000) = 10000 comparisons over 8000 bytes (each u32 key read and written once).
  EXPECT_NE(r.out.find("10000 comparisons (1.25 comparisons per byte"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" G comparisons/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("GFLOP/s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("operations per byte"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  EXPECT_EQ(j.at("cost").at("operations"), 10000);
  EXPECT_EQ(j.at("cost").at("operation_kind"), "comparison");
  EXPECT_TRUE(j.at("gflops").is_null()) << j.at("gflops");
  EXPECT_TRUE(j.at("arithmetic_intensity").is_null()) << j.at("arithmetic_intensity");
  EXPECT_TRUE(j.at("peak_gflops").is_null()) << j.at("peak_gflops");
  EXPECT_DOUBLE_EQ(j.at("comparisons_per_byte").get<double>(), 1.25);
  const double median_ms = j.at("timings_ms").at("kernel").at("median").get<double>();
  ASSERT_GT(median_ms, 0);
  EXPECT_NEAR(j.at("giga_comparisons_per_s").get<double>(), 10000 / (median_ms * 1e6), 1e-9);
  EXPECT_EQ(j.at("roofline").at("arithmetic_intensity"), 0) << "no FLOPs to place under the FLOP roof";
  EXPECT_EQ(j.at("roofline").at("gflops"), 0);
  // A kernel of floating-point work keeps its FLOP figures.
  CliResult v = run_cli({"lab", "vecadd", "--size", "1000", "--backend", "cpu", "--json", "v.json"}, dir.path());
  ASSERT_EQ(v.exit_code, 0) << v.err;
  const auto jv = nlohmann::json::parse(read_file(dir / "v.json"));
  EXPECT_EQ(jv.at("cost").at("operation_kind"), "flop");
  EXPECT_TRUE(jv.at("giga_comparisons_per_s").is_null());
  EXPECT_DOUBLE_EQ(jv.at("arithmetic_intensity").get<double>(), 1000.0 / 12000.0);
}

TEST(CliLabSort, CpuSortsSeededPairs) {
  sorts_pairs("cpu", lab::cpu_parallel_sort_unavailable_reason().empty() ? "cpu_parallel" : "cpu");
}

TEST(CliLabSort, CudaVariantsSortSeededPairs) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device";
  sorts_pairs("cuda", "bitonic");
  sorts_pairs("cuda", "radix");
}

TEST(CliLabSort, SortsKeysFromAFile) {
  TempDir dir;
  NdArray in{"", DType::U32, {7}, std::vector<std::byte>(28)};
  const std::uint32_t keys[7] = {9, 0xffffffffu, 3, 3, 0, 12, 7};
  std::memcpy(in.data.data(), keys, sizeof keys);
  write_npy(dir / "in.npy", in);
  CliResult r = run_cli(
      {"lab", "sort", "--size", "7", "--backend", "cpu", "--in", "keys=in.npy", "--out", "keys=out.npy"},
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(npy_keys(dir / "out.npy"), (Keys{0, 3, 3, 7, 9, 12, 0xffffffffu}));
}

void quantises(const std::string& backend, const std::string& variant) {
  TempDir dir;
  const Image img = banded_image(45, 31, distinct_region_colours(), 3, 5);
  save_image(img, dir / "bands.png");
  CliResult r = run_cli({"lab", "kmeans", "-i", "bands.png", "-o", "q.png", "-p", "k=6", "--backend", backend,
                         "--variant", variant, "--json", "r.json", "--out", "centroids=c.npy"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote q.png"), std::string::npos) << r.out;
  const Image q = load_image(dir / "q.png");
  ASSERT_EQ(q.shape(), img.shape());
  // The quantised image uses exactly the centroids rounded, one per band.
  const NdArray c = read_npy(dir / "c.npy");
  ASSERT_EQ(c.shape, (std::vector<std::int64_t>{6, 3}));
  std::set<std::vector<int>> palette, used;
  for (int j = 0; j < 6; ++j) {
    std::vector<int> rgb;
    for (int ch = 0; ch < 3; ++ch)
      rgb.push_back(int(std::floor(c.as<float>()[std::size_t(3 * j + ch)] + 0.5f)));
    palette.insert(rgb);
  }
  const auto v = q.elements<std::uint8_t>();
  for (std::size_t i = 0; i < v.size(); i += 3) used.insert({v[i], v[i + 1], v[i + 2]});
  EXPECT_EQ(used, palette);
  const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  ASSERT_EQ(j.at("series").size(), 1u);
  const auto& inertia = j.at("series").at(0).at("values");
  ASSERT_GE(inertia.size(), 2u);
  for (std::size_t i = 1; i < inertia.size(); ++i)
    EXPECT_LE(inertia[i].get<double>(), inertia[i - 1].get<double>() * (1 + 1e-12));
  if (backend == "cuda") {
    EXPECT_EQ(j.at("check").at("agrees"), true) << j.at("check").dump();
  }
}

TEST(CliLabKmeans, CpuQuantisesAnImage) {
  quantises("cpu", "cpu");
}

TEST(CliLabKmeans, CudaVariantsQuantiseAnImage) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device";
  quantises("cuda", "naive");
  quantises("cuda", "blocked");
}

TEST(CliLabKmeans, RunsOnTheEmbeddedSample) {
  TempDir dir;
  CliResult r = run_cli({"lab", "kmeans", "-i", "sample", "-o", "q.png", "-p", "k=3", "-p", "iterations=2",
                         "--backend", "cpu", "--repeat", "1", "--warmup", "0"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(load_image(dir / "q.png").width(), 1024);
}

struct Bad {
  std::vector<std::string> args;
  int exit_code;
  std::string message;
};

TEST(CliLabSortKmeans, BadRequestsSayWhatIsWrong) {
  TempDir dir;
  save_image(random_image(31, 1, 3, ElemType::U8, 1), dir / "tiny.png");
  const std::vector<Bad> cases = {
      {{"lab", "kmeans", "-i", "tiny.png", "-p", "k=32", "--backend", "cpu"},
       2,
       "larger than the image's 31 pixels"},
      {{"lab", "kmeans", "-p", "k=4", "--backend", "cpu"}, 2, "-i IMAGE"},
      {{"lab", "kmeans", "-i", "tiny.png", "-p", "k=0", "--backend", "cpu"}, 2, "k"},
      {{"lab", "kmeans", "-i", "tiny.png", "-p", "tolerance=-1", "--backend", "cpu"}, 2, "tolerance"},
      {{"lab", "kmeans", "-i", "tiny.png", "--size", "31", "--backend", "cpu"}, 2, "--size"},
      {{"lab", "kmeans", "-i", "missing.png", "--backend", "cpu"}, 1, "missing.png"},
      {{"lab", "kmeans", "-i", "tiny.png", "--variant", "blocked", "--backend", "cpu"}, 2, "blocked"},
      {{"lab", "sort", "--size", "2^28+1", "--backend", "cpu"}, 2, "out of range"},
      {{"lab", "sort", "--size", "1024", "-p", "distribution=gaussian", "--backend", "cpu"},
       2,
       "distribution"},
      {{"lab", "sort", "--size", "1024", "-p", "payload=triples", "--backend", "cpu"}, 2, "payload"},
      {{"lab", "sort", "--size", "1024", "--variant", "radix", "--backend", "cpu"}, 2, "--backend cuda"},
      {{"lab", "sort", "--size", "1024", "--backend", "cpu", "-o", "x.png"}, 2, "makes no image"},
      {{"lab", "sort", "--size", "1024", "--backend", "cpu", "-i", "tiny.png"}, 2, "takes no image"},
      {{"lab", "sort", "--size", "1024", "--backend", "cpu", "--out", "values=v.npy"},
       2,
       "has no array 'values'"},
  };
  for (const Bad& c : cases) {
    std::string cmd;
    for (const auto& a : c.args) cmd += a + " ";
    SCOPED_TRACE(cmd);
    CliResult r = run_cli(c.args, dir.path());
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
}

TEST(CliLabSortKmeans, CudaRefusesBlocks) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device";
  TempDir dir;
  save_image(random_image(40, 40, 3, ElemType::U8, 1), dir / "img.png");
  const std::vector<Bad> cases = {
      {{"lab", "sort", "--size", "1024", "--backend", "cuda", "--variant", "bitonic", "--block", "256"},
       2,
       "drop --block"},
      {{"lab", "kmeans", "-i", "img.png", "--backend", "cuda", "--variant", "blocked", "--block", "48"},
       2,
       "whole number of warps"},
  };
  for (const Bad& c : cases) {
    CliResult r = run_cli(c.args, dir.path());
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace ks::test
