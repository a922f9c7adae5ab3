#pragma once
// Two sweep results compared field by field, floating-point values by their bits: what "the same result" means for
// sweeps split over workers, ranks or sessions.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

#include "topo/evaluation.hpp"

namespace ks::test {

inline bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

inline void expect_identical(const topo::EvalResult& got, const topo::EvalResult& want) {
  EXPECT_EQ(got.complete, want.complete);
  EXPECT_EQ(got.placements, want.placements);
  EXPECT_EQ(got.evaluated_end, want.evaluated_end);
  ASSERT_EQ(got.slices.size(), want.slices.size());
  for (std::size_t k = 0; k < want.slices.size(); ++k) {
    const topo::SliceResult &g = got.slices[k], &w = want.slices[k];
    SCOPED_TRACE(::testing::Message() << "slice " << w.slice << " configuration " << w.configuration);
    EXPECT_EQ(g.count, w.count);
    EXPECT_EQ(g.min.scaled, w.min.scaled);
    EXPECT_TRUE(same_bits(g.min.value, w.min.value)) << g.min.value << " " << w.min.value;
    EXPECT_TRUE(same_bits(g.max.value, w.max.value)) << g.max.value << " " << w.max.value;
    EXPECT_TRUE(same_bits(g.mean, w.mean)) << g.mean << " " << w.mean;
    EXPECT_EQ(g.argmin, w.argmin);
    EXPECT_EQ(g.placement, w.placement);
    ASSERT_EQ(g.histogram.has_value(), w.histogram.has_value());
    if (w.histogram) {
      EXPECT_TRUE(same_bits(g.histogram->lo.value, w.histogram->lo.value));
      EXPECT_TRUE(same_bits(g.histogram->width.value, w.histogram->width.value));
      EXPECT_EQ(g.histogram->counts, w.histogram->counts);
    }
  }
  ASSERT_EQ(got.top.size(), want.top.size());
  for (std::size_t i = 0; i < want.top.size(); ++i) {
    EXPECT_TRUE(same_bits(got.top[i].cost.value, want.top[i].cost.value)) << "top " << i;
    EXPECT_EQ(got.top[i].index, want.top[i].index) << "top " << i;
    EXPECT_EQ(got.top[i].configuration, want.top[i].configuration) << "top " << i;
    EXPECT_EQ(got.top[i].placement, want.top[i].placement) << "top " << i;
  }
}

}  // namespace ks::test
