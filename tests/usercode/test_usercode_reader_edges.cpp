// The compiler service's readers at the edges of the forms they read (no NVRTC but for the architecture check):
// NVRTC's headers with odd file names, codes, catastrophic and fatal errors, end of source and the command line;
// `// @param` lines with brackets and `=` in their help, or a comma in their range; ptxas's report with and without
// shared memory; launch bounds of one, two and three numbers; the PTX and SASS listings read from text written by
// hand, quoted paths with escaped quotes included. The forms are those the readers accepted when they were
// std::regex patterns (gpu/usercode/text_scan.hpp says why they are not any more).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "support/test_support.hpp"
#include "usercode/declarations.hpp"
#include "usercode/diagnostics.hpp"
#include "usercode/kernel_facts.hpp"
#include "usercode/listing.hpp"
#include "usercode/nvrtc_compile.hpp"

namespace ks::usercode {
namespace {

using test::usage_error;

// The one diagnostic a header line gives, alone in the log.
Diagnostic only_diagnostic(const std::string& header) {
  const std::vector<Diagnostic> d = parse_nvrtc_log(header + "\n", "user.cu", 12);
  EXPECT_EQ(d.size(), 1u) << header;
  return d.empty() ? Diagnostic{} : d[0];
}

TEST(UsercodeReaderEdges, AFileNameWithParenthesesKeepsThemAll) {
  // The file name runs to the last `(LINE): ` a header reads on from.
  const Diagnostic d = only_diagnostic("odd(12): name.cu(3): error: expected a \";\"");
  EXPECT_EQ(d.file, "odd(12): name.cu");
  EXPECT_EQ(d.line, 3);
  EXPECT_EQ(d.message, "expected a \";\"");
  const Diagnostic copy = only_diagnostic("my (copy 2).cu(41): warning #177-D: variable \"j\" was declared but never referenced");
  EXPECT_EQ(copy.file, "my (copy 2).cu");
  EXPECT_EQ(copy.line, 41);
  EXPECT_EQ(copy.severity, Severity::Warning);
  EXPECT_EQ(copy.code, "177-D");
}

TEST(UsercodeReaderEdges, CodesAndMessagesWithColons) {
  const Diagnostic d = only_diagnostic("k.cu(5): error #20-D: identifier \"x\" is undefined");
  EXPECT_EQ(d.code, "20-D");
  EXPECT_EQ(d.message, "identifier \"x\" is undefined");
  const Diagnostic plain = only_diagnostic("k.cu(6): error #20: identifier \"y\" is undefined");
  EXPECT_EQ(plain.code, "20");
  const Diagnostic note = only_diagnostic("k.cu(7): note #3326-D: function \"f\" declared here: see the call");
  EXPECT_EQ(note.severity, Severity::Note);
  EXPECT_EQ(note.code, "3326-D");
  EXPECT_EQ(note.message, "function \"f\" declared here: see the call");
  const Diagnostic remark = only_diagnostic("k.cu(8): remark: loop unrolled");
  EXPECT_EQ(remark.severity, Severity::Note);
  EXPECT_EQ(remark.code, "");
  EXPECT_EQ(remark.message, "loop unrolled");
}

TEST(UsercodeReaderEdges, CatastrophicAndFatalErrorsAreErrors) {
  const Diagnostic c = only_diagnostic("user.cu(2): catastrophic error: cannot open source file \"missing.h\"");
  EXPECT_EQ(c.severity, Severity::Error);
  EXPECT_EQ(c.line, 2);
  EXPECT_EQ(c.message, "cannot open source file \"missing.h\"");
  const Diagnostic f = only_diagnostic("user.cu(3): fatal error: too many errors");
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.message, "too many errors");
  const Diagnostic placeless = only_diagnostic("catastrophic error: out of memory");
  EXPECT_EQ(placeless.file, "");
  EXPECT_EQ(placeless.line, 0);
  EXPECT_EQ(placeless.severity, Severity::Error);
  EXPECT_EQ(placeless.message, "out of memory");
}

TEST(UsercodeReaderEdges, AtEndOfSourceWarningsAndCodes) {
  const Diagnostic w = only_diagnostic("At end of source: warning #12-D: parsing restarts here");
  EXPECT_TRUE(w.at_end_of_source);
  EXPECT_EQ(w.file, "user.cu");
  EXPECT_EQ(w.line, 12);
  EXPECT_EQ(w.severity, Severity::Warning);
  EXPECT_EQ(w.code, "12-D");
  EXPECT_EQ(w.message, "parsing restarts here");
  const Diagnostic c = only_diagnostic("At end of source: catastrophic error: unexpected end of file");
  EXPECT_TRUE(c.at_end_of_source);
  EXPECT_EQ(c.severity, Severity::Error);
}

TEST(UsercodeReaderEdges, CommandLineErrorsHaveNoPlace) {
  const Diagnostic d = only_diagnostic("Command-line error: invalid value for option -arch");
  EXPECT_EQ(d.file, "");
  EXPECT_EQ(d.line, 0);
  EXPECT_FALSE(d.at_end_of_source);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.message, "invalid value for option -arch");
  const Diagnostic coded = only_diagnostic("error #1234: something went wrong");
  EXPECT_EQ(coded.code, "1234");
  EXPECT_EQ(coded.message, "something went wrong");
  EXPECT_EQ(format_diagnostic(d), "kernelscope-compile: error: invalid value for option -arch\n");
}

