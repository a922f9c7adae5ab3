// The lab's CUDA sorts against the CPU reference: bitonic and radix, keys and pairs, every key distribution,
// on n = 1, 31, 1025, 4096, 4097, 2^20 + 3 (one block, several, a power of two, padding, every register-pass
// width of bitonic). Keys exactly as std::sort orders them; pairs: every output pair an input pair, radix in
// input order within equal keys (stable), bitonic by value (not stable: shown with values that run against
// the input order). Then the same through run_lab (repeats sort the restored input), and the blocks it
// refuses.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "lab/sort/cuda/sort_cuda.hpp"
#include "lab/sort/sort_data.hpp"
#include "support/lab_sort_kmeans_requests.hpp"
#include "support/sort_checks.hpp"
#include "support/test_support.hpp"

namespace ks::lab {
namespace {

using cuda::GpuSort;
using test::Keys;

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

void* stream() {
  return engine().cuda().stream();
}

const std::size_t kSizes[] = {1, 31, 1025, 4096, 4097, (std::size_t(1) << 20) + 3};
const KeyDistribution kDistributions[] = {KeyDistribution::Uniform, KeyDistribution::FewDistinct,
                                          KeyDistribution::Sorted, KeyDistribution::Reversed};

const char* name(GpuSort v) {
  return v == GpuSort::Radix ? "radix" : "bitonic";
}

class LabSortCuda : public ::testing::TestWithParam<std::tuple<GpuSort, std::size_t, KeyDistribution>> {};

TEST_P(LabSortCuda, KeysMatchStdSort) {
  KS_REQUIRE_GPU();
  const auto [variant, n, dist] = GetParam();
  const Keys input = make_keys(n, dist, 3);
  Keys keys = input;
  const auto times = cuda::sort_on_gpu(variant, keys, {}, 2, stream());
  EXPECT_EQ(times.sort_ms.size(), 2u);
  Keys expected = input;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(keys, expected) << name(variant);
  EXPECT_TRUE(test::is_sorted_permutation(input, keys));
}

TEST_P(LabSortCuda, PairsStayTogether) {
  KS_REQUIRE_GPU();
  const auto [variant, n, dist] = GetParam();
  const Keys input = make_keys(n, dist, 5), positions = make_positions(n);
  Keys keys = input, values = positions;
  cuda::sort_on_gpu(variant, keys, values, 1, stream());
  EXPECT_TRUE(test::is_sorted_permutation(input, keys));
  EXPECT_TRUE(test::pairs_are_input_pairs(input, keys, values));
  // With positions as values, input order and value order of equal keys coincide: both variants give it.
  EXPECT_EQ(values, test::stable_order(input, positions)) << name(variant);
}

INSTANTIATE_TEST_SUITE_P(All, LabSortCuda,
                         ::testing::Combine(::testing::Values(GpuSort::Bitonic, GpuSort::Radix),
                                            ::testing::ValuesIn(kSizes),
                                            ::testing::ValuesIn(kDistributions)));

// Values that run against the input order (n - 1 - position) separate the two orders of equal keys.
TEST(LabSortCudaStability, RadixIsStableBitonicOrdersTiesByValue) {
  KS_REQUIRE_GPU();
  for (std::size_t n : {std::size_t(1025), (std::size_t(1) << 20) + 3}) {
    const Keys input = make_keys(n, KeyDistribution::FewDistinct, 9);
    Keys reversed(n);
    for (std::size_t i = 0; i < n; ++i) reversed[i] = std::uint32_t(n - 1 - i);
    const Keys stable = test::stable_order(input, reversed),
               by_value = test::by_key_then_value(input, reversed);
    ASSERT_NE(stable, by_value);  // the two claims can be told apart on this input
    Keys k1 = input, v1 = reversed;
    cuda::sort_on_gpu(GpuSort::Radix, k1, v1, 1, stream());
    EXPECT_EQ(v1, stable) << "radix is not stable at n = " << n;
    Keys k2 = input, v2 = reversed;
    cuda::sort_on_gpu(GpuSort::Bitonic, k2, v2, 1, stream());
    EXPECT_EQ(v2, by_value) << "bitonic does not order equal keys by value at n = " << n;
    EXPECT_EQ(k1, k2);
  }
}

TEST(LabSortCudaEdges, MaximalKeysAndValuesSurviveThePadding) {
  KS_REQUIRE_GPU();
  // UINT32_MAX is also bitonic's padding sentinel: real keys of that value must all come back, with values.
  const std::size_t n = 1025;
  Keys keys(n), values(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = i % 3 == 0 ? 0xffffffffu : std::uint32_t(i);
    values[i] = i % 5 == 0 ? 0xffffffffu : std::uint32_t(i);
  }
  for (GpuSort v : {GpuSort::Bitonic, GpuSort::Radix}) {
    Keys k = keys, val = values;
    cuda::sort_on_gpu(v, k, val, 1, stream());
    EXPECT_TRUE(test::is_sorted_permutation(keys, k)) << name(v);
    // Pairs as a multiset: sort both (key, value) lists and compare.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> in, out;
    for (std::size_t i = 0; i < n; ++i) in.emplace_back(keys[i], values[i]), out.emplace_back(k[i], val[i]);
    std::sort(in.begin(), in.end());
    std::sort(out.begin(), out.end());
    EXPECT_EQ(in, out) << name(v);
  }
}

TEST(LabSortCudaRun, FrameworkRunsAgreeWithTheCpu) {
  KS_REQUIRE_GPU();
  for (const std::string variant : {"bitonic", "radix"})
    for (const std::string payload : {"keys", "pairs"})
      for (HostMode host : {HostMode::Pageable, HostMode::Pinned, HostMode::Mapped}) {
        LabRequest req = test::sort_request((1 << 20) + 3, Backend::Cuda, variant,
                                            {"distribution=few", "payload=" + payload});
        req.host = host;
        req.repeat = 3;
        const LabResult r = run_lab(engine(), req);
        EXPECT_TRUE(r.report.check.agrees) << variant << " " << payload << ": " << r.report.check.detail;
        const Keys input = make_keys((1 << 20) + 3, KeyDistribution::FewDistinct, 1);
        const auto k = test::array_named(r, "keys").as<std::uint32_t>();
        EXPECT_TRUE(test::is_sorted_permutation(input, Keys(k.begin(), k.end())));
        EXPECT_EQ(r.report.kernel_time.count, 3);
      }
}

TEST(LabSortCudaRun, RadixPairsWithUserValuesAgreeAsMultisets) {
  KS_REQUIRE_GPU();
  // Values that are not the positions: radix keeps the input order of equal keys, the CPU orders them by
  // value; the check accepts that (same values per run of equal keys) and says so.
  LabRequest req = test::sort_request(4097, Backend::Cuda, "radix", {"distribution=few", "payload=pairs"});
  NdArray values;
  values.name = "values";
  values.type = DType::U32;
  values.shape = {4097};
  values.data.resize(4097 * 4);
  auto v = values.as<std::uint32_t>();
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint32_t(4096 - i);
  req.inputs.push_back(values);
  const LabResult r = run_lab(engine(), req);
  EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
  EXPECT_NE(r.report.check.detail.find("another order"), std::string::npos) << r.report.check.detail;
}

TEST(LabSortCudaRun, RefusesBlocks) {
  KS_REQUIRE_GPU();
  for (const std::string variant : {"bitonic", "radix"}) {
    LabRequest req = test::sort_request(1025, Backend::Cuda, variant);
    req.block = BlockShape{256, 1};
    try {
      run_lab(engine(), req);
      FAIL() << variant;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_NE(e.full_message().find("drop --block"), std::string::npos) << e.full_message();
    }
  }
}

TEST(LabSortCudaRun, WorkspaceSizes) {
  KS_REQUIRE_GPU();
  // Bitonic: none for a power of two of keys, the padded copy otherwise (8 bytes per element for pairs).
  EXPECT_EQ(cuda::sort_workspace_bytes(GpuSort::Bitonic, 4096, false), 0u);
  EXPECT_EQ(cuda::sort_workspace_bytes(GpuSort::Bitonic, 4097, false), 8192u * 4);
  EXPECT_EQ(cuda::sort_workspace_bytes(GpuSort::Bitonic, 4097, true), 8192u * 8);
  // Radix: at least the other half of the double buffer.
  EXPECT_GE(cuda::sort_workspace_bytes(GpuSort::Radix, 4097, false), 4097u * 4);
  EXPECT_GE(cuda::sort_workspace_bytes(GpuSort::Radix, 4097, true), 2 * 4097u * 4);
  EXPECT_THROW(cuda::sort_workspace_bytes(GpuSort::Radix, kMaxSortElements + 1, false), Error);
}

}  // namespace
}  // namespace ks::lab
