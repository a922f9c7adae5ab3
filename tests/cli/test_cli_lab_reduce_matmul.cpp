// `kernelscope-cli lab reduce|integrate2d|matmul` as a user runs them: the arrays written as .npy files
// checked against values the test computes, matrices given in from .npy files, the facts of the report, and
// each bad request's message and exit code. CPU paths, and one CUDA run each where a GPU is present.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "io/npy.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

double json_fact(const nlohmann::json& report, const std::string& name) {
  for (const auto& f : report.at("facts"))
    if (f.at("name") == name) return f.at("number").get<double>();
  ADD_FAILURE() << "no fact " << name;
  return NAN;
}

TEST(CliLabReduce, WritesTheValuesAndTheirSum) {
  TempDir dir;
  CliResult r =
      run_cli({"lab", "reduce", "--size", "2^20+3", "--backend", "cpu", "-p", "distribution=integers", "-p",
               "accumulate=f64", "--out", "x=x.npy", "--out", "sum=sum.npy", "--json", "r.json"},
              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("exact sum"), std::string::npos) << r.out;
  const NdArray x = read_npy(dir / "x.npy"), sum = read_npy(dir / "sum.npy");
  ASSERT_EQ(x.shape, (std::vector<std::int64_t>{(1 << 20) + 3}));
  ASSERT_EQ(sum.type, DType::F64);
  long long exact = 0;
  for (float v : x.as<float>()) exact += (long long)v;
  EXPECT_EQ(sum.as<double>()[0], double(exact));
  const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  EXPECT_EQ(json_fact(j, "exact sum"), double(exact));
  EXPECT_EQ(j.at("cost").at("bytes"), 4 * ((1 << 20) + 3));
}

TEST(CliLabIntegrate2d, ReportsTheErrorAgainstTheClosedForm) {
  TempDir dir;
  CliResult r = run_cli({"lab",       "integrate2d",
                         "--size",    "512x256",
                         "--backend", "cpu",
                         "-p",        "accumulate=f64",
                         "-p",        "integrand=quadratic",
                         "-p",        "x0=0",
                         "-p",        "x1=2",
                         "-p",        "y0=-1",
                         "-p",        "y1=1",
                         "--json",    "r.json"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("expected midpoint error"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
  // x^2 + y^2 over [0, 2] x [-1, 1]: 8/3 * 2 + 2 * 2/3 = 20/3; the midpoint rule is low by (hx^2 + hy^2)/12 *
  // area.
  EXPECT_NEAR(json_fact(j, "exact integral"), 20.0 / 3, 1e-14);
  const double hx = 2.0 / 512, hy = 2.0 / 256;
  EXPECT_NEAR(json_fact(j, "midpoint integral"), 20.0 / 3 - (hx * hx + hy * hy) / 12 * 4, 1e-9);
}

TEST(CliLabMatmul, MultipliesMatricesFromNpyFiles) {
  TempDir dir;
  const int m = 7, n = 13, k = 5;
  NdArray a{"", DType::F32, {m, k}, std::vector<std::byte>(std::size_t(4 * m * k))};
  NdArray b{"", DType::F32, {k, n}, std::vector<std::byte>(std::size_t(4 * k * n))};
  for (int i = 0; i < m * k; ++i) a.as<float>()[std::size_t(i)] = float(i % 7 - 3) * 0.5f;
  for (int i = 0; i < k * n; ++i) b.as<float>()[std::size_t(i)] = float(i % 5 - 2) * 0.25f;
  write_npy(dir / "a.npy", a);
  write_npy(dir / "b.npy", b);
  for (const char* variant : {"cpu", "openblas"}) {
    SCOPED_TRACE(variant);
    CliResult r = run_cli({"lab", "matmul", "--size", "7x13x5", "--backend", "cpu", "--variant", variant,
                           "--in", "A=a.npy", "--in", "B=b.npy", "--out", "C=c.npy"},
                          dir.path());
    if (std::string(variant) == "openblas" && r.exit_code == 2 &&
        r.err.find("no OpenBLAS") != std::string::npos)
      continue;  // a build without OpenBLAS says so
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const NdArray c = read_npy(dir / "c.npy");
    ASSERT_EQ(c.shape, (std::vector<std::int64_t>{m, n}));
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double want = 0;  // products of quarters and halves, sums below 2^24 quarters: exact in f32
        for (int p = 0; p < k; ++p)
          want += double(a.as<float>()[std::size_t(i * k + p)]) * b.as<float>()[std::size_t(p * n + j)];
        ASSERT_EQ(double(c.as<float>()[std::size_t(i * n + j)]), want) << i << "," << j;
      }
  }
}

TEST(CliLabReduceMatmul, BadRequestsSayWhatIsWrong) {
  TempDir dir;
  const auto refused = [&](std::vector<std::string> args, const std::string& message) {
    expect_refused(args, 2, message, dir.path());
  };
  refused({"lab", "matmul", "--size", "8193x8x8", "--backend", "cpu"}, "out of range");
  refused({"lab", "matmul", "--size", "16x16", "--backend", "cpu"}, "matmul");
  refused({"lab", "matmul", "--streams", "2", "--host", "pinned", "--backend", "cuda", "--size", "8x8x8"},
          "cannot split");
  refused({"lab", "integrate2d", "--backend", "cpu", "-p", "integrand=invx"}, "contains x = 0");
  refused(
      {"lab", "integrate2d", "--backend", "cpu", "-p", "integrand=invx", "-p", "x0=1e-42", "-p", "x1=1e-41"},
      "overflows f32");
  refused({"lab", "integrate2d", "--backend", "cpu", "-p", "x0=2", "-p", "x1=1"}, "must be less than");
  refused({"lab", "integrate2d", "--backend", "cpu", "--size", "65537x2"}, "65536");
  refused({"lab", "reduce", "--backend", "cpu", "-p", "accumulate=f16"}, "accumulate");
  refused({"lab", "reduce", "--backend", "cpu", "--size", "2^30+1"}, "out of range");
  refused({"lab", "reduce", "--backend", "cpu", "--variant", "tree"}, "has no variant 'tree'");
}

TEST(CliLabReduceMatmul, CudaRunsAgreeWithTheCpu) {
  if (!gpu_available()) GTEST_SKIP() << "no CUDA device";
  TempDir dir;
  const std::vector<std::vector<std::string>> runs = {
      {"lab", "reduce", "--size", "2^20+3", "--variant", "warp", "-p", "accumulate=f64"},
      {"lab", "integrate2d", "--size", "1025x31", "--variant", "shared"},
      {"lab", "matmul", "--size", "129x65x33", "--variant", "regtiled", "--block", "16x16"},
      {"lab", "matmul", "--size", "129x65x33", "--variant", "cublas_tf32"}};
  for (auto args : runs) {
    SCOPED_TRACE(args[1] + " " + args[5]);
    args.insert(args.end(), {"--backend", "cuda", "--json", "r.json"});
    CliResult r = run_cli(args, dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto j = nlohmann::json::parse(read_file(dir / "r.json"));
    EXPECT_EQ(j.at("check").at("agrees"), true) << j.at("check").dump();
  }
}

}  // namespace
}  // namespace ks::test
