// The compiler service through NVRTC (no GPU): the templates of assets/kernels compile with sane facts, entries are
// picked or asked for, contracts are checked, the cache answers an unchanged source, a compile can be cancelled.
// Every test compiles little: each ctest process pays NVRTC's start.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"
#include "support/require_nvrtc.hpp"

namespace ks::usercode {
namespace {

CompileRequest request_for(const std::string& name, const std::string& source) {
  CompileRequest r;
  r.file_name = name;
  r.source = source;
  return r;
}

CompileRequest template_request(const std::string& file) {
  const auto path = std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels" / file;
  return request_for(file, read_kernel_source(path));
}

std::string usage_message(const CompileRequest& r) {
  try {
    compile_user_kernel(r);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    return e.full_message();
  }
  ADD_FAILURE() << "no error for " << r.file_name;
  return {};
}

// NVRTC 13.0.88 (the GPU machine's) leaves the log empty, ptxas's -v report and warnings included, for a program
// that includes a header; the kernels still come from the PTX, their resources are then unknown.
constexpr const char* kNoPtxasReport = "this NVRTC gave no ptxas report for a program with the prelude";

TEST(UsercodeCompile, TemplatesCompileWithSaneFacts) {
  KS_REQUIRE_NVRTC();
  struct Expected {
    const char* file;
    Family family;
    const char* name;
    int shared_bytes;       // from the source: reduce_sum's `__shared__ float partial[1024]`
    std::size_t parameters; // declared with `// @param`
  };
  bool unreported = false;
  for (const Expected& e : {Expected{"smooth3x3.cu", Family::Stencil, "smooth3x3", 0, 1},
                            Expected{"vecadd.cu", Family::Array, "vecadd", 0, 1},
                            Expected{"reduce_sum.cu", Family::Array, "reduce_sum", 1024 * 4, 0},
                            Expected{"life_step.cu", Family::Step, "life_step", 0, 1},
                            Expected{"box3x3_naive.cu", Family::Stencil, "box3x3_naive", 0, 0},
                            Expected{"divergent_columns.cu", Family::Stencil, "divergent_columns", 0, 1}}) {
    SCOPED_TRACE(e.file);
    const CompiledKernel k = compile_user_kernel(template_request(e.file));
    ASSERT_TRUE(k.ok()) << k.module->log;
    ASSERT_TRUE(k.family);
    EXPECT_EQ(*k.family, e.family);
    EXPECT_EQ(k.declarations.parameters.size(), e.parameters);
    ASSERT_EQ(k.module->kernels.size(), 1u);
    const KernelFacts& f = k.entry_facts();
    EXPECT_EQ(f.name, e.name);
    EXPECT_EQ(f.launch_bound, 0);
    unreported |= !f.resources_reported;
    if (f.resources_reported) {
      EXPECT_GT(f.registers, 0);
      EXPECT_LE(f.registers, 255);
      EXPECT_EQ(f.stack_bytes, 0);  // no local arrays, no calls left after inlining
      EXPECT_EQ(f.spill_stores, 0);
      EXPECT_EQ(f.spill_loads, 0);
      EXPECT_EQ(f.shared_bytes, e.shared_bytes);
      if (f.registers <= 64) {
        EXPECT_EQ(f.max_threads_per_block, 1024);
      }
    }
    EXPECT_GT(k.module->compile_ms, 0);
    EXPECT_NE(k.module->ptx.find(".entry " + f.mangled_name), std::string::npos);
    ASSERT_GE(k.module->cubin.size(), 4u);
    EXPECT_EQ(std::string(k.module->cubin.data(), 4), "\x7f" "ELF");
    // NVRTC puts its working folder before the name given to #line.
    const std::size_t file = k.module->ptx.find("\t.file\t1 \"");
    ASSERT_NE(file, std::string::npos);
    const std::string line_table = k.module->ptx.substr(file, k.module->ptx.find('\n', file) - file);
    EXPECT_TRUE(line_table.ends_with("/" + std::string(e.file) + "\"")) << line_table;
  }
  if (unreported) GTEST_SKIP() << kNoPtxasReport;
}

TEST(UsercodeCompile, FactsOfLaunchBoundsStackSharedAndWarnings) {
  KS_REQUIRE_NVRTC();
  // k1: 64 floats written and read at indices known only at run time must live in local memory (a 256-byte
  // stack frame); k2: 2 KiB of shared memory and __launch_bounds__(128); `unused` draws warning #177 at line 4.
  const std::string src =
      "__global__ void k1(float* out, int j) {\n"                  // 1
      "  float local[64];\n"                                        // 2
      "  for (int i = 0; i < 64; ++i) local[(i * j) & 63] = out[i];\n" // 3
      "  int unused = 0;\n"                                         // 4
      "  out[0] = local[j & 63];\n"                                 // 5
      "}\n"                                                         // 6
      "__global__ void __launch_bounds__(128) k2(float* out) {\n"
      "  __shared__ double tile[256];\n"
      "  tile[threadIdx.x] = out[threadIdx.x];\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = tile[255 - threadIdx.x];\n"
      "}\n";
  CompileRequest r = request_for("facts.cu", src);
  r.entry = "k2";
  const CompiledKernel k = compile_user_kernel(r);
  ASSERT_TRUE(k.ok()) << k.module->log;
  ASSERT_EQ(k.module->kernels.size(), 2u);
  EXPECT_EQ(k.entry_facts().name, "k2");
  EXPECT_EQ(k.entry_facts().launch_bound, 128);
  if (!k.entry_facts().resources_reported) GTEST_SKIP() << kNoPtxasReport;
  const KernelFacts* k1 = nullptr;
  for (const auto& f : k.module->kernels)
    if (f.name == "k1") k1 = &f;
  ASSERT_TRUE(k1);
  EXPECT_EQ(k1->stack_bytes, 256);
  EXPECT_EQ(k.entry_facts().shared_bytes, 256 * 8);
  EXPECT_EQ(k.entry_facts().launch_bound, 128);
  EXPECT_EQ(k.entry_facts().max_threads_per_block, 128);
  bool warned = false;
  for (const auto& d : k.module->diagnostics)
    warned |= d.severity == Severity::Warning && d.line == 4 && d.message.find("\"unused\"") != std::string::npos;
  EXPECT_TRUE(warned) << k.module->log;
}

TEST(UsercodeCompile, EntriesAreAskedForAndContractsChecked) {
  KS_REQUIRE_NVRTC();
  const std::string two = "__global__ void first(float* a) { a[0] = 1.f; }\n"
                          "__global__ void second(const float* in, float* out, int n) { out[0] = in[0] + n; }\n";
  CompileCache cache;
  CompileRequest r = request_for("two.cu", two);
  EXPECT_NE(usage_message(r).find("two.cu has 2 __global__ functions: first, second"), std::string::npos);
  // The failed requests compiled once; the cache answers the rest.
  r.entry = "third";
  const std::string missing = [&] {
    try {
      compile_user_kernel(r, &cache);
    } catch (const Error& e) {
      return e.full_message();
    }
    return std::string();
  }();
  EXPECT_NE(missing.find("two.cu has no __global__ function `third`; it has first, second"), std::string::npos);
  r.entry = "second";
  r.family = "array";
  const CompiledKernel k = compile_user_kernel(r, &cache);
  EXPECT_TRUE(k.from_cache);
  EXPECT_EQ(k.entry_facts().name, "second");
  EXPECT_EQ(cache.size(), 1u);
  r.entry = "first";
  try {
    compile_user_kernel(r, &cache);
    ADD_FAILURE() << "first() is not an array kernel";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("parameter 1 is `float*`; the array contract wants an input"),
              std::string::npos)
        << e.what();
    // At the entry's line, as the editor marks it.
    EXPECT_EQ(std::string(e.what()).rfind("two.cu:1: the entry first(float*) of two.cu", 0), 0u) << e.what();
  }
  EXPECT_NE(usage_message(request_for("none.cu", "__device__ float twice(float v) { return 2.f * v; }\n"))
                .find("none.cu has no __global__ function"),
            std::string::npos);
  CompileRequest declared = request_for("d.cu", "// @family step\n__global__ void s(const float* a, float* b, int w, int h) {}\n");
  declared.family = "stencil";
  EXPECT_NE(usage_message(declared).find("d.cu:1: d.cu declares the family step but stencil was asked for"),
            std::string::npos);
}

TEST(UsercodeCompile, CacheAnswersAnUnchangedSourceAndCancelStops) {
  KS_REQUIRE_NVRTC();
  CompileCache cache(1);
  const CompileRequest r = template_request("vecadd.cu");
  const CompiledKernel a = compile_user_kernel(r, &cache);
  const CompiledKernel b = compile_user_kernel(r, &cache);
  EXPECT_FALSE(a.from_cache);
  EXPECT_TRUE(b.from_cache);
  EXPECT_EQ(a.module.get(), b.module.get());
  CompileRequest other_arch = r;
  other_arch.options.arch = "sm_80";
  EXPECT_FALSE(compile_user_kernel(other_arch, &cache).from_cache);
  EXPECT_FALSE(compile_user_kernel(r, &cache).from_cache) << "capacity 1: sm_80 pushed sm_90 out";

  std::atomic<bool> cancel{true};
  CompileRequest cancelled = template_request("smooth3x3.cu");
  cancelled.cancel = &cancel;
  try {
    compile_user_kernel(cancelled, &cache);
    ADD_FAILURE() << "not cancelled";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Cancelled) << e.full_message();
  }
  EXPECT_EQ(cache.size(), 1u) << "a cancelled compile is not kept";
  CompileRequest bad_arch = r;
  bad_arch.options.arch = "hopper";
  EXPECT_NE(usage_message(bad_arch).find("`hopper` is not a GPU architecture"), std::string::npos);
}

}  // namespace
}  // namespace ks::usercode
