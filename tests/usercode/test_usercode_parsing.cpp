// The compiler service's readers, on hand-written inputs (no NVRTC): declarations, NVRTC's log, ptxas's report,
// PTX launch bounds, mangled names, the families' contracts, the register limit and the source checks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "usercode/declarations.hpp"
#include "usercode/diagnostics.hpp"
#include "usercode/family.hpp"
#include "usercode/kernel_facts.hpp"
#include "support/test_support.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/prelude_headers.hpp"
#include "usercode/source_text.hpp"

namespace ks::usercode {
namespace {

using test::usage_error;

TEST(UsercodeDeclarations, ReadsFamilyEntryOutputAndParameters) {
  const std::string src =
      "// @family array\n"
      "// @entry saxpy\n"
      "//   @output scalar\n"
      "// @brief not ours\n"
      "// @param scale float [-2.5, 4] = 0.5   how much of x\n"
      "// @param repeats int [1, 16] = 3\n"
      "__global__ void saxpy() {}\n";
  const KernelDeclarations d = parse_declarations(src, "s.cu");
  EXPECT_EQ(d.family, "array");
  EXPECT_EQ(d.family_line, 1);
  EXPECT_EQ(d.entry, "saxpy");
  ASSERT_TRUE(d.output);
  EXPECT_EQ(*d.output, OutputKind::Scalar);
  ASSERT_EQ(d.parameters.size(), 2u);
  EXPECT_EQ(d.parameters[0].name, "scale");
  EXPECT_EQ(d.parameters[0].type, ParamType::Float);
  EXPECT_EQ(d.parameters[0].min, -2.5);
  EXPECT_EQ(d.parameters[0].max, 4);
  EXPECT_EQ(d.parameters[0].value, 0.5);
  EXPECT_EQ(d.parameters[0].description, "how much of x");
  EXPECT_EQ(d.parameters[0].line, 5);
  EXPECT_EQ(d.parameters[1].type, ParamType::Int);
  EXPECT_EQ(d.parameters[1].value, 3);
  EXPECT_EQ(d.parameters[1].line, 6);
}

TEST(UsercodeDeclarations, RefusesImpossibleRangesAndMalformedLines) {
  auto parse = [](const std::string& s) { return [s] { parse_declarations(s, "k.cu"); }; };
  EXPECT_NE(usage_error(parse("\n// @param r int [8, 1] = 2\n")).find("k.cu:2: the parameter `r` has the impossible range [8, 1]"),
            std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r int [1, 8] = 9\n")).find("default 9 of the parameter `r` is outside"),
            std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r int [1, 8.5] = 2\n")).find("not a 32-bit integer"), std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r double [1, 8] = 2\n")).find("has the type `double`"), std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r float [a, 8] = 2\n")).find("minimum `a` is not a finite number"),
            std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r float 1..8 = 2\n")).find("k.cu:1: cannot read the parameter"),
            std::string::npos);
  EXPECT_NE(usage_error(parse("// @param 2r float [1, 8] = 2\n")).find("not an identifier"), std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r float [1, 8] = 2\n// @param r int [1, 8] = 2\n"))
                .find("k.cu:2: the parameter `r` is declared twice (first at line 1)"),
            std::string::npos);
  EXPECT_NE(usage_error(parse("// @family step\n// @family array\n")).find("a second `@family`"), std::string::npos);
  EXPECT_NE(usage_error(parse("// @output many\n")).find("neither array nor scalar"), std::string::npos);
}

