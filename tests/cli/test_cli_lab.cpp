// `kernelscope-cli lab` as a user runs it: the report, the files it writes (.npy arrays, JSON, CSV) checked
// against values the test computes, arrays given back in with --in, and each bad request's message and exit
// code (2 for the request, 1 for a missing GPU or an unreadable file). CPU paths here; the GPU's in tests/gpu.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "io/npy.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

TEST(CliLab, VecaddOnTheCpuWritesArraysJsonAndCsv) {
  TempDir dir;
  CliResult r = run_cli({"lab", "vecadd", "--size", "2^10+1", "--backend", "cpu", "--json", "r.json", "--csv", "r.csv",
                         "--out", "a=a.npy", "--out", "b=b.npy", "--out", "c=c.npy", "--repeat", "3"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("vecadd cpu n = 1025 on CPU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote c.npy (array c)"), std::string::npos) << r.out;
  const NdArray a = read_npy(dir / "a.npy"), b = read_npy(dir / "b.npy"), c = read_npy(dir / "c.npy");
  ASSERT_EQ(c.shape, (std::vector<std::int64_t>{1025}));
  ASSERT_EQ(c.type, DType::F32);
  for (std::size_t i = 0; i < 1025; ++i)
    ASSERT_EQ(c.as<float>()[i], float(double(a.as<float>()[i]) + double(b.as<float>()[i]))) << i;
  const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  EXPECT_EQ(j.at("schema"), "kernelscope.lab/1");
  EXPECT_EQ(j.at("kernel"), "vecadd");
  EXPECT_EQ(j.at("size").at("elements"), 1025);
  EXPECT_EQ(j.at("cost").at("bytes"), 12 * 1025);
  EXPECT_EQ(j.at("timings_ms").at("kernel").at("count"), 3);
  EXPECT_EQ(j.at("check").at("checked"), false);
  const std::string csv = read_file(dir / "r.csv");
  EXPECT_EQ(csv.rfind("run,lane,stream,chunk,start_ms,end_ms,ms,bytes\n", 0), 0u) << csv;
  EXPECT_NE(csv.find("median,kernel,"), std::string::npos) << csv;
}

TEST(CliLab, ArraysGoBackInFromNpyFiles) {
  TempDir dir;
  NdArray x{"", DType::F32, {4}, std::vector<std::byte>(16)};
  const float xs[4] = {1, 2, 3, 4}, ys[4] = {0.5f, 0.25f, -8, 1e-3f};
  std::memcpy(x.data.data(), xs, 16);
  NdArray y = x;
  std::memcpy(y.data.data(), ys, 16);
  write_npy(dir / "x.npy", x);
  write_npy(dir / "y.npy", y);
  CliResult r = run_cli({"lab", "saxpy", "--size", "4", "-p", "alpha=0.5", "--backend", "cpu", "--in", "x=x.npy",
                         "--in", "y=y.npy", "--out", "y=out.npy"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const NdArray out = read_npy(dir / "out.npy");
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out.as<float>()[std::size_t(i)], 0.5f * xs[i] + ys[i]) << i;
}

struct Bad {
  std::vector<std::string> args;
  int exit_code;
  std::string message;
};

TEST(CliLab, BadRequestsSayWhatIsWrong) {
  TempDir dir;
  NdArray f64{"", DType::F64, {8}, std::vector<std::byte>(64)};
  write_npy(dir / "f64.npy", f64);
  write_file(dir / "corrupt.npy", "\x93NUMPY\x01\x00garbage");
  const std::vector<Bad> cases = {
      {{"lab", "vecadd", "--size", "0", "--backend", "cpu"}, 2, "a count must be at least 1"},
      {{"lab", "vecadd", "--size", "2^30+1", "--backend", "cpu"}, 2, "n = 1073741825 is out of range"},
      {{"lab", "vecadd", "--size", "64x64", "--backend", "cpu"}, 2, "does not fit vecadd"},
      {{"lab", "vecadd", "--size", "lots", "--backend", "cpu"}, 2, "'lots' is not a count"},
      {{"lab", "vecadd", "--streams", "0", "--backend", "cpu"}, 2, "--streams 0 is not possible"},
      {{"lab", "vecadd", "--streams", "4", "--backend", "cpu"}, 2, "--streams applies to the CUDA backend"},
      {{"lab", "vecadd", "--streams", "4", "--host", "mapped", "--backend", "cuda", "--size", "1024"}, 2,
       "no copies to overlap"},
      {{"lab", "vecadd", "--block", "16x16", "--backend", "cuda"}, 2, "takes a 1-D block, not 16x16"},
      {{"lab", "vecadd", "--block", "0", "--backend", "cuda"}, 2, "has no threads"},
      {{"lab", "vecadd", "--host", "pinned", "--backend", "cpu"}, 2, "applies to the CUDA backend only"},
      {{"lab", "vecadd", "--host", "paged"}, 2, "pageable"},
      {{"lab", "vecadd", "--variant", "warp", "--backend", "cpu"}, 2, "has no variant 'warp'"},
      {{"lab", "vecadd", "--backend", "cpu", "--size", "8", "--in", "a=f64.npy"}, 2,
       "the file holds f64 of shape (8)"},
      {{"lab", "vecadd", "--backend", "cpu", "--size", "9", "--in", "a=missing.npy"}, 1, "missing.npy"},
      {{"lab", "vecadd", "--backend", "cpu", "--size", "9", "--in", "a=corrupt.npy"}, 1, "corrupt.npy"},
      {{"lab", "vecadd", "--backend", "cpu", "--size", "9", "--in", "a"}, 2, "is not NAME=FILE"},
      {{"lab", "vecadd", "--backend", "cpu", "--size", "9", "--out", "d=d.npy"}, 2, "has no array 'd'"},
      {{"lab", "vecadd", "--backend", "cpu", "-o", "x.png"}, 2, "makes no image"},
      {{"lab", "vecadd", "--backend", "cpu", "-p", "alpha=2"}, 2, "alpha"},
      {{"lab", "saxpy", "--backend", "cpu", "-p", "alpha=nan"}, 2, "alpha"},
      {{"lab", "box"}, 2, "not a lab kernel"},
      {{"lab", "nope"}, 2, "unknown kernel 'nope'"},
  };
  for (const Bad& c : cases) {
    std::string cmd;
    for (const auto& a : c.args) cmd += a + " ";
    SCOPED_TRACE(cmd);
    CliResult r = run_cli(c.args, dir.path());
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "d.npy"));
}

// Issue 23: `--chunks -1` without --streams ran with exit 0. A count below 1 (an explicit 0 too) is refused and
// the message says where --chunks applies, with or without --streams.
TEST(CliLab, ChunkCountsBelowOneAreRefused) {
  TempDir dir;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"lab", "vecadd", "--chunks", "-1", "--backend", "cpu", "--size", "1000"},
        std::vector<std::string>{"lab", "vecadd", "--chunks", "0", "--backend", "cpu", "--size", "1000"},
        std::vector<std::string>{"lab", "reduce", "--chunks", "-3", "--streams", "2", "--host", "pinned",
                                 "--backend", "cuda", "--size", "1000"}}) {
    SCOPED_TRACE(args[3]);
    CliResult r = run_cli(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("--chunks " + args[3] + " is not possible"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--chunks only applies with --streams K > 1"), std::string::npos) << r.err;
  }
}

// Issue 23: a .npy header claiming 2^40 values in a 128-byte file made the loader allocate 4 TiB and answer
// "out of host memory. Try a smaller image": the refusal names the file, what it declares and what it holds.
TEST(CliLab, AnNpyHeaderClaimingMoreThanItsFileHoldsIsRefused) {
  TempDir dir;
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }";
  dict.append(117 - dict.size(), ' ');
  dict += '\n';
  write_file(dir / "big.npy", std::string("\x93NUMPY\x01\x00", 8) + char(118) + char(0) + dict);
  CliResult r = run_cli({"lab", "vecadd", "--backend", "cpu", "--in", "a=big.npy"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("big.npy"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("declares 1099511627776 f32 values"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the file holds 0"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("memory"), std::string::npos) << r.err;
}

TEST(CliLab, CudaWithoutAGpuIsARuntimeFailure) {
  if (gpu_available()) GTEST_SKIP() << "this machine has a GPU";
  TempDir dir;
  CliResult r = run_cli({"lab", "vecadd", "--backend", "cuda", "--size", "1024"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--backend cpu"), std::string::npos) << r.err;
}

TEST(CliLab, ListShowsTheLabKernelsAndTheirSizes) {
  TempDir dir;
  CliResult r = run_cli({"list", "vecadd"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("lab kernels"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("size: n 1..2^30 (default 2^24)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("vector4"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(run_cli({"list", "saxpy", "--json"}, dir.path()).out);
  EXPECT_EQ(j.at("kernels").at(0).at("lab").at("size_form"), "n");
  EXPECT_EQ(j.at("kernels").at(0).at("lab").at("splits"), true);
}

TEST(CliLab, BenchTakesLabKernelsWithElementCounts) {
  TempDir dir;
  CliResult r = run_cli({"bench", "--kernels", "vecadd,saxpy", "--sizes", "2^10,1025", "--backends", "cpu",
                         "--csv", "b.csv", "--json", "b.json", "--repeat", "2"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = read_file(dir / "b.csv");
  EXPECT_NE(csv.find("\nvecadd,,1024,,cpu,cpu,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nsaxpy,,1025,,cpu,cpu,"), std::string::npos) << csv;
  const auto j = nlohmann::json::parse(read_file(dir / "b.json"));
  ASSERT_EQ(j.at("results").size(), 4u);
  EXPECT_EQ(j.at("results").at(0).at("report").at("schema"), "kernelscope.lab/1");
  EXPECT_EQ(run_cli({"bench", "--kernels", "vecadd", "--sizes", "8x8", "--backends", "cpu"}, dir.path()).exit_code, 2);
}

}  // namespace
}  // namespace ks::test
