// Bad topology input gets a clear error: disconnected topologies name their unreachable pairs, next-hop
// tables that loop show the chain, sizes that differ name the configuration, empty data says it is empty. (n!
// beyond an exhaustive sweep: test_topo_sweep.cpp.)
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "support/test_support.hpp"
#include "support/topo_instances.hpp"
#include "topo/inputs/topology.hpp"
#include "topo/inputs/traffic_files.hpp"

namespace ks::topo {
namespace {

template <class F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return Error(ErrorKind::Internal, "no error");
}

TEST(TopoBadInput, DisconnectedTopologyNamesUnreachablePairs) {
  Network net;
  net.positions = net.vertices = 4;
  net.vertex_names = {"a", "b", "c", "d"};
  net.links = {{0, 1, "ab", {}}, {2, 3, "cd", {}}};
  const Error e = error_of([&] { configuration_from_network(net, Metric::Hops, "split"); });
  const std::string m = e.what();
  EXPECT_NE(m.find("split is disconnected"), std::string::npos) << m;
  EXPECT_NE(m.find("8 of its position pairs"), std::string::npos) << m;  // a,b x c,d both ways
  EXPECT_NE(m.find("a"), std::string::npos) << m;
  EXPECT_NE(m.find("c"), std::string::npos) << m;
}

TEST(TopoBadInput, NextHopLoopsAreRefusedWithTheirChain) {
  // 3 positions; the route from 0 toward 2 goes 0 -> 1 -> 0 -> ... (1's next hop toward 2 is 0).
  const std::vector<int> next = {0, 1, 1,  //
                                 0, 1, 0,  //
                                 1, 1, 2};
  const Error e = error_of([&] { configuration_from_next_hops(next, 3, "loopy"); });
  const std::string m = e.what();
  EXPECT_EQ(e.kind(), ErrorKind::Io) << m;
  EXPECT_NE(m.find("loopy"), std::string::npos) << m;
  EXPECT_NE(m.find("from 0 toward 2"), std::string::npos) << m;

  // A valid table (a path 0 - 1 - 2) gives hop counts.
  const std::vector<int> path = {0, 1, 1,  //
                                 0, 1, 2,  //
                                 1, 1, 2};
  const Configuration c = configuration_from_next_hops(path, 3, "path");
  EXPECT_EQ(c.cost, (std::vector<double>{0, 1, 2, 1, 0, 1, 2, 1, 0}));
}

TEST(TopoBadInput, NextHopFileWithALoopNamesTheFile) {
  test::TempDir dir;
  std::ofstream(dir / "loop.txt") << "nexthop\nnodes v0 v1 v2\n- v1 v1\nv0 - v0\nv1 v1 -\n";
  const TrafficSeries t = test::random_traffic(3, 1, 1, true);
  const Error e = error_of([&] { load_topology((dir / "loop.txt").string(), t, Metric::Hops); });
  EXPECT_NE(std::string(e.what()).find("v0 toward v2"), std::string::npos) << e.what();
}

TEST(TopoBadInput, NodeCountsThatDoNotMatchNameTheConfiguration) {
  const TrafficSeries t = test::random_traffic(6, 1, 1, true);
  const Error e = error_of([&] { make_problem(t, {test::random_costs(6, 1), test::random_costs(5, 2)}); });
  EXPECT_EQ(e.kind(), ErrorKind::Usage);
  EXPECT_NE(std::string(e.what()).find("'random-2' has 5 positions but the traffic has 6 nodes"),
            std::string::npos)
      << e.what();
  const Error spec =
      error_of([&] { load_topology("torus:4x2", test::random_traffic(6, 1, 1, true), Metric::Hops); });
  EXPECT_EQ(spec.kind(), ErrorKind::Usage) << spec.what();
  EXPECT_NE(std::string(spec.what()).find("6"), std::string::npos) << spec.what();
  // 10^10 positions: more than an int holds (UBSan found w * h overflowing); a clear refusal, exact count.
  const Error huge =
      error_of([&] { load_topology("torus:100000x100000", test::random_traffic(6, 1, 1, true), Metric::Hops); });
  EXPECT_EQ(huge.kind(), ErrorKind::Usage) << huge.what();
  EXPECT_NE(std::string(huge.what()).find("10000000000 positions"), std::string::npos) << huge.what();
}

TEST(TopoBadInput, EmptyDatasetsSayTheyAreEmpty) {
  TrafficSeries none;
  none.source = "nothing.csv";
  none.nodes = {"a", "b"};
  const Error e = error_of([&] { validate_traffic(none); });
  EXPECT_NE(std::string(e.what()).find("no timestamps"), std::string::npos) << e.what();

  test::TempDir dir;
  std::filesystem::create_directory(dir / "empty");
  const Error folder = error_of([&] { load_traffic(dir / "empty"); });
  EXPECT_NE(folder.kind(), ErrorKind::Internal) << folder.what();
  EXPECT_NE(std::string(folder.what()).find("empty"), std::string::npos) << folder.what();

  std::ofstream(dir / "one.csv") << "timestamp,src,dst,value\nt,a,a,4\n";
  const Error single =
      error_of([&] { make_problem(load_traffic(dir / "one.csv"), {test::random_costs(1, 1)}); });
  EXPECT_NE(std::string(single.what()).find("at least 2"), std::string::npos) << single.what();
}

}  // namespace
}  // namespace ks::topo
