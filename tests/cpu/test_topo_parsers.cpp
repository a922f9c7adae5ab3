// The topology inputs on the real files in ../shared/data (SNDlib native and XML, QAPLIB) and on malformed
// copies of them: what they hold, and errors that name the file and line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "support/test_support.hpp"
#include "topo/evaluation.hpp"
#include "topo/inputs/qaplib.hpp"
#include "topo/inputs/sndlib.hpp"
#include "topo/inputs/topology.hpp"
#include "topo/inputs/traffic_files.hpp"

namespace ks::topo {
namespace {

using test::data;
using test::pool;

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// The 1-based line of the first occurrence of `needle` in `text`.
int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  return at == std::string::npos ? -1
                                 : 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.substr(0, at) + to + text.substr(at + from.size());
}

// The Io Error's message from loading `path` with `load`, or "no error".
template <class F>
std::string io_error(F&& load) {
  try {
    load();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io) << e.what();
    return e.what();
  }
  return "no error";
}

TEST(TopoParsers, SndlibNativeAbilene) {
  const fs::path file = data("sndlib/abilene.txt");
  KS_REQUIRE_DATA(file);
  const TrafficSeries t = load_traffic(file);
  ASSERT_EQ(t.node_count(), 12);
  EXPECT_EQ(t.nodes.front(), "ATLAM5");
  EXPECT_EQ(t.nodes.back(), "WASHng");
  EXPECT_EQ(t.timestamp_count(), 1);
  EXPECT_EQ(t.unit, "MBITPERSEC");
  ASSERT_TRUE(t.own_links.has_value());
  EXPECT_EQ(t.own_links->links.size(), 15u);
  ASSERT_TRUE(t.scaled.has_value());
  // "IPLSng_STTLng ( IPLSng STTLng ) 1 3580.00 UNLIMITED"
  EXPECT_EQ(t.at(0, node_index(t, "IPLSng"), node_index(t, "STTLng")), 3580.0);
  EXPECT_EQ(t.at(0, node_index(t, "STTLng"), node_index(t, "STTLng")), 0.0);
}