TEST(UsercodeDiagnostics, ReadsNvrtcLogWithCaretsNotesAndEndOfSource) {
  // The shape of NVRTC 13's log (two spaces before the copied source line).
  const std::string log =
      "box.cu(3): error: expected a \";\"\n"
      "    if (i < n) b[i] = a[i];\n"
      "    ^\n"
      "\n"
      "box.cu(2): warning #177-D: variable \"j\" was declared but never referenced\n"
      "    int j = 0;\n"
      "        ^\n"
      "\n"
      "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
      "\n"
      "At end of source: error: expected a \"}\"\n"
      "box.cu(1): note #3196-D: to match this \"{\"\n"
      "  __global__ void k(float* b) {\n"
      "                               ^\n"
      "\n"
      "2 errors detected in the compilation of \"box.cu\".\n";
  const auto d = parse_nvrtc_log(log, "box.cu", 7);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].file, "box.cu");
  EXPECT_EQ(d[0].line, 3);
  EXPECT_EQ(d[0].column, 3);
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].message, "expected a \";\"");
  ASSERT_EQ(d[0].caret_lines.size(), 2u);
  EXPECT_EQ(d[1].severity, Severity::Warning);
  EXPECT_EQ(d[1].code, "177-D");
  EXPECT_EQ(d[1].column, 7);
  EXPECT_TRUE(d[2].at_end_of_source);
  EXPECT_EQ(d[2].line, 7);
  EXPECT_EQ(d[2].related_line, 1);
  EXPECT_EQ(d[2].related_column, 30);
  EXPECT_EQ(count_errors(d), 2);
  const std::string text = format_diagnostic(d[0]);
  EXPECT_EQ(text.substr(0, text.find('\n')), "box.cu:3: error: expected a \";\"");
  EXPECT_NE(format_diagnostic(d[2]).find("box.cu:7: error: expected a \"}\" (at the end of the source; the brace it "
                                         "could not match is at line 1)"),
            std::string::npos);
}

TEST(UsercodeFacts, ReadsPtxasReportPerEntry) {
  const std::string log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z2k2Pf' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z2k2Pf\n"
      "ptxas         .     400 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 0 barriers, 400 bytes cumulative stack size\n"
      "ptxas info    : Compiling entry function '_Z1kPKfPfi' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z1kPKfPfi\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem\n";
  auto k = parse_ptxas_report(log);
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].mangled_name, "_Z2k2Pf");
  EXPECT_EQ(k[0].registers, 32);
  EXPECT_EQ(k[0].stack_bytes, 400);
  EXPECT_EQ(k[0].spill_stores, 8);
  EXPECT_EQ(k[0].spill_loads, 12);
  EXPECT_EQ(k[0].shared_bytes, 0);
  EXPECT_EQ(k[1].registers, 10);
  EXPECT_EQ(k[1].shared_bytes, 1024);
  order_as_in_ptx(k, ".entry _Z1kPKfPfi(\n)\n{\n}\n.entry _Z2k2Pf(\n)\n{\n}\n");
  EXPECT_EQ(k[0].mangled_name, "_Z1kPKfPfi");
  describe_entry(k[0]);
  EXPECT_EQ(k[0].name, "k");
  EXPECT_EQ(k[0].signature, "k(float const*, float*, int)");
  EXPECT_EQ(k[0].parameter_types, (std::vector<std::string>{"float const*", "float*", "int"}));
}

TEST(UsercodeFacts, NamesTemplatesNamespacesAndExternC) {
  KernelFacts t;
  t.mangled_name = "_Z6reduceIfEvPKT_PS0_i";  // template <class T> void reduce(const T*, T*, int), T = float
  describe_entry(t);
  EXPECT_EQ(t.name, "reduce<float>");
  EXPECT_EQ(t.parameter_types, (std::vector<std::string>{"float const*", "float*", "int"}));
  KernelFacts n;
  n.mangled_name = "_ZN2ks6smoothENS_7InImageIhEENS_8OutImageIhEE";  // ks::smooth(InImage<uchar>, OutImage<uchar>)
  describe_entry(n);
  EXPECT_EQ(n.name, "ks::smooth");
  EXPECT_EQ(n.parameter_types, (std::vector<std::string>{"ks::InImage<unsigned char>", "ks::OutImage<unsigned char>"}));
  KernelFacts c;
  c.mangled_name = "plain_c_kernel";
  describe_entry(c);
  EXPECT_TRUE(c.c_linkage);
  EXPECT_EQ(c.name, "plain_c_kernel");
}

