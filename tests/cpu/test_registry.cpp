// The registry is read by every front end: every kernel must be complete and self-consistent.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "lab/lab_kernel.hpp"
#include "registry/registry.hpp"
#include "topo/search/search.hpp"

namespace ks {
namespace {

TEST(Registry, HasTheStencilKernels) {
  const auto& reg = KernelRegistry::builtin();
  for (const char* id : {"box", "gaussian", "sobel", "laplacian", "sharpen", "median", "convolve"})
    EXPECT_NE(reg.find(id), nullptr) << id;
}

TEST(Registry, EveryKernelIsComplete) {
  for (const auto& k : KernelRegistry::builtin().kernels()) {
    SCOPED_TRACE(k.id);
    EXPECT_FALSE(k.title.empty());
    EXPECT_FALSE(k.description.empty());
    ASSERT_FALSE(k.variants.empty());
    EXPECT_EQ(k.variants.front().name, "cpu") << "the CPU reference comes first";
    for (const auto& p : k.params) {
      EXPECT_FALSE(p.help.empty()) << p.name;
      if (p.type == ParamType::Int || p.type == ParamType::Float) {
        EXPECT_LT(p.min, p.max) << p.name;
      }
    }
    ParamSet defaults = k.default_params();  // throws if a default is outside its own range
    if (k.category == "lab") {
      // Lab kernels are sized by element counts, not images: their cost comes from the lab part.
      ASSERT_TRUE(k.lab);
      EXPECT_FALSE(k.cost);
      const auto& info = k.lab->info();
      EXPECT_EQ(info.id, k.id);
      const CostModel c = k.lab->cost(info.default_size, defaults);
      EXPECT_GT(c.bytes, 0u);
      EXPECT_GT(c.operations, 0u);
      continue;
    }
    if (k.category == "topology") {  // the search: no image, so no element types or channels
      ASSERT_TRUE(k.cost);
      continue;
    }
    EXPECT_FALSE(k.types.empty());
    EXPECT_FALSE(k.channels.empty());
    ASSERT_TRUE(k.cost);
    CostModel c = k.cost(ImageShape{640, 480, 1, ElemType::U8}, defaults);
    EXPECT_EQ(c.bytes, 2u * 640 * 480) << "one read and one write of the image";
    EXPECT_GT(c.operations, 0u);
  }
}

TEST(Registry, UnknownKernelIsAUsageErrorListingTheKnownOnes) {
  try {
    KernelRegistry::builtin().get("blurr");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.hint().find("gaussian"), std::string::npos);
  }
}

TEST(Registry, SeparableVariantOnlyWhereTheFilterSeparates) {
  const auto& reg = KernelRegistry::builtin();
  for (const char* id : {"box", "gaussian", "sobel", "sharpen"}) {
    const auto& k = reg.get(id);
    ASSERT_NE(k.find_variant("separable"), nullptr) << id;
    EXPECT_FALSE(k.unavailable_reason("separable", k.default_params())) << id;
  }
  for (const char* id : {"laplacian", "median"}) EXPECT_EQ(reg.get(id).find_variant("separable"), nullptr);
  // convolve separates where its matrix has rank 1, and says why not elsewhere.
  const auto& conv = reg.get("convolve");
  ASSERT_NE(conv.find_variant("separable"), nullptr);
  EXPECT_TRUE(conv.unavailable_reason("separable", conv.default_params()));
  ParamSet outer = conv.default_params();
  outer.set("matrix", "1,2,1;2,4,2;1,2,1");
  EXPECT_FALSE(conv.unavailable_reason("separable", outer));
}

TEST(Registry, SearchParametersReachTheSearch) {
  const KernelSpec& k = KernelRegistry::builtin().get("search");
  EXPECT_EQ(k.category, "topology");
  ParamSet params = k.default_params();
  params.set("algorithm", "anneal");
  params.set("chains", "12");
  params.set("tenure", "2.5");
  params.set("elites", "3");
  const topo::SearchParams q = topo::search_params_from(params);
  EXPECT_EQ(q.algorithm, topo::SearchAlgorithm::Anneal);
  EXPECT_EQ(q.chains, 12);
  EXPECT_EQ(q.tenure, 2.5);
  EXPECT_EQ(q.elites, 3);
  EXPECT_THROW(params.set("perturb", "1.5"), Error);  // outside 0 .. 1: refused, not clamped
}

}  // namespace
}  // namespace ks