TEST(UsercodeReaderEdges, NearHeadersAreNotHeaders) {
  // No space after the place, a line that is not a number, no file, a code with nothing in it, an unknown word.
  EXPECT_TRUE(parse_nvrtc_log("box.cu(3):error: x\n"
                              "box.cu(x): error: x\n"
                              "(3): error: x\n"
                              "box.cu(3): error #: x\n"
                              "box.cu(3): mistake: x\n",
                              "box.cu", 5)
                  .empty());
}

TEST(UsercodeReaderEdges, ASummaryRightAfterABodyEndsIt) {
  const auto d = parse_nvrtc_log("k.cu(1): error: x\n"
                                 "  detected during instantiation\n"
                                 "1 error detected in the compilation of \"k.cu\".\n"
                                 "k.cu(2): warning: y\n"
                                 "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n",
                                 "k.cu", 3);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].details, (std::vector<std::string>{"  detected during instantiation"}));
  EXPECT_TRUE(d[1].details.empty());
}

TEST(UsercodeReaderEdges, WindowsLineEndsReadTheSame) {
  const auto d = parse_nvrtc_log("k.cu(2): warning #177-D: unused\r\n  int j;\r\n      ^\r\n", "k.cu", 3);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "177-D");
  EXPECT_EQ(d[0].message, "unused");
  EXPECT_EQ(d[0].column, 5);
}

const DeclaredParameter& only_parameter(const KernelDeclarations& d) {
  EXPECT_EQ(d.parameters.size(), 1u);
  return d.parameters.at(0);
}

TEST(UsercodeReaderEdges, ParameterHelpMayHoldBracketsAndEquals) {
  const KernelDeclarations d = parse_declarations("// @param radius int [1, 8] = 3 size [in px] = r\n", "k.cu");
  const DeclaredParameter& p = only_parameter(d);
  EXPECT_EQ(p.name, "radius");
  EXPECT_EQ(p.min, 1);
  EXPECT_EQ(p.max, 8);
  EXPECT_EQ(p.value, 3);
  EXPECT_EQ(p.description, "size [in px] = r");
}

