#pragma once
// QAPLIB instances (Burkard, Karisch, Rendl, "QAPLIB - A Quadratic Assignment Problem Library"): `n`, then the
// n x n matrix A, then the n x n matrix B, separated by blank lines (rows may wrap). Objective: minimise over
// permutations p the sum over i, j of A[i][j] * B[p(i)][p(j)]. In topology terms A is the path cost between
// positions and B the traffic between nodes, so the best cost of a sweep is the QAPLIB objective value.
// Solutions (.sln): `n value` then the permutation p(1) .. p(n), 1-based.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "topo/inputs/numbers.hpp"
#include "topo/inputs/topology.hpp"
#include "topo/inputs/traffic.hpp"

namespace ks::topo {

struct QaplibInstance {
  std::string name;  // file stem, e.g. "chr12a"
  std::string file;
  int n = 0;
  ExactValues a, b;  // row-major
};

struct QaplibSolution {
  std::string file;
  int n = 0;
  std::int64_t value = 0;
  std::vector<int> placement;  // 0-based: node placement[i] at position i
};

// Io Errors name the file and line: a token that is not a number, a matrix that ends early, data after B.
QaplibInstance read_qaplib(const std::filesystem::path& path);
std::optional<QaplibSolution> read_qaplib_solution(const std::filesystem::path& path);
// FILE.sln beside FILE.dat, if there is one.
std::filesystem::path qaplib_solution_path(const std::filesystem::path& dat);

// B as one timestamp; nodes are named 1 .. n as in QAPLIB's permutations.
TrafficSeries traffic_from_qaplib(const QaplibInstance& q);
// A as the one configuration ("NAME A"), positions named 1 .. n.
Configuration configuration_from_qaplib(const QaplibInstance& q);

}  // namespace ks::topo
