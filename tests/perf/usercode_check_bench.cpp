// How long checking an output against a reference takes (docs/PERF.md "Your own kernel: checking an output"):
// compare_images and difference_image on 8192x8192 images, u8 and f32, 1 and 4 channels, for an output equal to the
// reference bit for bit, one within the tolerance everywhere (f32: every value off by rounding) and one where every
// value differs (u8: off by one), on the caller's thread and over a pool. By hand, not a test:
// ks_bench_usercode_check [REPEATS] [THREADS].
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <vector>

#include "core/thread_pool.hpp"
#include "usercode/check/compare.hpp"

namespace {

using namespace ks;

double median_ms(int repeats, const std::function<void()>& f) {
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

Image reference_image(int channels, ElemType type) {
  Image img(8192, 8192, channels, type);
  if (type == ElemType::F32) {
    auto v = img.elements<float>();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(i % 1000) * 0.001f;
  } else {
    auto v = img.elements<std::uint8_t>();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint8_t(i % 255);
  }
  return img;
}

// f32: every value a rounding away (within the default tolerance); u8: every value off by one.
Image nudged(const Image& reference) {
  Image img = reference;
  if (img.type() == ElemType::F32)
    for (float& v : img.elements<float>()) v = v * 1.0000001f + 1e-7f;
  else
    for (std::uint8_t& v : img.elements<std::uint8_t>()) v = std::uint8_t(v + 1);
  return img;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const unsigned threads = argc > 2 ? unsigned(std::max(1, std::atoi(argv[2]))) : 0;
  ThreadPool pool(threads);
  fmt::print("8192x8192, median of {} ms; pool of {} threads\n", repeats, pool.size());
  fmt::print("{:<12} {:>14} {:>14} {:>14} {:>14} {:>14}\n", "image", "equal 1 thr", "equal pool", "nudged 1 thr",
             "nudged pool", "diff img pool");
  for (const int channels : {1, 4}) {
    for (const ElemType type : {ElemType::U8, ElemType::F32}) {
      const Image reference = reference_image(channels, type);
      const Image same = reference;
      const Image off = nudged(reference);
      auto compare = [&](const Image& got, ThreadPool* p) {
        return median_ms(repeats, [&] { usercode::compare_images(got, reference, p); });
      };
      fmt::print("{:<12} {:>14.0f} {:>14.0f} {:>14.0f} {:>14.0f} {:>14.0f}\n",
                 fmt::format("{}ch {}", channels, to_string(type)), compare(same, nullptr), compare(same, &pool),
                 compare(off, nullptr), compare(off, &pool),
                 median_ms(repeats, [&] { usercode::difference_image(off, reference, &pool); }));
    }
  }
}
