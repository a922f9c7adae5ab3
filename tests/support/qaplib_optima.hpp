#pragma once
// Published optima (QAPLIB, Burkard, Karisch and Rendl) of every instance with n <= 12 in ../shared/data/qaplib:
// what the search must find and branch and bound must prove, independent of the code under test.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <iterator>
#include <utility>
#include <vector>

#include "support/shared_data.hpp"
#include "topo/inputs/qaplib.hpp"
#include "topo/problem.hpp"

namespace ks::test {

// A QAPLIB file as the topology problem the sweep, the search and branch and bound take (one configuration).
inline topo::Problem qaplib_problem(const std::filesystem::path& file) {
  const topo::QaplibInstance q = topo::read_qaplib(file);
  return topo::make_problem(topo::traffic_from_qaplib(q), {topo::configuration_from_qaplib(q)});
}

struct KnownOptimum {
  const char* name;
  std::int64_t optimum;
};

inline constexpr KnownOptimum kSmallQaplibOptima[] = {
    {"chr12a", 9552}, {"chr12b", 9742}, {"chr12c", 11156}, {"had12", 1652},    {"nug12", 578},      {"rou12", 235528},
    {"scr12", 31410}, {"tai10a", 135028}, {"tai10b", 1183760}, {"tai12a", 224416}, {"tai12b", 39464925}};

// Every instance with n <= 12 in ../shared/data/qaplib with its published optimum; a test failure for one the
// table above lacks, or when the folder holds fewer than the table.
inline std::vector<std::pair<topo::QaplibInstance, std::int64_t>> small_qaplib_instances() {
  std::vector<std::pair<topo::QaplibInstance, std::int64_t>> out;
  for (const auto& entry : std::filesystem::directory_iterator(data("qaplib"))) {
    topo::QaplibInstance q = topo::read_qaplib(entry.path());
    if (q.n > 12) continue;
    const KnownOptimum* known = nullptr;
    for (const KnownOptimum& k : kSmallQaplibOptima)
      if (q.name == k.name) known = &k;
    if (!known) {
      ADD_FAILURE() << q.name << ": an instance with n <= 12 without its optimum in this table";
      continue;
    }
    out.emplace_back(std::move(q), known->optimum);
  }
  EXPECT_EQ(out.size(), std::size(kSmallQaplibOptima));
  return out;
}

}  // namespace ks::test
