#pragma once
// Published optima (QAPLIB, Burkard, Karisch and Rendl) of every instance with n <= 12 in ../shared/data/qaplib:
// what the search must find and branch and bound must prove, independent of the code under test.
#include <cstdint>

namespace ks::test {

struct KnownOptimum {
  const char* name;
  std::int64_t optimum;
};

inline constexpr KnownOptimum kSmallQaplibOptima[] = {
    {"chr12a", 9552}, {"chr12b", 9742}, {"chr12c", 11156}, {"had12", 1652},    {"nug12", 578},      {"rou12", 235528},
    {"scr12", 31410}, {"tai10a", 135028}, {"tai10b", 1183760}, {"tai12a", 224416}, {"tai12b", 39464925}};

}  // namespace ks::test