TEST(UsercodeFacts, EntriesMissingFromTheReportComeFromThePtx) {
  std::vector<KernelFacts> kernels = parse_ptxas_report(
      "ptxas info    : Compiling entry function '_Z2k2Pf' for 'sm_90'\n"
      "ptxas info    : Used 9 registers, used 0 barriers\n");
  add_unreported_entries(kernels, ".visible .entry _Z1kPKfPfi(\n)\n{\n}\n.visible .entry _Z2k2Pf(\n)\n{\n}\n"
                                  ".entry first (\n)\n{\n}\n");
  order_as_in_ptx(kernels, ".visible .entry _Z1kPKfPfi(\n)\n{\n}\n.visible .entry _Z2k2Pf(\n)\n{\n}\n");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].mangled_name, "_Z1kPKfPfi");
  EXPECT_FALSE(kernels[0].resources_reported);
  EXPECT_EQ(kernels[1].mangled_name, "_Z2k2Pf");
  EXPECT_TRUE(kernels[1].resources_reported);
  EXPECT_EQ(kernels[1].registers, 9);
  EXPECT_EQ(kernels[2].mangled_name, "first");
  EXPECT_FALSE(kernels[2].resources_reported);
}

TEST(UsercodeFacts, LaunchBoundsFromPtxAndRegisterLimit) {
  const std::string ptx =
      ".visible .entry _Z1aPf(\n\t.param .u64 _Z1aPf_param_0\n)\n.maxntid 128, 1, 1\n{\n\tret;\n}\n"
      ".visible .entry _Z1bPf(\n\t.param .u64 _Z1bPf_param_0\n)\n{\n\tret;\n}\n"
      ".visible .entry _Z1cPf(\n\t.param .u64 _Z1cPf_param_0\n)\n.reqntid 16, 16, 1\n{\n\tret;\n}\n";
  EXPECT_EQ(ptx_launch_bound(ptx, "_Z1aPf"), 128);
  EXPECT_EQ(ptx_launch_bound(ptx, "_Z1bPf"), 0);
  EXPECT_EQ(ptx_launch_bound(ptx, "_Z1cPf"), 256);
  // 64 K registers per block, a quarter per sub-partition, warps take them in units of 256.
  EXPECT_EQ(max_threads_per_block(32, 0), 1024);
  EXPECT_EQ(max_threads_per_block(64, 0), 1024);   // 2048 a warp: 8 warps x 4 sub-partitions
  EXPECT_EQ(max_threads_per_block(72, 0), 896);    // 2304 a warp: 7 warps x 4
  EXPECT_EQ(max_threads_per_block(128, 0), 512);   // 4096 a warp: 4 warps x 4
  EXPECT_EQ(max_threads_per_block(255, 0), 256);   // 8160 -> 8192 a warp: 2 warps x 4
  EXPECT_EQ(max_threads_per_block(32, 128), 128);
}

TEST(UsercodeContracts, SayWhichParameterDiffers) {
  const std::vector<DeclaredParameter> none;
  const std::vector<DeclaredParameter> strength = {{"strength", ParamType::Float, 0, 1, 1, "", 3}};
  EXPECT_EQ(contract_mismatch(Family::Stencil, {"ks::InImage<float>", "ks::OutImage<float>", "float"}, strength), "");
  EXPECT_EQ(contract_mismatch(Family::Stencil,
                              {"unsigned char const*", "unsigned char*", "int", "int", "int", "int"}, none),
            "");
  EXPECT_EQ(contract_mismatch(Family::Stencil, {"ks::InImage<float>", "ks::OutImage<unsigned char>"}, none),
            "parameter 2 is `ks::OutImage<unsigned char>`; the stencil contract wants `ks::OutImage<float>` there "
            "(the output image, same element type as the input)");
  EXPECT_NE(contract_mismatch(Family::Stencil, {"ks::InImage<float>", "ks::OutImage<float>", "int"}, strength)
                .find("parameter 3 is `int`; the stencil contract wants `float` there (the declared parameter "
                      "`strength`)"),
            std::string::npos);
  EXPECT_NE(contract_mismatch(Family::Stencil, {"ks::InImage<float>", "ks::OutImage<float>"}, strength)
                .find("wants parameter 3 too: `float`"),
            std::string::npos);
  EXPECT_NE(contract_mismatch(Family::Stencil, {"double*"}, none).find("parameter 1 is `double*`"), std::string::npos);
  EXPECT_EQ(contract_mismatch(Family::Array, {"float const*", "float const*", "float*", "int"}, none), "");
  EXPECT_NE(contract_mismatch(Family::Array, {"float const*", "float*", "int", "int"}, none)
                .find("parameter 4 (`int`) is one more than the array contract has"),
            std::string::npos);
  EXPECT_NE(contract_mismatch(Family::Array, {"float const*", "double*", "int"}, none)
                .find("parameter 2 is `double*`; the array contract wants `float*`"),
            std::string::npos);
  EXPECT_EQ(contract_mismatch(Family::Step, {"unsigned char const*", "unsigned char*", "int", "int"}, none), "");
  EXPECT_NE(contract_mismatch(Family::Step, {"float*", "float*", "int", "int"}, none)
                .find("parameter 1 is `float*`; the step contract wants the current state"),
            std::string::npos);
  EXPECT_NE(usage_error([] { parse_family("image"); }).find("unknown kernel family `image`"), std::string::npos);
}