TEST(UsercodeReaderEdges, ParameterBlanksAreFree) {
  const KernelDeclarations tight_line = parse_declarations("//\t@param g\tfloat\t[0,1]=0.25\n", "k.cu");
  const DeclaredParameter& tight = only_parameter(tight_line);
  EXPECT_EQ(tight.name, "g");
  EXPECT_EQ(tight.type, ParamType::Float);
  EXPECT_EQ(tight.max, 1);
  EXPECT_EQ(tight.value, 0.25);
  EXPECT_EQ(tight.description, "");
  const KernelDeclarations loose_line = parse_declarations("// @param g float [ -1 ,  1 ]  =  0  \n", "k.cu");
  const DeclaredParameter& loose = only_parameter(loose_line);
  EXPECT_EQ(loose.min, -1);
  EXPECT_EQ(loose.max, 1);
  EXPECT_EQ(loose.value, 0);
}

TEST(UsercodeReaderEdges, ParameterRangesOfOtherShapesAreRefused) {
  auto parse = [](const std::string& s) { return [s] { parse_declarations(s, "k.cu"); }; };
  // MAX runs to the `]`: a second comma is part of it.
  EXPECT_NE(usage_error(parse("// @param r int [1, 2, 3] = 2\n")).find("the maximum `2, 3` is not a finite number"),
            std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r int [1] = 1\n")).find("cannot read the parameter `r int [1] = 1`"),
            std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r int[1, 2] = 1\n")).find("cannot read the parameter"), std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r int [1, 2] =\n")).find("cannot read the parameter"), std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r int [1, 2] 1\n")).find("cannot read the parameter"), std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r int [1, 2 = 1\n")).find("cannot read the parameter"), std::string::npos);
  EXPECT_NE(usage_error(parse("// @param r int [1, 2] == 1\n")).find("the default `=` is not a finite number"),
            std::string::npos);
}

TEST(UsercodeReaderEdges, PtxasSharedMemoryOnlyWhereReported) {
  const auto k = parse_ptxas_report(
      "ptxas info    : Used 99 registers\n"  // before any entry: no one's
      "ptxas info    : Compiling entry function '_Z1av' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z1av\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem, 400 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z1bv' for 'sm_90'\r\n"
      "ptxas info    : Function properties for _Z1bv\r\n"
      "    16 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads\r\n"
      "ptxas info    : Used 7 registers, used 0 barriers, 16 bytes cumulative stack size, 360 bytes cmem[0]\r\n");
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].mangled_name, "_Z1av");
  EXPECT_EQ(k[0].registers, 40);
  EXPECT_EQ(k[0].shared_bytes, 2048);
  EXPECT_EQ(k[1].mangled_name, "_Z1bv");
  EXPECT_EQ(k[1].registers, 7);
  EXPECT_EQ(k[1].shared_bytes, 0);
  EXPECT_EQ(k[1].stack_bytes, 16);
  EXPECT_EQ(k[1].spill_stores, 4);
  EXPECT_EQ(k[1].spill_loads, 8);
}

TEST(UsercodeReaderEdges, PtxasDeviceFunctionsLendNoFrameToAnEntry) {
  const auto k = parse_ptxas_report(
      "ptxas info    : Function properties for _Z6helperf\n"
      "    24 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z1kv\n"
      "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 12 registers\n");
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].stack_bytes, 8);
  EXPECT_EQ(k[0].registers, 12);
}

// A PTX entry `k` with `directives` between its parameters and its body.
std::string entry_with(const std::string& directives) {
  return ".visible .entry k(\n\t.param .u64 k_param_0\n)\n" + directives + "\n{\n\tret;\n}\n";
}

