// Enum names (gpu/core/enum_names.hpp) and the thirteen enums that take their names from it: every value's
// name, the way back, and the usage errors people see for other text, word for word as the hand-written pairs
// gave them before the tables replaced those.
#include <gtest/gtest.h>

#include <string>

#include "core/dtype.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/image.hpp"
#include "lab/host_mode.hpp"
#include "lab/integrate2d/integrand.hpp"
#include "lab/matmul/matmul_cuda.hpp"
#include "lab/reduce/reduce_input.hpp"
#include "lab/reduce/sum_variant.hpp"
#include "lab/sort/sort_data.hpp"
#include "registry/kernel_spec.hpp"
#include "report/colormap.hpp"
#include "report/sim_frames.hpp"
#include "stencil/border.hpp"
#include "topo/inputs/topology.hpp"

namespace ks {
namespace {

enum class Fruit { Apple, Pear, Quince, Unnamed };
constexpr EnumName<Fruit> kFruitNames[] = {
    {Fruit::Apple, "apple"}, {Fruit::Pear, "pear"}, {Fruit::Quince, "quince"}};
constexpr EnumName<Fruit> kOneFruit[] = {{Fruit::Pear, "pear"}};

// The full message of the usage Error that `parse` throws.
template <class Parse>
std::string usage_message(Parse parse) {
  try {
    parse();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    return e.full_message();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(EnumNames, NameOfEachValueAndQuestionMarkForOneNotInTheTable) {
  EXPECT_STREQ(name_of(kFruitNames, Fruit::Apple), "apple");
  EXPECT_STREQ(name_of(kFruitNames, Fruit::Quince), "quince");
  EXPECT_STREQ(name_of(kFruitNames, Fruit::Unnamed), "?");
  static_assert(name_of(kFruitNames, Fruit::Pear)[0] == 'p', "usable in constant expressions");
}

TEST(EnumNames, NamesListedWithCommasAndTheLastSeparator) {
  EXPECT_EQ(names_listed(kFruitNames), "apple, pear or quince");
  EXPECT_EQ(names_listed(kFruitNames, "--fruit "), "--fruit apple, --fruit pear or --fruit quince");
  EXPECT_EQ(names_listed(kFruitNames, "", ", "), "apple, pear, quince");
  EXPECT_EQ(names_listed(kOneFruit), "pear");
}

TEST(EnumNames, ValueNamedOrAUsageErrorWithTheDefaultOrTheGivenHint) {
  EXPECT_EQ(value_named(kFruitNames, "pear", "fruit"), Fruit::Pear);
  EXPECT_EQ(usage_message([] { value_named(kFruitNames, "Pear", "fruit"); }),
            "unknown fruit 'Pear'. use apple, pear or quince");
  EXPECT_EQ(usage_message([] { value_named(kFruitNames, "", "fruit", "pick one"); }),
            "unknown fruit ''. pick one");
}

TEST(EnumNames, ProjectEnumsRoundTrip) {
  for (Border b : {Border::Replicate, Border::Reflect, Border::Reflect101, Border::Wrap, Border::Constant})
    EXPECT_EQ(border_from_string(to_string(b)), b);
  EXPECT_STREQ(to_string(Border::Reflect101), "reflect101");
  for (Backend b : {Backend::Cpu, Backend::Cuda}) EXPECT_EQ(backend_from_string(to_string(b)), b);
  for (DType t : {DType::F32, DType::F64, DType::U32, DType::I32, DType::U64})
    EXPECT_EQ(dtype_from_string(to_string(t)), t);
  for (ElemType t : {ElemType::U8, ElemType::U16, ElemType::F32})
    EXPECT_EQ(elem_type_from_string(to_string(t)), t);
  EXPECT_STREQ(to_string(ElemType::U16), "u16");
  EXPECT_EQ(topo::metric_from_string("weighted"), topo::Metric::Weighted);
  EXPECT_STREQ(to_string(topo::Metric::Hops), "hops");
  EXPECT_EQ(lab::host_mode_from_string("managed-prefetch"), lab::HostMode::ManagedPrefetch);
  EXPECT_STREQ(to_string(lab::HostMode::Pinned), "pinned");
  EXPECT_EQ(lab::key_distribution_from_string("few"), lab::KeyDistribution::FewDistinct);
  EXPECT_STREQ(to_string(lab::KeyDistribution::Reversed), "reversed");
  EXPECT_EQ(lab::matmul_variant_from_string("cublas_tf32"), lab::MatmulVariant::CublasTf32);
  EXPECT_STREQ(to_string(lab::MatmulVariant::Regtiled), "regtiled");
  EXPECT_EQ(lab::integrand_from_string("invx"), lab::Integrand::InvX);
  EXPECT_STREQ(to_string(lab::Integrand::SinCos), "sincos");
  EXPECT_EQ(lab::accumulate_from_string("f64"), lab::Accumulate::F64);
  EXPECT_STREQ(to_string(lab::Accumulate::F32), "f32");
  EXPECT_EQ(lab::sum_variant_from_string("cub"), lab::SumVariant::Cub);
  EXPECT_STREQ(to_string(lab::SumVariant::Warp), "warp");
  EXPECT_EQ(lab::reduce_distribution_from_string("integers"), lab::ReduceDistribution::Integers);
  EXPECT_STREQ(to_string(lab::ReduceDistribution::Normal), "normal");
  EXPECT_EQ(report::parse_colormap("magma"), report::Colormap::Magma);
  EXPECT_EQ(report::colormap_name(report::Colormap::Diverging), "diverging");
}

TEST(EnumNames, ProjectEnumsRefuseOtherTextWithTheirMessages) {
  EXPECT_EQ(usage_message([] { border_from_string("mirror"); }),
            "unknown border mode 'mirror'. use replicate, reflect, reflect101, wrap or constant");
  EXPECT_EQ(usage_message([] { backend_from_string("gpu"); }),
            "unknown backend 'gpu'. use --backend cpu or --backend cuda");
  EXPECT_EQ(usage_message([] { dtype_from_string("f16"); }),
            "unknown element type 'f16'. use f32, f64, u32, i32 or u64");
  EXPECT_EQ(usage_message([] { elem_type_from_string("u32"); }),
            "unknown element type 'u32'. use u8, u16 or f32");
  EXPECT_EQ(usage_message([] { topo::metric_from_string("miles"); }),
            "unknown metric 'miles'. use --metric hops or --metric weighted");
  EXPECT_EQ(usage_message([] { lab::host_mode_from_string("locked"); }),
            "unknown host memory mode 'locked'. use pageable, pinned, mapped, managed or managed-prefetch");
  EXPECT_EQ(usage_message([] { lab::key_distribution_from_string("zipf"); }),
            "unknown key distribution 'zipf'. use uniform, few, sorted or reversed");
  EXPECT_EQ(usage_message([] { lab::matmul_variant_from_string("strassen"); }),
            "unknown matmul variant 'strassen'. use naive, tiled, regtiled, cublas or cublas_tf32");
  EXPECT_EQ(usage_message([] { lab::integrand_from_string("sin"); }),
            "unknown integrand 'sin'. use sincos, gauss, quadratic, poly or invx");
  EXPECT_EQ(usage_message([] { lab::accumulate_from_string("f16"); }),
            "unknown accumulation type 'f16'. use accumulate=f32 or accumulate=f64");
  EXPECT_EQ(usage_message([] { lab::sum_variant_from_string("tree"); }),
            "unknown sum variant 'tree'. use atomic, shared, warp or cub");
  EXPECT_EQ(usage_message([] { lab::reduce_distribution_from_string("poisson"); }),
            "unknown distribution 'poisson'. use uniform, integers or normal");
  EXPECT_EQ(usage_message([] { report::parse_colormap("pink"); }),
            "unknown colormap 'pink'. choose one of gray, viridis, magma, diverging");
}

}  // namespace
}  // namespace ks