TEST(TopoParsers, AbileneIdentityPlacementCostsWhatTheHopsSay) {
  const fs::path file = data("sndlib/abilene.txt");
  KS_REQUIRE_DATA(file);
  const TrafficSeries t = load_traffic(file);
  const Problem p = make_problem(t, {own_links_configuration(t, Metric::Hops)});
  // By hand, from the file: 15 links between 12 nodes; breadth-first hop counts give, for the 132 directed
  // demands (every ordered pair once),
  //   1 hop:  30 demands (the 15 links, both ways), total  746720 Mbit/s
  //   2 hops: 42 demands,                           total  524865
  //   3 hops: 32 demands,                           total  672571
  //   4 hops: 20 demands,                           total  998366
  //   5 hops:  8 demands (e.g. STTLng <-> WASHng),   total   57480
  // so the identity placement (every node at its own place) carries
  //   746720 x 1 + 524865 x 2 + 672571 x 3 + 998366 x 4 + 57480 x 5
  //   = 746720 + 1049730 + 2017713 + 3993464 + 287400 = 8095027 Mbit/s x hops.
  const Cost c = placement_cost(p, 0, 0, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  EXPECT_EQ(c.value, 8095027.0);
  // Two of the hop counts, spelled out: ATLAM5 - ATLAng is a link; STTLng to WASHng is
  // STTLng-DNVRng-KSCYng-IPLSng-ATLAng-WASHng (5 hops).
  const Configuration links = own_links_configuration(t, Metric::Hops);
  const int n = 12;
  EXPECT_EQ(links.cost[std::size_t(node_index(t, "ATLAM5") * n + node_index(t, "ATLAng"))], 1.0);
  EXPECT_EQ(links.cost[std::size_t(node_index(t, "STTLng") * n + node_index(t, "WASHng"))], 5.0);
}

TEST(TopoParsers, SndlibXmlFolderIsOrderedByTime) {
  const fs::path folder = data("sndlib/abilene-5min-20040301");
  KS_REQUIRE_DATA(folder);
  const TrafficSeries t = load_traffic(folder);
  EXPECT_EQ(t.node_count(), 12);
  ASSERT_EQ(t.timestamp_count(), 288);
  for (int k = 1; k < t.timestamp_count(); ++k)
    EXPECT_LT(t.timestamps[std::size_t(k - 1)], t.timestamps[std::size_t(k)]);
  // The first file's first demand, straight from the XML text.
  const fs::path first = folder / "demandMatrix-abilene-zhang-5min-20040301-0000.xml";
  const std::string xml = slurp(first);
  const auto d = xml.find("<demand ");
  ASSERT_NE(d, std::string::npos);
  auto tag = [&](const std::string& name) {
    const auto a = xml.find("<" + name + ">", d) + name.size() + 2;
    return xml.substr(a, xml.find("</" + name + ">", a) - a);
  };
  const int src = node_index(t, tag("source")), dst = node_index(t, tag("target"));
  ASSERT_GE(src, 0);
  ASSERT_GE(dst, 0);
  EXPECT_DOUBLE_EQ(t.at(0, src, dst), std::stod(tag("demandValue")));
}

TEST(TopoParsers, QaplibTai10aAndTai10bExhaustiveBestIsThePublishedOptimum) {
  // Published optima (QAPLIB, Taillard 1991 instances solved to optimality): tai10a 135028, tai10b 1183760.
  for (const auto& [name, optimum] :
       {std::pair<const char*, double>{"tai10a", 135028}, {"tai10b", 1183760}}) {
    const fs::path file = data(std::string("qaplib/") + name + ".dat");
    KS_REQUIRE_DATA(file);
    const QaplibInstance q = read_qaplib(file);
    EXPECT_EQ(q.n, 10);
    const Problem p = make_problem(traffic_from_qaplib(q), {configuration_from_qaplib(q)});
    EvalRequest req;
    req.histogram = false;
    const EvalResult r = evaluate(p, req, {}, pool(), nullptr);
    EXPECT_EQ(best_overall(r).cost.value, optimum) << name;
    // The best placement costs that much by the definition too.
    EXPECT_EQ(placement_cost(p, 0, 0, best_overall(r).placement).value, optimum) << name;
  }
}

TEST(TopoParsers, QaplibMatricesAsWritten) {
  const fs::path file = data("qaplib/tai10a.dat");
  KS_REQUIRE_DATA(file);
  const QaplibInstance q = read_qaplib(file);
  // First row of A: "0 71 11 29 82 82  6 71  8 77".
  EXPECT_EQ(q.a.values()[1], 71);
  EXPECT_EQ(q.a.values()[9], 77);
  EXPECT_EQ(q.a.values()[10], 71);
  EXPECT_EQ(q.b.size(), 100u);
}

TEST(TopoParsers, MalformedSndlibNativeNamesFileAndLine) {
  const fs::path file = data("sndlib/abilene.txt");
  KS_REQUIRE_DATA(file);
  test::TempDir dir;
  const std::string good = slurp(file);
  const std::string bad_value = replaced(good, "IPLSng STTLng ) 1 3580.00", "IPLSng STTLng ) 1 35x0.00");
  write(dir / "value.txt", bad_value);
  std::string m = io_error([&] { load_traffic(dir / "value.txt"); });
  EXPECT_NE(m.find("value.txt line " + std::to_string(line_of(bad_value, "35x0.00"))), std::string::npos)
      << m;
  EXPECT_NE(m.find("35x0.00"), std::string::npos) << m;

  const std::string bad_node = replaced(good, "( HSTNng ATLAng )", "( HSTNng ATLANTIS )");
  write(dir / "node.txt", bad_node);
  m = io_error([&] { load_traffic(dir / "node.txt"); });
  EXPECT_NE(m.find("node.txt line " + std::to_string(line_of(bad_node, "ATLANTIS"))), std::string::npos) << m;
  EXPECT_NE(m.find("ATLANTIS"), std::string::npos) << m;

  // A section that never closes: the last one (ADMISSIBLE_PATHS) without its ')'.
  std::string open = good.substr(0, good.rfind(')'));
  write(dir / "open.txt", open);
  m = io_error([&] { load_traffic(dir / "open.txt"); });
  EXPECT_NE(m.find("never closed"), std::string::npos) << m;
  EXPECT_NE(m.find("open.txt line " + std::to_string(line_of(open, "ADMISSIBLE_PATHS ("))), std::string::npos)
      << m;
}

TEST(TopoParsers, MalformedXmlNamesTheFile) {
  const fs::path folder = data("sndlib/abilene-5min-20040301");
  KS_REQUIRE_DATA(folder);
  test::TempDir dir;
  const std::string xml = slurp(folder / "demandMatrix-abilene-zhang-5min-20040301-0000.xml");
  const std::string broken = replaced(xml, "</demandValue>", "</demandValu>");
  write(dir / "a.xml", broken);
  const std::string m = io_error([&] { read_sndlib_xml(dir / "a.xml"); });
  EXPECT_NE(m.find("a.xml line " + std::to_string(line_of(broken, "</demandValu>"))), std::string::npos) << m;

  // Two files of a folder with the same time.
  fs::create_directory(dir / "twice");
  write(dir / "twice" / "x.xml", xml);
  write(dir / "twice" / "y.xml", xml);
  const std::string t = io_error([&] { load_traffic(dir / "twice"); });
  EXPECT_NE(t.find("same time"), std::string::npos) << t;
}

TEST(TopoParsers, MalformedQaplibNamesFileAndLine) {
  const fs::path file = data("qaplib/tai10a.dat");
  KS_REQUIRE_DATA(file);
  test::TempDir dir;
  const std::string good = slurp(file);
  const std::string bad = replaced(good, " 76 40 93 56", " 76 4O 93 56");  // a letter O for a zero
  write(dir / "bad.dat", bad);
  std::string m = io_error([&] { read_qaplib(dir / "bad.dat"); });
  EXPECT_NE(m.find("bad.dat line " + std::to_string(line_of(bad, "4O"))), std::string::npos) << m;
  EXPECT_NE(m.find("4O"), std::string::npos) << m;

  write(dir / "short.dat", good.substr(0, good.size() / 2));
  m = io_error([&] { read_qaplib(dir / "short.dat"); });
  EXPECT_NE(m.find("short.dat"), std::string::npos) << m;
  EXPECT_NE(m.find("the file ends after"), std::string::npos) << m;

  write(dir / "long.dat", good + "\n 7\n");
  m = io_error([&] { read_qaplib(dir / "long.dat"); });
  EXPECT_NE(m.find("after matrix B"), std::string::npos) << m;
}

TEST(TopoParsers, CsvLongFormRoundTripsAndNamesBadLines) {
  test::TempDir dir;
  write(dir / "t.csv", "timestamp,src,dst,value\nt1,a,b,5\nt1,b,a,2.5\nt2,a,c,1\n");
  const TrafficSeries t = load_traffic(dir / "t.csv");
  ASSERT_EQ(t.node_count(), 3);
  ASSERT_EQ(t.timestamp_count(), 2);
  EXPECT_EQ(t.at(0, node_index(t, "b"), node_index(t, "a")), 2.5);
  EXPECT_EQ(t.at(1, node_index(t, "a"), node_index(t, "c")), 1.0);
  EXPECT_EQ(t.at(1, node_index(t, "a"), node_index(t, "b")), 0.0);
  write_traffic_csv_long(t, dir / "back.csv");
  const TrafficSeries back = load_traffic(dir / "back.csv");
  EXPECT_EQ(back.values, t.values);

  write(dir / "bad.csv", "timestamp,src,dst,value\nt1,a,b,5\nt1,b,a\n");
  std::string m = io_error([&] { load_traffic(dir / "bad.csv"); });
  EXPECT_NE(m.find("bad.csv line 3"), std::string::npos) << m;
  write(dir / "neg.csv", "timestamp,src,dst,value\nt1,a,b,5\nt1,b,a,-1\n");
  m = io_error([&] { load_traffic(dir / "neg.csv"); });
  EXPECT_NE(m.find("neg.csv line 3"), std::string::npos) << m;
  write(dir / "empty.csv", "timestamp,src,dst,value\n");
  m = io_error([&] { load_traffic(dir / "empty.csv"); });
  EXPECT_NE(m.find("no data rows"), std::string::npos) << m;
}

}  // namespace
}  // namespace ks::topo
