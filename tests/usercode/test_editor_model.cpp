// The kernel editor's model (ui/editor), through NVRTC where it compiles (no GPU): a compile's messages land at
// the user's lines, an error at the end of the source names the brace never closed, refused requests become one
// message at the line they name, a cancelled compile shows nothing; the facts print '-' where ptxas gave no
// figure; the occupancy at the editor's block follows the H100's published limits (hand-worked below).
#include <gtest/gtest.h>

#include <atomic>

#include "core/device_models.hpp"
#include "editor/compile_outcome.hpp"
#include "editor/compile_summary.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "support/require_nvrtc.hpp"

namespace ks::editor {
namespace {

usercode::CompileRequest request_for(const std::string& source, const std::string& name = "mine.cu") {
  usercode::CompileRequest r;
  r.file_name = name;
  r.source = source;
  return r;
}

CompileOutcome compile(const usercode::CompileRequest& r, std::uint64_t generation = 1) {
  return compile_for_editor(usercode::compile_user_kernel, r, nullptr, generation);
}

TEST(EditorModel, AnUndeclaredNameIsAnErrorAtItsLineAndColumn) {
  KS_REQUIRE_NVRTC();
  const CompileOutcome o = compile(request_for("// @family array\n"
                                               "__global__ void add(const float* a, float* out, int n) {\n"
                                               "  const int i = ks::global_index();\n"
                                               "  if (i < n) out[i] = a[i] * scale;\n"
                                               "}\n",
                                               "add.cu"),
                                   7);
  EXPECT_EQ(o.generation, 7u);
  EXPECT_FALSE(o.runnable());
  ASSERT_EQ(o.diagnostics.size(), 1u);
  const EditorDiagnostic& d = o.diagnostics[0];
  EXPECT_EQ(d.severity, usercode::Severity::Error);
  EXPECT_EQ(d.line, 4);
  EXPECT_EQ(d.column, 30);  // where `scale` starts
  EXPECT_NE(d.message.find("\"scale\""), std::string::npos) << d.message;
  EXPECT_NE(d.detail.find("add.cu:4:"), std::string::npos) << d.detail;
  EXPECT_FALSE(d.unclosed_brace);
}

TEST(EditorModel, AnUnclosedBraceIsAnErrorOnTheLastLineNamingTheOpenBrace) {
  KS_REQUIRE_NVRTC();
  const CompileOutcome o = compile(request_for("__global__ void k(float* out) {\n"
                                               "  if (threadIdx.x == 0) {\n"
                                               "    out[0] = 1.f;\n"
                                               "}\n"));
  ASSERT_EQ(count_errors(o.diagnostics), 1);
  const EditorDiagnostic& d = o.diagnostics[0];
  EXPECT_EQ(d.line, 4);  // the file's last line
  ASSERT_TRUE(d.unclosed_brace);
  EXPECT_EQ(*d.unclosed_brace, (source::TextPosition{1, 31}));
  EXPECT_NE(d.message.find("line 1, column 31 is never closed"), std::string::npos) << d.message;
}

TEST(EditorModel, ARefusedRequestIsOneErrorAtTheLineItNames) {
  KS_REQUIRE_NVRTC();
  // A declaration with its minimum above its maximum, on line 2: refused before compiling.
  const CompileOutcome bad_param = compile(request_for("// @family array\n"
                                                       "// @param scale float [2, 1] = 1\n"
                                                       "__global__ void k(const float* a, float* out, int n, float s) {}\n"));
  ASSERT_EQ(bad_param.diagnostics.size(), 1u);
  EXPECT_EQ(bad_param.diagnostics[0].line, 2) << bad_param.diagnostics[0].detail;
  EXPECT_FALSE(bad_param.diagnostics[0].message.starts_with("mine.cu")) << "the line is taken out of the message";
  EXPECT_FALSE(bad_param.kernel);

  // An entry that does not fit its family: marked at the entry's line (the name on the line after __global__).
  const CompileOutcome contract = compile(request_for("// @family stencil\n"
                                                      "\n"
                                                      "__global__ void\n"
                                                      "smooth(float* in, float* out) {}\n"));
  ASSERT_EQ(contract.diagnostics.size(), 1u);
  EXPECT_EQ(contract.diagnostics[0].line, 4) << contract.diagnostics[0].detail;
  EXPECT_NE(contract.diagnostics[0].message.find("does not match the stencil contract"), std::string::npos);

  // Refusals about the entry are marked too: a file with no kernel at its template kernel (nothing instantiates
  // it), several kernels at the second one, an `// @entry` naming none at that line, a family asked for that the
  // file does not declare at its `@family` line.
  auto line_of = [](const CompileOutcome& o) {
    EXPECT_EQ(o.diagnostics.size(), 1u);
    return o.diagnostics.empty() ? -1 : o.diagnostics[0].line;
  };
  EXPECT_EQ(line_of(compile(request_for("// only a template\n"
                                        "template <typename T>\n"
                                        "__global__ void fill(T* out) { out[0] = T(1); }\n"))),
            3);
  EXPECT_EQ(line_of(compile(request_for("__device__ float twice(float v) { return 2.f * v; }\n"))), 1);
  EXPECT_EQ(line_of(compile(request_for("__global__ void a(float* o) { o[0] = 1.f; }\n"
                                        "\n"
                                        "__global__ void b(float* o) { o[0] = 2.f; }\n"))),
            3);
  EXPECT_EQ(line_of(compile(request_for("__global__ void a(float* o) { o[0] = 1.f; }\n"
                                        "// @entry c\n"
                                        "__global__ void b(float* o) { o[0] = 2.f; }\n"))),
            2);
  usercode::CompileRequest asked = request_for("\n// @family step\n__global__ void s(const float* a, float* b, int w, int h) {}\n");
  asked.family = "stencil";
  EXPECT_EQ(line_of(compile(asked)), 2);

  const CompileOutcome empty = compile(request_for("  \n\n"));
  ASSERT_EQ(empty.diagnostics.size(), 1u);
  EXPECT_EQ(empty.diagnostics[0].line, 0) << "an empty text has no line to mark";
  EXPECT_NE(empty.diagnostics[0].message.find("empty"), std::string::npos) << empty.diagnostics[0].message;
  EXPECT_FALSE(empty.runnable());
}

TEST(EditorModel, ACancelledCompileShowsNothing) {
  KS_REQUIRE_NVRTC();
  std::atomic<bool> cancel{true};
  usercode::CompileRequest r = request_for("__global__ void k(float* out) { out[0] = 1.f; }\n");
  r.cancel = &cancel;
  const CompileOutcome o = compile(r);
  EXPECT_TRUE(o.cancelled);
  EXPECT_FALSE(o.kernel);
  EXPECT_TRUE(o.diagnostics.empty());
}

TEST(EditorModel, ACompiledKernelHasItsFactsAndTheCacheIsSaid) {
  KS_REQUIRE_NVRTC();
  usercode::CompileCache cache;
  const auto r = request_for("__global__ void k(float* out) { out[threadIdx.x] = 1.f; }\n");
  const CompileOutcome first = compile_for_editor(usercode::compile_user_kernel, r, &cache, 1);
  ASSERT_TRUE(first.runnable());
  const CompileOutcome again = compile_for_editor(usercode::compile_user_kernel, r, &cache, 2);
  ASSERT_TRUE(again.runnable());
  EXPECT_FALSE(first.kernel->from_cache);
  EXPECT_TRUE(again.kernel->from_cache);
  const std::vector<FactRow> rows = fact_rows(*again.kernel);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().value, "k(float*)");
  EXPECT_NE(rows.back().value.find("from the cache"), std::string::npos) << rows.back().value;
}

usercode::KernelFacts facts(int registers, int shared_bytes = 0) {
  usercode::KernelFacts k;
  k.name = k.signature = "k";
  k.registers = registers;
  k.shared_bytes = shared_bytes;
  k.max_threads_per_block = usercode::max_threads_per_block(registers, 0);
  return k;
}

TEST(EditorModel, FactsAreADashWherePtxasGaveNoFigure) {
  usercode::CompiledModule m;
  m.ok = true;
  m.kernels = {facts(40)};
  m.kernels[0].resources_reported = false;
  m.compile_ms = 12.4;
  usercode::CompiledKernel k;
  k.module = std::make_shared<const usercode::CompiledModule>(m);
  k.entry = 0;
  const std::vector<FactRow> rows = fact_rows(k);
  for (const FactRow& row : rows) {
    if (row.label == "entry" || row.label == "compile time") continue;
    EXPECT_EQ(row.value, "-") << row.label;
  }
  EXPECT_EQ(rows.back().value, "12 ms");
}

TEST(EditorModel, OccupancyAtTheChosenBlockFollowsTheH100sLimits) {
  const DeviceInfo& h100 = device_model("h100").limits;  // 65536 registers and 2048 threads per SM, 32 blocks
  // 64 registers: a warp takes 64 x 32 = 2048 registers, so each of the 4 sub-partitions (16384 registers) holds
  // 8 warps: 32 warps per SM = 4 blocks of 256 threads = 50%, limited by registers.
  EditorOccupancy o = occupancy_at(h100, facts(64), {256, 1});
  ASSERT_TRUE(o.limits) << o.problem;
  EXPECT_EQ(o.limits->active_blocks, 4);
  EXPECT_DOUBLE_EQ(o.limits->occupancy, 0.5);
  EXPECT_EQ(o.limits->limiter, "registers");
  EXPECT_EQ(occupancy_text(*o.limits), "50% occupancy, limited by registers: 4 blocks of 8 warps per SM (32 of 64 warps)");
  // 30 registers round up to 32 per thread (1024 per warp): 64 warps fit, as many as the SM has: 32x8 blocks
  // of 8 warps, 8 of them, limited by warps.
  o = occupancy_at(h100, facts(30), {32, 8});
  ASSERT_TRUE(o.limits) << o.problem;
  EXPECT_EQ(o.limits->active_blocks, 8);
  EXPECT_DOUBLE_EQ(o.limits->occupancy, 1.0);
  EXPECT_EQ(o.limits->limiter, "warps");
  // 3 x 7 = 21 threads: one warp per block, and at most 32 blocks per SM: 32 of 64 warps.
  o = occupancy_at(h100, facts(16), {3, 7});
  ASSERT_TRUE(o.limits) << o.problem;
  EXPECT_EQ(o.limits->active_blocks, 32);
  EXPECT_EQ(o.limits->limiter, "blocks per SM");
}

TEST(EditorModel, NoOccupancyWithoutRegistersOrForABlockTheKernelOrDeviceCannotRun) {
  const DeviceInfo& h100 = device_model("h100").limits;
  usercode::KernelFacts unknown = facts(32);
  unknown.resources_reported = false;
  EXPECT_NE(occupancy_at(h100, unknown, {256, 1}).problem.find("registers"), std::string::npos);
  // 128 registers: 65536 / 128 = 512 threads per block at most.
  const EditorOccupancy big = occupancy_at(h100, facts(128), {32, 32});
  EXPECT_FALSE(big.limits);
  EXPECT_NE(big.problem.find("at most 512 threads per block"), std::string::npos) << big.problem;
  const EditorOccupancy wide = occupancy_at(h100, facts(16), {2048, 1});
  EXPECT_FALSE(wide.limits);
  EXPECT_FALSE(wide.problem.empty());
}

TEST(EditorModel, DefaultBlocksFollowTheFamily) {
  EXPECT_EQ(default_block(usercode::Family::Stencil).x, 32);
  EXPECT_EQ(default_block(usercode::Family::Stencil).y, 8);
  EXPECT_EQ(default_block(usercode::Family::Step).y, 8);
  EXPECT_EQ(default_block(usercode::Family::Array).x, 256);
  EXPECT_EQ(default_block(usercode::Family::Array).y, 1);
  EXPECT_EQ(default_block(std::nullopt).x, 256);
}

}  // namespace
}  // namespace ks::editor
