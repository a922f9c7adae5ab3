#include "support/test_support.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "core/device_info.hpp"

namespace ks::test {

Image random_image(int width, int height, int channels, ElemType type, std::uint32_t seed) {
  Image img(width, height, channels, type);
  std::mt19937 rng(seed);
  switch (type) {
    case ElemType::U8: {
      std::uniform_int_distribution<int> d(0, 255);
      for (auto& v : img.elements<std::uint8_t>()) v = std::uint8_t(d(rng));
      break;
    }
    case ElemType::U16: {
      std::uniform_int_distribution<int> d(0, 65535);
      for (auto& v : img.elements<std::uint16_t>()) v = std::uint16_t(d(rng));
      break;
    }
    case ElemType::F32: {
      std::uniform_real_distribution<float> d(0.f, 1.f);
      for (auto& v : img.elements<float>()) v = d(rng);
      break;
    }
  }
  return img;
}

namespace {
template <class T>
double value_at(const Image& img, std::size_t i) {
  return double(img.elements<T>()[i]);
}
double value_at(const Image& img, std::size_t i) {
  switch (img.type()) {
    case ElemType::U8: return value_at<std::uint8_t>(img, i);
    case ElemType::U16: return value_at<std::uint16_t>(img, i);
    case ElemType::F32: return value_at<float>(img, i);
  }
  return 0;
}
}  // namespace

::testing::AssertionResult images_match(const Image& actual, const Image& expected, double rel_tol) {
  if (!(actual.shape() == expected.shape())) {
    return ::testing::AssertionFailure() << "shape " << actual.width() << "x" << actual.height() << "x"
                                         << actual.channels() << " " << to_string(actual.type()) << " vs expected "
                                         << expected.width() << "x" << expected.height() << "x"
                                         << expected.channels() << " " << to_string(expected.type());
  }
  const std::size_t n = expected.byte_size() / elem_size(expected.type());
  const bool exact = expected.type() != ElemType::F32;
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < n; ++i) {
    double a = value_at(actual, i), e = value_at(expected, i);
    bool ok = exact ? a == e : (std::abs(a - e) <= rel_tol * std::max(std::abs(e), 1.0) && !std::isnan(a));
    if (!ok) {
      if (bad < 8) {
        std::size_t px = i / expected.channels();
        first << "\n  (" << px % expected.width() << "," << px / expected.width() << ") ch "
              << i % expected.channels() << ": got " << a << ", expected " << e;
      }
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << n << " values differ" << first.str();
}

TempDir::TempDir() {
  std::random_device rd;
  for (;;) {
    path_ = std::filesystem::temp_directory_path() / ("ks-test-" + std::to_string(rd()));
    if (std::filesystem::create_directory(path_)) break;
  }
}
TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

bool gpu_available() { return no_device_reason().empty(); }

bool gpu_fault_tests_enabled() {
  const char* value = std::getenv("KS_GPU_FAULT_TESTS");
  return value && std::string_view(value) == "1";
}

}  // namespace ks::test