TEST(UsercodeReaderEdges, LaunchBoundsOfOneTwoAndThreeNumbers) {
  EXPECT_EQ(ptx_launch_bound(entry_with(".maxntid 256"), "k"), 256);
  EXPECT_EQ(ptx_launch_bound(entry_with(".maxntid 32, 4"), "k"), 128);
  EXPECT_EQ(ptx_launch_bound(entry_with(".maxntid 8, 4, 2"), "k"), 64);
  EXPECT_EQ(ptx_launch_bound(entry_with(".reqntid 48"), "k"), 48);
  EXPECT_EQ(ptx_launch_bound(entry_with(".reqntid 16, 8, 2"), "k"), 256);
  EXPECT_EQ(ptx_launch_bound(entry_with(".maxntid\t16 ,\n 8"), "k"), 128);
  EXPECT_EQ(ptx_launch_bound(entry_with(".minnctapersm 2\n.maxntid 96, 1, 1"), "k"), 96);
  EXPECT_EQ(ptx_launch_bound(entry_with(".maxntid 64, x"), "k"), 64);  // a comma with no number after it
  EXPECT_EQ(ptx_launch_bound(entry_with(".maxnreg 32"), "k"), 0);
  EXPECT_EQ(ptx_launch_bound(entry_with(".maxntid x"), "k"), 0);
  EXPECT_EQ(ptx_launch_bound(entry_with(""), "k"), 0);
}

TEST(UsercodeReaderEdges, EntryNamesFromThePtx) {
  std::vector<KernelFacts> kernels;
  add_unreported_entries(kernels, ".entry $k_1$(\n)\n.entry\t_Z1bv\n(\n)\n.entry 9bad(\n)\n.entry c;\n.entry .d(\n");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].mangled_name, "$k_1$");
  EXPECT_EQ(kernels[1].mangled_name, "_Z1bv");
}

constexpr const char* kUserPath = "/tmp/we\\\"ird/u.cu";  // as PTX and nvdisasm quote /tmp/we"ird/u.cu

TEST(UsercodeReaderEdges, PtxListingFromHandWrittenPtx) {
  CompiledModule m;
  m.ok = true;
  m.file_name = "u.cu";
  m.ptx = std::string(".version 8.8\n.target sm_90\n"
                      ".extern .func (.param .b32 func_retval0) vprintf(\n.param .b64 vprintf_param_0\n);\n"
                      ".visible .entry _Z1kPf(\n\t.param .u64 _Z1kPf_param_0\n)\n.maxntid 64, 1, 1\n{\n"
                      "\t.reg .f32 %f<2>;\n"
                      "\t.loc\t1 3 5\n\tld.global.f32   %f1, [%rd1];\n"
                      "$L__BB0_1:\n"
                      "\t.loc\t2 10 1, inlined_at 1 4 2\n\tmov.u32 %r1, %tid.x;\n"
                      "\t.loc\t3 4 2\n\tst.global.f32 [%rd1], %f1;\n\tret;\n}\n"
                      ".weak .func (.param .b32 func_retval0) _Z4helpi(\n\t.param .b32 _Z4helpi_param_0\n)\n{\n"
                      "\t.loc 1 7 1\n\tret;\n}\n"
                      "\t.file\t1 \"") + kUserPath + "\"\n"
                      "\t.file\t2 \"/abs/ks_prelude.cuh\", 1700000000, 1234\n"
                      "\t.file\t3 \"/usr/local/cuda/include/x.h\"\n";
  const Listing l = ptx_listing(m);
  ASSERT_EQ(l.kernels.size(), 2u);
  const KernelListing& k = l.kernels[0];
  EXPECT_EQ(k.mangled_name, "_Z1kPf");
  EXPECT_EQ(k.name, "_Z1kPf");  // no KernelFacts to name it
  ASSERT_EQ(k.lines.size(), 5u);
  EXPECT_EQ(k.lines[0].text, "ld.global.f32 %f1, [%rd1];");
  EXPECT_EQ(k.lines[0].origin, LineOrigin::User);
  EXPECT_EQ(k.lines[0].source_line, 3);
  EXPECT_EQ(k.lines[1].text, "$L__BB0_1:");
  EXPECT_EQ(k.lines[1].origin, LineOrigin::None);
  EXPECT_EQ(k.lines[2].origin, LineOrigin::Prelude);
  EXPECT_EQ(k.lines[3].origin, LineOrigin::Header);
  EXPECT_EQ(k.lines[4].text, "ret;");
  EXPECT_EQ(k.lines[4].origin, LineOrigin::Header);
  EXPECT_EQ(l.kernels[1].mangled_name, "_Z4helpi");
  ASSERT_EQ(l.kernels[1].lines.size(), 1u);
  EXPECT_EQ(l.kernels[1].lines[0].source_line, 7);
}

