// .npy files: round trips of every type and shape, the exact bytes NumPy writes (so Python reads ours and we
// read NumPy's), and strict refusals of corrupt, truncated and unsupported files. A cross-check through Python's
// NumPy runs where python3 has it and skips otherwise.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "core/error.hpp"
#include "io/npy.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

std::vector<std::byte> bytes_of(const std::string& s) {
  std::vector<std::byte> b(s.size());
  std::memcpy(b.data(), s.data(), s.size());
  return b;
}

NdArray make(DType t, std::vector<std::int64_t> shape) {
  NdArray a;
  a.type = t;
  a.shape = std::move(shape);
  a.data.resize(std::size_t(a.count()) * dtype_size(t));
  for (std::size_t i = 0; i < a.data.size(); ++i) a.data[i] = std::byte((i * 37 + 11) & 0xff);
  return a;
}

// NumPy 1.x/2.x for numpy.save(f, numpy.array([1, 2, 3], dtype='<f4')): a 128-byte v1.0 header (118 bytes of
// dictionary, padded with spaces, ending in a newline), then the 12 data bytes.
std::string numpy_f32_file() {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  dict.append(117 - dict.size(), ' ');
  dict += '\n';
  std::string f = std::string("\x93NUMPY\x01\x00", 8) + char(118) + char(0) + dict;
  const float v[3] = {1, 2, 3};
  f.append(reinterpret_cast<const char*>(v), 12);
  return f;
}

TEST(Npy, ReadsWhatNumpyWrites) {
  const std::string file = numpy_f32_file();
  ASSERT_EQ(file.size(), 128u + 12u);
  const NdArray a = parse_npy(bytes_of(file), "numpy.npy");
  EXPECT_EQ(a.type, DType::F32);
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{3}));
  EXPECT_EQ(a.as<float>()[2], 3.0f);
}