TEST(UsercodeSourceText, RefusesEmptyBinaryAndHugeSources) {
  EXPECT_NE(usage_error([] { check_source_text(" \n\t\n", "e.cu"); }).find("e.cu is empty"), std::string::npos);
  EXPECT_NE(usage_error([] { check_source_text(std::string("__global__\0", 11), "b.cu"); })
                .find("b.cu is not text: byte 10 is NUL"),
            std::string::npos);
  EXPECT_NE(usage_error([] { check_source_text("int x; // \xff\xfe", "u.cu"); })
                .find("byte 10 (0xff) is not UTF-8"),
            std::string::npos);
  EXPECT_NE(usage_error([] { check_source_text(std::string(kMaxSourceBytes + 1, 'x'), "h.cu"); })
                .find("h.cu has 1048577 bytes"),
            std::string::npos);
  EXPECT_NO_THROW(check_source_text("// caf\xc3\xa9\n__global__ void k() {}\n", "ok.cu"));
  EXPECT_EQ(count_lines("a\nb\n"), 2);
  EXPECT_EQ(count_lines("a\nb"), 2);
  EXPECT_EQ(count_lines("a\n\n"), 2);
  EXPECT_EQ(count_lines("a"), 1);
}

TEST(UsercodeProgramText, KeepsTheUsersLines) {
  const std::string text = program_text("line one\nline two\n", "my \"odd\".cu");
  EXPECT_EQ(text, "#include \"ks_prelude.cuh\"\n#line 1 \"my \\\"odd\\\".cu\"\nline one\nline two\n");
}

// The prelude's border remap is the built-in stencils' own: NVRTC gets core/border_remap.hpp and the core headers
// it includes as embedded from the source tree, byte for byte, and the prelude has no remap of its own. (The same
// border cases through both: tests/gpu/test_usercode_run_cuda.cpp.)
std::string text_of(const std::string& relative_path) {
  std::ifstream in(std::filesystem::path(KS_SOURCE_DIR) / relative_path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(UsercodePrelude, BorderRemapEqualsTheBuiltInStencils) {
  const std::vector<std::string> texts = prelude_header_texts();
  ASSERT_EQ(texts.size(), kPreludeHeaderNames.size());
  EXPECT_EQ(texts[0], text_of("gpu/usercode/prelude/ks_prelude.cuh"));
  for (std::size_t i = 1; i < texts.size(); ++i)
    EXPECT_EQ(texts[i], text_of("gpu/" + std::string(kPreludeHeaderNames[i]))) << kPreludeHeaderNames[i];
  EXPECT_NE(texts[0].find("#include \"core/border_remap.hpp\""), std::string::npos);
  EXPECT_EQ(texts[0].find("enum class Border"), std::string::npos);
  EXPECT_EQ(texts[0].find("switch (b)"), std::string::npos);
  EXPECT_NE(text_of("gpu/stencil/border.hpp").find("#include \"core/border_remap.hpp\""), std::string::npos);
  EXPECT_EQ(text_of("gpu/stencil/border.hpp").find("switch (b)"), std::string::npos);
}

}  // namespace
}  // namespace ks::usercode