TEST(UsercodeReaderEdges, SassListingFromHandWrittenText) {
  const std::string text = std::string(
      "\t.headerflags\t@\"EF_CUDA_SM90\"\n"
      "        /*0000*/ \t.byte\t0x01\n"  // before any code section: not an instruction
      "\t.section\t.text._Z1kPf,\"ax\",@progbits\n"
      "\t.sectioninfo\t@\"SHI_REGISTERS=8\"\n"  // not a section: the code goes on
      ".text._Z1kPf:\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;        /* 0x00000a00ff017b82 */\n"
      "\t//## File \"") + kUserPath + "\", line 5\n"
      "        /*00A0*/                   LDG.E R2, desc[UR4][R2.64] ;   /* 0x0000000402027981 */\n"
      "\t//## File \"/abs/ks_prelude.cuh\", line 20 inlined at \"" + kUserPath + "\", line 4\n"
      "        /*00b0*/                   S2R R0, SR_TID.X ;\n"
      ".L_x_0:\n"
      "        /*00c0*/                   BRA `(.L_x_0);\n"
      "\t.section\t.nv.info._Z1kPf,\"\",@\"SHT_CUDA_INFO\"\n"
      "        /*0000*/ \t.byte\t0x04, 0x0a\n"
      "        /*0004*/ \tEXIT ;\n";
  const Listing l = parse_sass_listing(text, "u.cu", {});
  ASSERT_EQ(l.kernels.size(), 1u);
  const KernelListing& k = l.kernels[0];
  EXPECT_EQ(k.mangled_name, "_Z1kPf");
  ASSERT_EQ(k.lines.size(), 5u);
  EXPECT_EQ(k.lines[0].text, "LDC R1, c[0x0][0x28] ;");
  EXPECT_EQ(k.lines[0].origin, LineOrigin::None);
  EXPECT_EQ(k.lines[1].text, "LDG.E R2, desc[UR4][R2.64] ;");
  EXPECT_EQ(k.lines[1].origin, LineOrigin::User);
  EXPECT_EQ(k.lines[1].source_line, 5);
  EXPECT_EQ(k.lines[2].text, "S2R R0, SR_TID.X ;");
  EXPECT_EQ(k.lines[2].origin, LineOrigin::Prelude);
  EXPECT_EQ(k.lines[3].text, ".L_x_0:");
  EXPECT_EQ(k.lines[4].text, "BRA `(.L_x_0);");
}

TEST(UsercodeReaderEdges, ArchitecturesAreSmNumberAndASuffix) {
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  auto refusal = [](const std::string& arch) {
    CompileOptions o;
    o.arch = arch;
    try {
      compile_with_nvrtc("__global__ void k() {}\n", "k.cu", o);
    } catch (const Error& e) {
      return e.kind() == ErrorKind::Usage ? std::string(e.what()) : std::string("not a usage error");
    }
    return std::string();
  };
  for (const std::string arch : {"sm_", "sm_90af", "sm_90b", "sm_90 ", " sm_90", "SM_90", "compute_90", "sm_x90", ""})
    EXPECT_NE(refusal(arch).find("`" + arch + "` is not a GPU architecture"), std::string::npos) << arch;
  // sm_90a is Hopper's own; sm_100f (CUDA 12.9's family form) passes our check, whatever this NVRTC makes of it.
  EXPECT_EQ(refusal("sm_90a"), "");
  EXPECT_EQ(refusal("sm_100f").find("is not a GPU architecture"), std::string::npos);
}

}  // namespace
}  // namespace ks::usercode