TEST(Npy, WritesWhatNumpyWrites) {
  NdArray a{"", DType::F32, {3}, {}};
  a.data.resize(12);
  const float v[3] = {1, 2, 3};
  std::memcpy(a.data.data(), v, 12);
  test::TempDir dir;
  write_npy(dir / "a.npy", a);
  std::ifstream in(dir / "a.npy", std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(written, numpy_f32_file());
}

TEST(Npy, RoundTripsEveryTypeAndShape) {
  test::TempDir dir;
  for (DType t : {DType::F32, DType::F64, DType::U32, DType::I32, DType::U64})
    for (const auto& shape : std::vector<std::vector<std::int64_t>>{{1}, {1025}, {7, 13}, {1, 5}, {0}, {3, 0}}) {
      const NdArray a = make(t, shape);
      const auto path = dir / "x.npy";
      write_npy(path, a);
      const NdArray b = read_npy(path);
      EXPECT_EQ(b.type, t);
      EXPECT_EQ(b.shape, shape);
      EXPECT_EQ(b.data, a.data) << to_string(t);
      EXPECT_EQ(npy_header(a).size() % 64, 0u) << "the data starts 64-byte aligned";
    }
}

TEST(Npy, ReadsVersion2AndTwoDimensionalHeaders) {
  std::string dict = "{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), }";
  dict.append(64 * 2 - 12 - dict.size() - 1, ' ');
  dict += '\n';
  std::string f = std::string("\x93NUMPY\x02\x00", 8);
  const std::uint32_t len = std::uint32_t(dict.size());
  f.append(reinterpret_cast<const char*>(&len), 4);
  f += dict;
  const std::uint32_t v[6] = {1, 2, 3, 4, 5, 6};
  f.append(reinterpret_cast<const char*>(v), 24);
  const NdArray a = parse_npy(bytes_of(f), "v2.npy");
  EXPECT_EQ(a.type, DType::U32);
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(a.as<std::uint32_t>()[5], 6u);
}

void expect_refused(const std::string& file, const std::string& needle) {
  try {
    parse_npy(bytes_of(file), "bad.npy");
    ADD_FAILURE() << "accepted; expected an error about " << needle;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(e.full_message().find(needle), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("bad.npy"), std::string::npos) << e.full_message();
  }
}

std::string with_dict(const std::string& dict_text, std::size_t data_bytes) {
  std::string dict = dict_text;
  dict.append((10 + dict.size() + 1 + 63) / 64 * 64 - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string f = std::string("\x93NUMPY\x01\x00", 8) + char(dict.size() & 0xff) + char(dict.size() >> 8) + dict;
  f.append(data_bytes, '\0');
  return f;
}

TEST(Npy, RefusesCorruptAndUnsupportedFiles) {
  const std::string good = numpy_f32_file();
  expect_refused("", "shorter than the smallest header");
  expect_refused("\x93NUMPX" + good.substr(6), "does not start with");
  std::string v3 = good;
  v3[6] = 3;
  expect_refused(v3, "version 3.0");
  expect_refused(good.substr(0, 60), "truncated in the header");
  expect_refused(good.substr(0, good.size() - 1), "(truncated)");
  expect_refused(good + "x", "(trailing bytes)");
  expect_refused(with_dict("{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }", 12), "big-endian");
  expect_refused(with_dict("{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }", 6), "'<f2'");
  expect_refused(with_dict("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24), "Fortran");
  expect_refused(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", 96), "3 dimensions");
  expect_refused(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4), "0 dimensions");
  expect_refused(with_dict("{'descr': '<f4', 'fortran_order': False, }", 4), "lacks");
  expect_refused(with_dict("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (3,), }", 12), "True or False");
  expect_refused(with_dict("{'descr': '<f4' 'fortran_order': False, 'shape': (3,), }", 12), "does not parse");
  expect_refused(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (x,), }", 12), "does not parse");
  std::string huge = good;
  huge[8] = char(0xff);
  huge[9] = char(0xff);
  expect_refused(huge, "truncated in the header");
}

TEST(Npy, ReadingAMissingFileSaysSo) {
  try {
    read_npy("/nonexistent/dir/x.npy");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(e.full_message().find("/nonexistent/dir/x.npy"), std::string::npos);
  }
}

TEST(Npy, TruncatedFilesOnDiskAreRefused) {
  test::TempDir dir;
  const std::string good = numpy_f32_file();
  for (std::size_t cut : {std::size_t(5), std::size_t(9), std::size_t(100), good.size() - 3}) {
    std::ofstream(dir / "t.npy", std::ios::binary) << good.substr(0, cut);
    try {
      read_npy(dir / "t.npy");
      ADD_FAILURE() << "accepted a file cut at " << cut;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Io) << cut;
    }
  }
}

// A header that claims more than its file holds is refused from the file's size, before anything is allocated
// (a shape of 2^40 f32 values used to allocate 4 TiB first; the refusal names what was declared and what is there).
TEST(Npy, AHeaderClaimingMoreThanTheFileHoldsIsRefusedBeforeAllocating) {
  test::TempDir dir;
  const std::string header_only = with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }", 0);
  ASSERT_EQ(header_only.size(), 128u);
  std::ofstream(dir / "big.npy", std::ios::binary) << header_only;
  try {
    read_npy(dir / "big.npy");
    ADD_FAILURE() << "accepted a 128-byte file declaring 2^40 values";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(e.full_message().find("declares 1099511627776 f32 values"), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("holds 0 (0 bytes"), std::string::npos) << e.full_message();
  }
  // An odd case: 7 u32 values (28 bytes) of the 1001 the 2-D shape declares.
  std::ofstream(dir / "short.npy", std::ios::binary)
      << with_dict("{'descr': '<u4', 'fortran_order': False, 'shape': (7, 143), }", 28);
  try {
    read_npy(dir / "short.npy");
    ADD_FAILURE() << "accepted 7 of 1001 values";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(e.full_message().find("declares 1001 u32 values (shape (7, 143), 4004 bytes), the file holds 7 (28 bytes"),
              std::string::npos)
        << e.full_message();
  }
}

TEST(Npy, NumpyReadsOursAndWeReadNumpys) {
  if (std::system("python3 -c 'import numpy' >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3 with numpy";
  test::TempDir dir;
  NdArray a{"", DType::F64, {2, 3}, {}};
  a.data.resize(48);
  const double v[6] = {0.5, -1, 2, 3e300, 4, 5};
  std::memcpy(a.data.data(), v, 48);
  write_npy(dir / "ours.npy", a);
  const std::string script = "import numpy as n; a = n.load('" + (dir / "ours.npy").string() +
                             "'); assert a.shape == (2, 3) and a[1, 0] == 3e300; n.save('" +
                             (dir / "theirs.npy").string() + "', n.arange(10, dtype='<u8').reshape(5, 2))";
  ASSERT_EQ(std::system(("python3 -c \"" + script + "\"").c_str()), 0);
  const NdArray b = read_npy(dir / "theirs.npy");
  EXPECT_EQ(b.type, DType::U64);
  EXPECT_EQ(b.shape, (std::vector<std::int64_t>{5, 2}));
  EXPECT_EQ(b.as<std::uint64_t>()[9], 9u);
}

}  // namespace
}  // namespace ks
