// Parameter parsing and checking: the contract the CLI's --param and the GUI's widgets rely on.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "registry/params.hpp"

namespace ks {
namespace {

std::vector<ParamSpec> specs() {
  ParamSpec radius{"radius", ParamType::Int, "r", 1, 50, {}, "1", 15, {}, {}};
  ParamSpec sigma{"sigma", ParamType::Float, "s", 0.1, 16, {}, "2", 15, {}, {}};
  ParamSpec flag{"normalize", ParamType::Bool, "n", 0, 0, {}, "false", 15, {}, {}};
  ParamSpec mode{"border", ParamType::Choice, "b", 0, 0, {"reflect101", "wrap"}, "reflect101", 15, {}, {}};
  ParamSpec matrix{"matrix", ParamType::Matrix, "m", 0, 0, {}, "1", 15, {}, {}};
  matrix.matrix_max_size = 15;
  return {radius, sigma, flag, mode, matrix};
}

ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::Internal;  // no throw: the tests below treat this as a failure
}

TEST(Params, DefaultsComeFromTheSpec) {
  ParamSet p(specs());
  EXPECT_EQ(p.get_int("radius"), 1);
  EXPECT_DOUBLE_EQ(p.get_float("sigma"), 2.0);
  EXPECT_FALSE(p.get_bool("normalize"));
  EXPECT_EQ(p.get_choice("border"), "reflect101");
  EXPECT_EQ(p.get_matrix("matrix").rows, 1);
  EXPECT_FALSE(p.was_set("radius"));
}

TEST(Params, SetsValuesWithinRange) {
  ParamSet p(specs());
  p.set_assignment("radius=50");
  p.set_assignment("sigma= 0.1");
  p.set("normalize", "yes");
  p.set("border", "wrap");
  EXPECT_EQ(p.get_int("radius"), 50);
  EXPECT_DOUBLE_EQ(p.get_float("sigma"), 0.1);
  EXPECT_TRUE(p.get_bool("normalize"));
  EXPECT_EQ(p.get_choice("border"), "wrap");
  EXPECT_TRUE(p.was_set("radius"));
}

TEST(Params, RefusesOutOfRangeInsteadOfClamping) {
  ParamSet p(specs());
  EXPECT_EQ(kind_of([&] { p.set("radius", "51"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { p.set("radius", "0"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { p.set("sigma", "0.05"); }), ErrorKind::Usage);
  EXPECT_EQ(p.get_int("radius"), 1) << "a refused value must leave the old one";
}

TEST(Params, RefusesMalformedValues) {
  ParamSet p(specs());
  for (const char* bad : {"", "abc", "1.5", "2x", "1e400"})
    EXPECT_EQ(kind_of([&] { p.set("radius", bad); }), ErrorKind::Usage) << bad;
  EXPECT_EQ(kind_of([&] { p.set("sigma", "nan"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { p.set("sigma", "inf"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { p.set("normalize", "maybe"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { p.set("border", "mirror"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { p.set("nope", "1"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { p.set_assignment("radius"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([&] { p.set_assignment("=3"); }), ErrorKind::Usage);
}

TEST(Params, ErrorMessagesNameTheParameterAndTheRange) {
  ParamSet p(specs());
  try {
    p.set("radius", "99");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("radius=99"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("1 .. 50"), std::string::npos) << e.hint();
  }
}

TEST(Params, MatrixParsing) {
  Matrix m = parse_matrix("1,2,1; 2,4,2; 1,2,1");
  EXPECT_EQ(m.rows, 3);
  EXPECT_EQ(m.cols, 3);
  EXPECT_EQ(m.values, (std::vector<double>{1, 2, 1, 2, 4, 2, 1, 2, 1}));
  EXPECT_EQ(parse_matrix("1 2 1;2 4 2;1 2 1;"), m) << "spaces and a trailing ';' are accepted";
  EXPECT_EQ(parse_matrix(format_matrix(m)), m);
  EXPECT_EQ(kind_of([] { parse_matrix("1,2;3"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([] { parse_matrix("1,x"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([] { parse_matrix(""); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([] { parse_matrix("1;;1"); }), ErrorKind::Usage);
}

TEST(Params, MatrixShapeIsChecked) {
  ParamSet p(specs());
  EXPECT_EQ(kind_of([&] { p.set("matrix", "1,2; 3,4"); }), ErrorKind::Usage) << "even sizes have no centre";
  std::string row15 = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1";
  std::string m15;
  for (int i = 0; i < 15; ++i) m15 += row15 + ";";
  p.set("matrix", m15);
  EXPECT_EQ(p.get_matrix("matrix").rows, 15);
  std::string row17 = row15 + ",1,1";
  EXPECT_EQ(kind_of([&] { p.set("matrix", row17); }), ErrorKind::Usage);
}

TEST(Params, AsTextRoundTrips) {
  ParamSet p(specs());
  p.set("sigma", "1.25");
  p.set("matrix", "0,1,0;1,-4,1;0,1,0");
  ParamSet q(specs());
  for (const auto& [name, text] : p.as_text()) q.set(name, text);
  EXPECT_DOUBLE_EQ(q.get_float("sigma"), 1.25);
  EXPECT_EQ(q.get_matrix("matrix"), p.get_matrix("matrix"));
}

}  // namespace
}  // namespace ks
