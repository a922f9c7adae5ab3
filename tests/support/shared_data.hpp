#pragma once
// The real data files the tests read from ../shared/data (QAPLIB, SNDlib), when it is beside the checkout.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace ks::test {

// A file of ../shared/data by its path there, e.g. data("qaplib/nug12.dat").
inline std::filesystem::path data(const std::string& rel) {
  return std::filesystem::path(KS_SHARED_DATA_DIR) / rel;
}

}  // namespace ks::test

// Skips the test when the file is missing (a checkout without ../shared/data).
#define KS_REQUIRE_DATA(path)         \
  if (!std::filesystem::exists(path)) \
  GTEST_SKIP() << "no " << (path) << " (../shared/data is not beside this checkout)"
