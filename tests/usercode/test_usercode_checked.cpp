// Checked mode (prelude/ks_prelude.cuh under KS_CHECKED, check/check_record.hpp): through NVRTC, no GPU. The
// accessors of a plain compile do not touch the record; a checked compile does; the device record's layout is the
// host's, offset by offset; and the record reads back as a sentence a learner understands.
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <regex>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "usercode/check/check_record.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"
#include "support/require_nvrtc.hpp"

namespace ks::usercode {
namespace {

CompiledKernel compile(const std::string& name, const std::string& source, bool checked) {
  CompileRequest r;
  r.file_name = name;
  r.source = source;
  if (checked) r.options.extra.push_back(kCheckedModeOption);
  return compile_user_kernel(r);
}

std::string template_source(const std::string& file) {
  return read_kernel_source(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels" / file);
}

bool mentions(const std::string& ptx, const std::string& name) { return ptx.find(name) != std::string::npos; }

TEST(UsercodeChecked, PlainAccessorsLeaveTheRecordAloneCheckedOnesUseIt) {
  KS_REQUIRE_NVRTC();
  const std::string smooth = template_source("smooth3x3.cu");
  const CompiledKernel plain = compile("smooth3x3.cu", smooth, false);
  const CompiledKernel checked = compile("smooth3x3.cu", smooth, true);
  ASSERT_TRUE(plain.ok()) << plain.module->log;
  ASSERT_TRUE(checked.ok()) << checked.module->log;
  EXPECT_FALSE(mentions(plain.module->ptx, kCheckRecordSymbol));
  EXPECT_TRUE(mentions(checked.module->ptx, kCheckRecordSymbol));
  // The record is written with an atomic compare-and-swap, so that one thread's failure is kept.
  EXPECT_TRUE(mentions(checked.module->ptx, "atom.global.cas.b32")) << checked.module->ptx;
  EXPECT_FALSE(mentions(plain.module->ptx, "atom."));
  // Both are the same kernel to the contract.
  EXPECT_EQ(plain.entry_facts().mangled_name, checked.entry_facts().mangled_name);
}

// The app compiles with NVRTC's precompiled header for the prelude: the checked prelude goes through it too, and
// a checked and a plain compile of one source in one process each get their own prelude.
TEST(UsercodeChecked, CheckedAndPlainWithThePrecompiledHeader) {
  KS_REQUIRE_NVRTC();
  const std::string smooth = template_source("smooth3x3.cu");
  for (const bool checked : {true, false, true}) {
    CompileRequest r;
    r.file_name = "smooth3x3.cu";
    r.source = smooth;
    r.options.use_pch = true;
    if (checked) r.options.extra.push_back(kCheckedModeOption);
    const CompiledKernel k = compile_user_kernel(r);
    ASSERT_TRUE(k.ok()) << k.module->log;
    EXPECT_EQ(mentions(k.module->ptx, kCheckRecordSymbol), checked);
  }
}

// A raw kernel opts in with ks::checked(pointer, count); without checked mode that is the pointer itself.
TEST(UsercodeChecked, RawPointersThroughKsChecked) {
  KS_REQUIRE_NVRTC();
  const std::string source = R"(// @family array
// @output scalar
__global__ void sum_checked(const float* in_, float* out_, int n) {
  auto in = ks::checked(in_, n);
  auto out = ks::checked(out_, 1);
  const int i = ks::global_index();
  if (i <= n) atomicAdd(&out[0], in[i]);  // i == n is one past the end, on purpose
}
)";
  const CompiledKernel plain = compile("sum.cu", source, false);
  const CompiledKernel checked = compile("sum.cu", source, true);
  ASSERT_TRUE(plain.ok()) << plain.module->log;
  ASSERT_TRUE(checked.ok()) << checked.module->log;
  EXPECT_FALSE(mentions(plain.module->ptx, kCheckRecordSymbol));
  EXPECT_FALSE(mentions(plain.module->ptx, "ks_check_scratch"));
  EXPECT_TRUE(mentions(checked.module->ptx, kCheckRecordSymbol));
  EXPECT_TRUE(mentions(checked.module->ptx, "ks_check_scratch"));

  // The other templates compile in checked mode too (raw pointers unchecked, unchanged), and their modules have
  // the record all the same: the runner finds it in every checked module, and it stays 0.
  for (const char* file : {"vecadd.cu", "reduce_sum.cu", "life_step.cu"}) {
    const CompiledKernel k = compile(file, template_source(file), true);
    EXPECT_TRUE(k.ok()) << file << ": " << k.module->log;
    EXPECT_TRUE(mentions(k.module->ptx, std::string(".b8 ") + kCheckRecordSymbol + "[")) << file;
  }
}

// The device's ks::CheckRecord has the host's layout: NVRTC works out each field's offset (it has no offsetof:
// a record with the field set to 1, seen as bytes, has its first non-zero byte at the field's offset) and checks
// it against the host's; the PTX declares the global with the host struct's size.
TEST(UsercodeChecked, DeviceRecordLayoutIsTheHosts) {
  KS_REQUIRE_NVRTC();
  auto layout_source = [](std::size_t accessor_offset) {
    std::string s =
        "// @family array\n"
        "struct RecordBytes { unsigned char v[sizeof(ks::CheckRecord)]; };\n"
        "#define OFFSET_OF(FIELD) ([]() { ks::CheckRecord r{}; r.FIELD = 1; \\\n"
        "  const RecordBytes b = __builtin_bit_cast(RecordBytes, r); \\\n"
        "  for (int i = 0; i < int(sizeof b.v); ++i) if (b.v[i]) return i; return -1; }())\n"
        "__global__ void touch(const float* in, float* out, int n) {\n"
        "  ks::checked(out, n)[0] = in[0];\n";
    auto check = [&](const char* field, std::size_t offset) {
      s += fmt::format("  static_assert(OFFSET_OF({0}) == {1}, \"{0} is not at {1}\");\n", field, offset);
    };
    check("flag", offsetof(CheckRecord, flag));
    check("accessor", accessor_offset);
    check("block[0]", offsetof(CheckRecord, block));
    check("block[2]", offsetof(CheckRecord, block) + 2 * sizeof(std::uint32_t));
    check("thread[0]", offsetof(CheckRecord, thread));
    check("thread[2]", offsetof(CheckRecord, thread) + 2 * sizeof(std::uint32_t));
    check("x", offsetof(CheckRecord, x));
    check("y", offsetof(CheckRecord, y));
    check("c", offsetof(CheckRecord, c));
    check("width", offsetof(CheckRecord, width));
    check("height", offsetof(CheckRecord, height));
    check("channels", offsetof(CheckRecord, channels));
    check("index", offsetof(CheckRecord, index));
    check("size", offsetof(CheckRecord, size));
    check("base", offsetof(CheckRecord, base));
    s += fmt::format("  static_assert(sizeof(ks::CheckRecord) == {0}, \"the record is not {0} bytes\");\n}}\n",
                     sizeof(CheckRecord));
    return s;
  };
  const CompiledKernel k = compile("layout.cu", layout_source(offsetof(CheckRecord, accessor)), true);
  ASSERT_TRUE(k.ok()) << k.module->log;
  // The global as PTX declares it: ".visible .global .align 8 .b8 ks_check_record[80];"
  std::smatch m;
  const std::regex declared(R"(\.global\s+\.align\s+(\d+)\s+\.b8\s+ks_check_record\[(\d+)\])");
  ASSERT_TRUE(std::regex_search(k.module->ptx, m, declared)) << k.module->ptx;
  EXPECT_EQ(std::stoul(m[2]), sizeof(CheckRecord));
  EXPECT_EQ(std::stoul(m[1]), alignof(CheckRecord));

  // The static_asserts do bite: one wrong offset and NVRTC refuses, naming the field.
  const CompiledKernel wrong = compile("layout.cu", layout_source(offsetof(CheckRecord, accessor) + 4), true);
  EXPECT_FALSE(wrong.ok());
  EXPECT_TRUE(mentions(wrong.module->log, "accessor is not at 8")) << wrong.module->log;
}

CheckRecord record(CheckedAccessor accessor) {
  CheckRecord r;
  r.flag = 1;
  r.accessor = static_cast<std::int32_t>(accessor);
  return r;
}

TEST(UsercodeChecked, ViolationsReadAsSentences) {
  EXPECT_EQ(describe_violation(CheckRecord{}), "no access went out of bounds");

  CheckRecord in = record(CheckedAccessor::InAt);
  in.block[0] = 4;
  in.thread[0] = 12, in.thread[1] = 3;
  in.x = -1, in.y = 5, in.c = 0;
  in.width = 1024, in.height = 1024, in.channels = 1;
  in.index = 1048577, in.size = 1048576;
  EXPECT_EQ(describe_violation(in),
            "thread (12, 3, 0) of block (4, 0, 0) read in.at(-1, 5, 0): element 1048577 is outside the input's "
            "1048576 elements");
  in.c = 7, in.channels = 4, in.index = -1;
  EXPECT_EQ(describe_violation(in),
            "thread (12, 3, 0) of block (4, 0, 0) read in.at(-1, 5, 7): channel 7 is outside the input's 4 channels "
            "(0..3)");
  // The buffer's address names the parameter.
  in.base = 0x7f0000200000;
  const NamedBuffer names[] = {{0x7f0000100000, "dst"}, {0x7f0000200000, "src"}};
  EXPECT_EQ(describe_violation(in, names),
            "thread (12, 3, 0) of block (4, 0, 0) read src.at(-1, 5, 7): channel 7 is outside the input's 4 "
            "channels (0..3)");

  CheckRecord out = record(CheckedAccessor::OutSet);
  out.block[0] = 16, out.block[2] = 1;
  out.thread[1] = 2;
  out.x = 512, out.y = 3, out.c = 0;
  out.width = 512, out.height = 256, out.channels = 4;
  EXPECT_EQ(describe_violation(out),
            "thread (0, 2, 0) of block (16, 0, 1) wrote out.set(512, 3, 0, ...): x = 512 is outside the output's "
            "512 columns (0..511)");
  out.x = 5, out.y = -1;
  EXPECT_EQ(describe_violation(out),
            "thread (0, 2, 0) of block (16, 0, 1) wrote out.set(5, -1, 0, ...): y = -1 is outside the output's 256 "
            "rows (0..255)");
  out.y = 3, out.c = 4;
  EXPECT_EQ(describe_violation(out),
            "thread (0, 2, 0) of block (16, 0, 1) wrote out.set(5, 3, 4, ...): channel 4 is outside the output's 4 "
            "channels (0..3)");

  CheckRecord p = record(CheckedAccessor::CheckedPointer);
  p.block[0] = 3;
  p.thread[0] = 232;
  p.index = 1000, p.size = 1000;
  p.base = 0x7f0000100000;
  EXPECT_EQ(describe_violation(p, names),
            "thread (232, 0, 0) of block (3, 0, 0) accessed dst[1000]: index 1000 is outside the 1000 elements given "
            "to ks::checked (0..999)");
  p.base = 0x7f0000100004;  // a pointer into the buffer, not its start: no name
  p.index = -1;
  EXPECT_EQ(describe_violation(p, names),
            "thread (232, 0, 0) of block (3, 0, 0) accessed ks::checked(...)[-1]: index -1 is outside the 1000 "
            "elements given to ks::checked (0..999)");
  p.size = 0, p.index = 0;
  EXPECT_EQ(describe_violation(p),
            "thread (232, 0, 0) of block (3, 0, 0) accessed ks::checked(...)[0]: index 0 is outside the 0 elements "
            "given to ks::checked");

  CheckRecord unknown = record(CheckedAccessor::InAt);
  unknown.accessor = 9;
  try {
    describe_violation(unknown);
    ADD_FAILURE() << "no error for accessor 9";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Internal);
  }
}

}  // namespace
}  // namespace ks::usercode
