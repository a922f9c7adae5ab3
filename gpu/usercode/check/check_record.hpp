#pragma once
// Checked mode's report, host side: what a kernel compiled with kCheckedModeOption leaves in its device global
// kCheckRecordSymbol when an access fails a check (prelude/ks_prelude.cuh: InImage::at, OutImage::set,
// ks::checked(...)[i]), and the sentence that tells a learner which thread went where. The runner reads the record
// back with cudaLibraryGetGlobal + cudaMemcpy after the launch (zeroing it before a run: it keeps the first
// failure of every launch since the module was loaded).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace ks::usercode {

// The NVRTC option that compiles the prelude's checks in (CompileOptions::extra).
inline constexpr const char* kCheckedModeOption = "-DKS_CHECKED";
// The record's name in the module (extern "C", so unmangled).
inline constexpr const char* kCheckRecordSymbol = "ks_check_record";

enum class CheckedAccessor : std::int32_t { InAt = 1, OutSet = 2, CheckedPointer = 3 };

// The prelude's ks::CheckRecord, byte for byte (tests/usercode compiles the prelude's offsets through NVRTC and
// compares them with these).
struct CheckRecord {
  std::uint32_t flag = 0;      // 0: no access failed
  std::int32_t accessor = 0;   // a CheckedAccessor
  std::uint32_t block[3] = {};
  std::uint32_t thread[3] = {};
  std::int32_t x = 0, y = 0, c = 0;                  // at() and set(): the arguments as the kernel passed them
  std::int32_t width = 0, height = 0, channels = 0;  // at() and set(): the image's
  std::int64_t index = 0;  // the element the access would have touched (-1: at() stopped at the channel)
  std::int64_t size = 0;   // the buffer's elements
  std::uint64_t base = 0;  // the buffer's device address
};
static_assert(sizeof(CheckRecord) == 80);
static_assert(offsetof(CheckRecord, accessor) == 4);
static_assert(offsetof(CheckRecord, block) == 8);
static_assert(offsetof(CheckRecord, thread) == 20);
static_assert(offsetof(CheckRecord, x) == 32);
static_assert(offsetof(CheckRecord, width) == 44);
static_assert(offsetof(CheckRecord, index) == 56);
static_assert(offsetof(CheckRecord, size) == 64);
static_assert(offsetof(CheckRecord, base) == 72);

// A buffer the runner passed to the kernel, by its device address and the name the learner knows it by (the
// parameter's name, "in", "a"): the record's `base` is looked up here.
struct NamedBuffer {
  std::uint64_t address = 0;
  std::string name;
};

inline bool has_violation(const CheckRecord& r) noexcept { return r.flag != 0; }

// One sentence, e.g. "thread (12, 3, 0) of block (4, 0, 0) read in.at(-1, 5, 7): channel 7 is outside the input
// image's 4 channels (0..3)". "no access went out of bounds" when none failed. An accessor code the prelude does
// not have is an Internal Error (the app and the prelude disagree).
std::string describe_violation(const CheckRecord& record, std::span<const NamedBuffer> buffers = {});

}  // namespace ks::usercode
