// What the compiler made of a user's kernel, line by line (usercode/listing.hpp, disassembler.hpp), without a
// GPU: the PTX's instructions at the user's lines (the prelude's apart), both kernels of a two-kernel file,
// -lineinfo changing no instruction, the SASS through a disassembler given as a program (a stand-in script
// writing nvdisasm's format, nvdisasm itself where the toolkit has it), PTX only without one, and a disassembler
// that fails, hangs or cannot start giving its message.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <tuple>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_sources.hpp"
#include "usercode/disassembler.hpp"
#include "usercode/listing.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/source_text.hpp"
#include "support/require_nvrtc.hpp"

namespace ks::usercode {
namespace {

const std::filesystem::path kTemplates = std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels";

std::string template_text(const std::string& file) { return read_kernel_source(kTemplates / file); }

// The 1-based line of `source` that holds `text` (0 when none): found in the text, not by the code under test.
int line_holding(const std::string& source, const std::string& text) {
  std::istringstream in(source);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  return 0;
}

CompiledModule compile_template(const std::string& file, bool line_info = true) {
  CompileOptions options;
  options.line_info = line_info;
  return compile_with_nvrtc(template_text(file), file, options);
}

const KernelListing& only_kernel(const Listing& l) {
  EXPECT_EQ(l.kernels.size(), 1u);
  return l.kernels.at(0);
}

constexpr const char* kVecaddLine = "if (i < n) out[i] = a[i] + scale * b[i];";

// vecadd's global loads and stores (instructions starting with `load` / `store`) must all be the user's
// `line`: two loads (a[i], b[i]) and one store (out[i]).
void expect_memory_at(const KernelListing& k, const std::string& load, const std::string& store, int line) {
  int loads = 0, stores = 0;
  for (const ListingLine& i : k.lines) {
    const bool is_load = i.text.starts_with(load), is_store = i.text.starts_with(store);
    if (!is_load && !is_store) continue;
    loads += is_load;
    stores += is_store;
    EXPECT_EQ(i.origin, LineOrigin::User) << i.text;
    EXPECT_EQ(i.source_line, line) << i.text;
  }
  EXPECT_EQ(loads, 2) << "a[i] and b[i]";
  EXPECT_EQ(stores, 1) << "out[i]";
}

TEST(UsercodeListing, PtxLoadsAndStoreBelongToTheirLine) {
  KS_REQUIRE_NVRTC();
  const CompiledModule m = compile_template("vecadd.cu");
  ASSERT_TRUE(m.ok) << m.log;
  const int line = line_holding(template_text("vecadd.cu"), kVecaddLine);
  ASSERT_GT(line, 0);
  const Listing l = ptx_listing(m);
  EXPECT_EQ(l.kind, ListingKind::Ptx);
  EXPECT_TRUE(l.note.empty());
  const KernelListing& k = only_kernel(l);
  EXPECT_EQ(k.name, "vecadd");
  EXPECT_EQ(k.mangled_name, m.kernels.at(0).mangled_name);
  expect_memory_at(k, "ld.global", "st.global", line);
  // ret is at the closing brace, the line after.
  ASSERT_FALSE(k.lines.empty());
  EXPECT_EQ(k.lines.back().text, "ret;");
  EXPECT_EQ(k.lines.back().source_line, line + 1);
}

TEST(UsercodeListing, ThePreludesInstructionsBelongToThePrelude) {
  KS_REQUIRE_NVRTC();
  const CompiledModule m = compile_template("vecadd.cu");
  ASSERT_TRUE(m.ok) << m.log;
  // ks::global_index() (the prelude's) reads the block's index: inlined, at the prelude's line, not the user's.
  int found = 0;
  const Listing l = ptx_listing(m);
  for (const ListingLine& i : only_kernel(l).lines) {
    if (i.text.find("%ctaid.x") == std::string::npos) continue;
    ++found;
    EXPECT_EQ(i.origin, LineOrigin::Prelude) << i.text;
    EXPECT_EQ(i.source_line, 0) << i.text;
  }
  EXPECT_EQ(found, 1);
}

// The border remap comes from core/border_remap.hpp, which NVRTC gets with the prelude (usercode/prelude_headers):
// its instructions (floor_mod's remainders among them) are the prelude's, not a toolkit header's.
TEST(UsercodeListing, TheBorderRemapsInstructionsBelongToThePrelude) {
  KS_REQUIRE_NVRTC();
  CompileOptions options;
  options.line_info = true;
  const CompiledModule m = compile_with_nvrtc(test::kBorderRemaps, "remaps.cu", options);
  ASSERT_TRUE(m.ok) << m.log;
  int remainders = 0;
  const Listing l = ptx_listing(m);
  for (const ListingLine& i : only_kernel(l).lines) {
    EXPECT_NE(i.origin, LineOrigin::Header) << i.text;
    if (!i.text.starts_with("rem.s32")) continue;
    ++remainders;
    EXPECT_EQ(i.origin, LineOrigin::Prelude) << i.text;
  }
  EXPECT_GT(remainders, 0);
}

TEST(UsercodeListing, AFileNamedWithItsFolderStillOwnsItsLines) {
  KS_REQUIRE_NVRTC();
  // NVRTC makes a relative name absolute against its working directory: "/cwd/kernels/vecadd.cu".
  const CompiledModule m = compile_with_nvrtc(template_text("vecadd.cu"), "kernels/vecadd.cu", {});
  ASSERT_TRUE(m.ok) << m.log;
  int user_lines = 0;
  const Listing l = ptx_listing(m);
  for (const ListingLine& i : only_kernel(l).lines) user_lines += i.origin == LineOrigin::User;
  EXPECT_GT(user_lines, 5);
}

TEST(UsercodeListing, NamesOfTheUsersFile) {
  EXPECT_TRUE(names_user_file("vecadd.cu", "vecadd.cu"));
  EXPECT_TRUE(names_user_file("/home/me/vecadd.cu", "vecadd.cu"));
  EXPECT_TRUE(names_user_file("/home/me/kernels/vecadd.cu", "kernels/vecadd.cu"));
  EXPECT_FALSE(names_user_file("/home/me/myvecadd.cu", "vecadd.cu"));
  EXPECT_FALSE(names_user_file("/home/me/vecadd.cu.bak", "vecadd.cu"));
  EXPECT_FALSE(names_user_file("/home/me/vecadd.cu", ""));
}

TEST(UsercodeListing, ATwoKernelFileListsBothInItsOrder) {
  KS_REQUIRE_NVRTC();
  const std::string source =
      "__global__ void scale_by(float* x, int n, float s) {\n"  // 1
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"       // 2
      "  if (i < n) x[i] *= s;\n"                                // 3
      "}\n"                                                      // 4
      "__global__ void add_one(int* y, int n) {\n"               // 5
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"       // 6
      "  if (i < n) y[i] += 1;\n"                                // 7
      "}\n";
  const CompiledModule m = compile_with_nvrtc(source, "two.cu", {});
  ASSERT_TRUE(m.ok) << m.log;
  const Listing l = ptx_listing(m);
  ASSERT_EQ(l.kernels.size(), 2u);
  EXPECT_EQ(l.kernels[0].name, "scale_by");
  EXPECT_EQ(l.kernels[1].name, "add_one");
  auto stores_at = [](const KernelListing& k) {
    std::vector<int> lines;
    for (const ListingLine& i : k.lines)
      if (i.text.starts_with("st.global")) lines.push_back(i.source_line);
    return lines;
  };
  EXPECT_EQ(stores_at(l.kernels[0]), std::vector<int>{3});
  EXPECT_EQ(stores_at(l.kernels[1]), std::vector<int>{7});
}

// The PTX less its line information: what -lineinfo must leave as it was.
std::string ptx_without_line_info(const std::string& ptx) {
  std::istringstream in(ptx);
  std::string out, line;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    const std::string_view l = first == std::string::npos ? std::string_view{} : std::string_view(line).substr(first);
    if (l.starts_with(".section") && l.find(".debug") != std::string_view::npos) break;  // the debug sections
    if (l.starts_with(".loc") || l.starts_with(".file") || l.empty()) continue;
    out += line + '\n';
  }
  return out;
}

// The code sections (`.text.NAME`) of a CUBIN, an ELF64 file, by name: the SASS itself, read without nvdisasm.
std::map<std::string, std::string> cubin_code(const std::vector<char>& cubin) {
  std::map<std::string, std::string> code;
  auto read = [&](std::size_t at, auto value) {
    if (at + sizeof(value) > cubin.size()) throw std::runtime_error("the CUBIN ends early");
    std::memcpy(&value, cubin.data() + at, sizeof(value));
    return value;
  };
  if (cubin.size() < 64 || std::memcmp(cubin.data(), "\x7f" "ELF", 4) != 0 || cubin[4] != 2) return code;
  const auto section_table = read(0x28, std::uint64_t{});
  const auto entry_size = read(0x3a, std::uint16_t{}), count = read(0x3c, std::uint16_t{});
  const auto names_index = read(0x3e, std::uint16_t{});
  auto section = [&](std::size_t i) {
    const std::size_t h = section_table + i * entry_size;
    return std::tuple{read(h, std::uint32_t{}), read(h + 0x18, std::uint64_t{}), read(h + 0x20, std::uint64_t{})};
  };
  const auto [unused, names_offset, names_size] = section(names_index);
  for (std::size_t i = 0; i < count; ++i) {
    const auto [name_at, offset, size] = section(i);
    if (name_at >= names_size || offset + size > cubin.size()) continue;
    const std::string name(cubin.data() + names_offset + name_at);
    if (name.starts_with(".text.")) code[name] = std::string(cubin.data() + offset, size);
  }
  return code;
}

TEST(UsercodeListing, LineInfoChangesNoInstruction) {
  KS_REQUIRE_NVRTC();
  for (const char* file : {"vecadd.cu", "reduce_sum.cu", "smooth3x3.cu", "life_step.cu"}) {
    SCOPED_TRACE(file);
    const CompiledModule with = compile_template(file, true), without = compile_template(file, false);
    ASSERT_TRUE(with.ok && without.ok);
    EXPECT_NE(with.ptx.find(".loc"), std::string::npos);
    EXPECT_EQ(without.ptx.find(".loc"), std::string::npos);
    EXPECT_EQ(ptx_without_line_info(with.ptx), ptx_without_line_info(without.ptx));
    // The SASS: the CUBINs' code sections, byte for byte (the line table lives in sections of its own).
    const auto with_code = cubin_code(with.cubin), without_code = cubin_code(without.cubin);
    EXPECT_EQ(with_code.size(), with.kernels.size());
    EXPECT_TRUE(with_code == without_code);
    EXPECT_NE(with.cubin.size(), without.cubin.size()) << "the line table is there";
    ASSERT_EQ(with.kernels.size(), without.kernels.size());
    for (std::size_t i = 0; i < with.kernels.size(); ++i) {
      // NVRTC 13.0.88 (the GPU machine's) sometimes leaves ptxas's report out of its log: figures it did not
      // report are not compared (the code sections above already are).
      if (!with.kernels[i].resources_reported || !without.kernels[i].resources_reported) continue;
      EXPECT_EQ(with.kernels[i].registers, without.kernels[i].registers);
      EXPECT_EQ(with.kernels[i].stack_bytes, without.kernels[i].stack_bytes);
      EXPECT_EQ(with.kernels[i].shared_bytes, without.kernels[i].shared_bytes);
    }
  }
}

// A stand-in for nvdisasm: a shell script in a folder of its own.
struct FakeDisassembler {
  test::TempDir dir;
  std::filesystem::path program() const { return dir / "nvdisasm"; }
  explicit FakeDisassembler(const std::string& body) {
    std::ofstream(program()) << "#!/bin/sh\n" << body;
    ::chmod(program().c_str(), 0755);
  }
  std::string seen(const std::string& name) const {
    std::ifstream in(dir / name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
};

// nvdisasm --print-code --print-line-info's layout (CUDA 12/13), for vecadd: the header, then per function its
// section, labels, `//## File "...", line N` before the instructions of each place, and the instructions.
std::string vecadd_sass_text(const std::string& mangled, int line) {
  const std::string file = "\"/work/somewhere/vecadd.cu\"";
  const std::string prelude = "\"/work/somewhere/ks_prelude.cuh\"";
  return "\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90\"\n"
         "\t.elftype\t@\"ET_EXEC\"\n\n\n"
         "//--------------------- .text." + mangled + " --------------------------\n"
         "\t.section\t.text." + mangled + ",\"ax\",@progbits\n"
         "\t.sectioninfo\t@\"SHI_REGISTERS=12\"\n"
         "\t.align\t128\n"
         "        .global         " + mangled + "\n"
         "        .type           " + mangled + ",@function\n" +
         mangled + ":\n"
         ".text." + mangled + ":\n"
         "\t//## File " + file + ", line " + std::to_string(line - 2) + "\n"
         "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
         "\t//## File " + prelude + ", line 86 inlined at " + file + ", line " + std::to_string(line - 1) + "\n"
         "        /*0010*/                   S2R R0, SR_CTAID.X ;\n"
         "\t//## File " + file + ", line " + std::to_string(line) + "\n"
         "        /*0020*/                   ISETP.GE.AND P0, PT, R0, UR4, PT ;\n"
         "        /*0030*/              @P0 EXIT ;\n"
         "        /*0040*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
         "        /*0050*/                   LDG.E R5, desc[UR4][R4.64] ;\n"
         "        /*0060*/                   FFMA R9, R2, UR6, R5 ;\n"
         "        /*0070*/                   STG.E desc[UR4][R6.64], R9 ;\n"
         "\t//## File " + file + ", line " + std::to_string(line + 1) + "\n"
         "        /*0080*/                   EXIT ;\n"
         ".L_x_0:\n"
         "        /*0090*/                   BRA `(.L_x_0);\n"
         // A data section after the code (printed without --print-code): none of its lines is an instruction.
         "//--------------------- .nv.callgraph             --------------------------\n"
         "\t.section\t.nv.callgraph,\"\",@\"SHT_CUDA_CALLGRAPH\"\n"
         "\t.align\t\t4\n"
         "        /*0000*/ \t.word\t0x00000000\n"
         "\t.align\t\t4\n"
         "        /*0004*/ \t.word\t0xffffffff\n";
}

TEST(UsercodeListing, SassFromADisassemblerProgram) {
  KS_REQUIRE_NVRTC();
  const CompiledModule m = compile_template("vecadd.cu");
  ASSERT_TRUE(m.ok) << m.log;
  const int line = line_holding(template_text("vecadd.cu"), kVecaddLine);
  test::TempDir text_dir;
  std::ofstream(text_dir / "out.txt") << vecadd_sass_text(m.kernels.at(0).mangled_name, line);
  // It records its arguments and whether the CUBIN was there while it ran.
  const FakeDisassembler fake("echo \"$@\" > \"$(dirname \"$0\")/args\"\n"
                              "for last; do :; done\n"
                              "[ -s \"$last\" ] && echo yes > \"$(dirname \"$0\")/cubin_there\"\n"
                              "echo \"$last\" > \"$(dirname \"$0\")/cubin_path\"\n"
                              "cat '" + (text_dir / "out.txt").string() + "'\n");
  const Listing l = compiler_listing(m, ListingKind::Sass, {fake.program(), std::chrono::seconds(10)});
  EXPECT_EQ(l.kind, ListingKind::Sass);
  EXPECT_TRUE(l.note.empty());
  EXPECT_NE(fake.seen("args").find("--print-line-info"), std::string::npos) << fake.seen("args");
  EXPECT_EQ(fake.seen("cubin_there"), "yes\n");
  std::string cubin_path = fake.seen("cubin_path");
  ASSERT_FALSE(cubin_path.empty());
  cubin_path.pop_back();
  EXPECT_FALSE(std::filesystem::exists(cubin_path)) << "the temporary CUBIN is removed: " << cubin_path;
  const KernelListing& k = only_kernel(l);
  EXPECT_EQ(k.name, "vecadd");
  std::vector<std::string> memory;
  for (const ListingLine& i : k.lines) {
    if (i.text.starts_with("LDG") || i.text.starts_with("STG")) {
      memory.push_back(i.text);
      EXPECT_EQ(i.source_line, line) << i.text;
      EXPECT_EQ(i.origin, LineOrigin::User) << i.text;
    }
    if (i.text.starts_with("S2R")) {
      EXPECT_EQ(i.origin, LineOrigin::Prelude) << "the place, not where it was inlined";
    }
  }
  EXPECT_EQ(memory, (std::vector<std::string>{"LDG.E R2, desc[UR4][R2.64] ;", "LDG.E R5, desc[UR4][R4.64] ;",
                                              "STG.E desc[UR4][R6.64], R9 ;"}));
  ASSERT_EQ(k.lines.size(), 11u);  // 10 instructions and the label
  EXPECT_EQ(k.lines[0].source_line, line - 2);
  EXPECT_EQ(k.lines[8].text, "EXIT ;");
  EXPECT_EQ(k.lines[8].source_line, line + 1);
  EXPECT_EQ(k.lines[9].text, ".L_x_0:");
  EXPECT_EQ(k.lines[9].origin, LineOrigin::None);
  EXPECT_EQ(k.lines[10].text, "BRA `(.L_x_0);");
}

TEST(UsercodeListing, WithoutADisassemblerThePtxAndWhy) {
  KS_REQUIRE_NVRTC();
  const CompiledModule m = compile_template("vecadd.cu");
  ASSERT_TRUE(m.ok) << m.log;
  test::TempDir dir;
  for (const std::filesystem::path& missing : {std::filesystem::path(), dir / "no-such-nvdisasm"}) {
    const Listing l = compiler_listing(m, ListingKind::Sass, {missing, std::chrono::seconds(10)});
    EXPECT_EQ(l.kind, ListingKind::Ptx);
    EXPECT_NE(l.note.find("SASS needs the CUDA toolkit's disassembler"), std::string::npos) << l.note;
    if (!missing.empty()) {
      EXPECT_NE(l.note.find(missing.string()), std::string::npos) << l.note;
    }
    EXPECT_EQ(only_kernel(l).name, "vecadd");
  }
}

std::string sass_error(const CompiledModule& m, const FakeDisassembler& fake, std::chrono::milliseconds limit) {
  try {
    compiler_listing(m, ListingKind::Sass, {fake.program(), limit});
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    return e.full_message();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(UsercodeListing, ADisassemblerThatFailsSaysWhat) {
  KS_REQUIRE_NVRTC();
  const CompiledModule m = compile_template("vecadd.cu");
  ASSERT_TRUE(m.ok) << m.log;
  const FakeDisassembler fails("for last; do :; done\necho \"$last\" > \"$(dirname \"$0\")/cubin_path\"\n"
                               "echo 'nvdisasm fatal   : Unsupported architecture' >&2\nexit 1\n");
  const std::string message = sass_error(m, fails, std::chrono::seconds(10));
  EXPECT_NE(message.find("failed (exit status 1): nvdisasm fatal   : Unsupported architecture"), std::string::npos)
      << message;
  EXPECT_NE(message.find("(the CUBIN is for sm_90), or look at the PTX instead"), std::string::npos) << message;
  std::string cubin_path = fails.seen("cubin_path");
  ASSERT_FALSE(cubin_path.empty());
  cubin_path.pop_back();
  EXPECT_FALSE(std::filesystem::exists(cubin_path)) << "removed after a failure too: " << cubin_path;

  const FakeDisassembler hangs("exec sleep 20\n");
  const auto start = std::chrono::steady_clock::now();
  const std::string late = sass_error(m, hangs, std::chrono::milliseconds(300));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_NE(late.find("did not finish within 0.3 s and was stopped"), std::string::npos) << late;

  const FakeDisassembler silent("exit 0\n");
  EXPECT_NE(sass_error(m, silent, std::chrono::seconds(10)).find("wrote no kernel code"), std::string::npos);

  test::TempDir dir;
  std::ofstream(dir / "not-a-program") << "just text";  // there, but not executable
  const Disassembler unstartable{dir / "not-a-program", std::chrono::seconds(10)};
  try {
    compiler_listing(m, ListingKind::Sass, unstartable);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.full_message().find("could not start the disassembler"), std::string::npos) << e.full_message();
  }
}

// With the toolkit's own nvdisasm (CI's toolkit has it only if its package is installed): the real SASS.
TEST(UsercodeListing, RealSassPutsTheLoadsAndTheStoreAtTheirLine) {
  KS_REQUIRE_NVRTC();
  const std::filesystem::path nvdisasm = find_nvdisasm();
  if (nvdisasm.empty()) GTEST_SKIP() << "no nvdisasm in /usr/local/cuda/bin or on PATH";
  const CompiledModule m = compile_template("vecadd.cu");
  ASSERT_TRUE(m.ok) << m.log;
  const int line = line_holding(template_text("vecadd.cu"), kVecaddLine);
  const Listing l = sass_listing(m, {nvdisasm, std::chrono::seconds(30)});
  const KernelListing& k = only_kernel(l);
  EXPECT_EQ(k.name, "vecadd");
  expect_memory_at(k, "LDG", "STG", line);
}

}  // namespace
}  // namespace ks::usercode
