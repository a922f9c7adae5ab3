// `compile FILE.cu`: a user's kernel compiled without a GPU; its errors at the file's lines with exit 2, the facts
// as text or JSON, the PTX / SASS listing with the source interleaved, and bad input refused with exit 2 and
// nothing written.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

namespace ks::test {
namespace {

const std::filesystem::path kTemplates = std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels";

TEST(CliCompile, TemplateFactsAsTextAndJson) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  std::filesystem::copy_file(kTemplates / "reduce_sum.cu", dir / "reduce_sum.cu");
  CliResult r = run_cli({"compile", "reduce_sum.cu", "--json", "facts.json"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("reduce_sum.cu: compiled for sm_90 in "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("array family"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reduce_sum(float const*, float*, int)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4096"), std::string::npos) << "1024 floats of shared memory: " << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "facts.json"));
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"compile_ms", "kernels", "log"}));
  ASSERT_EQ(j["kernels"].size(), 1u);
  const auto& k = j["kernels"][0];
  std::vector<std::string> kernel_keys;
  for (const auto& [key, value] : k.items()) kernel_keys.push_back(key);
  std::sort(kernel_keys.begin(), kernel_keys.end());
  EXPECT_EQ(kernel_keys, (std::vector<std::string>{"max_threads_per_block", "name", "registers", "shared_bytes",
                                                   "spill_loads", "spill_stores", "stack_bytes"}));
  EXPECT_EQ(k["name"], "reduce_sum");
  EXPECT_EQ(k["shared_bytes"], 4096);
  EXPECT_EQ(k["stack_bytes"], 0);
  EXPECT_GT(k["registers"].get<int>(), 0);
  EXPECT_GT(j["compile_ms"].get<double>(), 0);
  EXPECT_NE(j["log"].get<std::string>().find("ptxas info"), std::string::npos);
}

TEST(CliCompile, ErrorsAtTheFilesLinesExitTwoAndWriteNothing) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  write_file(dir / "broken.cu",
             "__global__ void k(float* out, int n) {\n"
             "  int i = threadIdx.x;\n"
             "  if (i < n) out[i] = scale * 2.f;\n"
             "}\n");
  CliResult r = run_cli({"compile", "broken.cu", "--json", "facts.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("broken.cu:3: error: identifier \"scale\" is undefined\n"
                       "    if (i < n) out[i] = scale * 2.f;\n"
                       "                        ^\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("error: broken.cu does not compile (1 error)"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "facts.json"));
}

TEST(CliCompile, SeveralKernelsNeedAnEntryAndTheFamilysContract) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  write_file(dir / "two.cu",
             "__global__ void scale(const float* in, float* out, int n, float f) { out[0] = in[0] * f + n; }\n"
             "__global__ void fill(float* out) { out[0] = 0.f; }\n");
  expect_refused({"compile", "two.cu", "--json", "f.json"}, 2,
                 "two.cu has 2 __global__ functions: scale, fill. say which one is the kernel with --entry NAME",
                 dir.path());
  expect_refused({"compile", "two.cu", "--entry", "scale", "--family", "array", "--json", "f.json"}, 2,
                 "parameter 4 (`float`) is one more than the array contract has", dir.path());
  EXPECT_FALSE(std::filesystem::exists(dir / "f.json"));
  CliResult r = run_cli({"compile", "two.cu", "--entry", "fill"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("fill(float*)  (entry)"), std::string::npos) << r.out;
}

TEST(CliCompile, BadInputIsRefusedBeforeCompiling) {
  TempDir dir;
  write_file(dir / "empty.cu", "");
  write_file(dir / "binary.cu", std::string("\x7f" "ELF\0\0\0", 7));
  write_file(dir / "huge.cu", std::string(10 * 1000 * 1000, '/'));
  write_file(dir / "range.cu", "// @param radius int [8, 1] = 2\n__global__ void k(float* o) {}\n");
  write_file(dir / "family.cu", "__global__ void k(float* o) {}\n");
  expect_refused({"compile", "empty.cu", "--json", "f.json"}, 2, "empty.cu is empty", dir.path());
  expect_refused({"compile", "binary.cu", "--json", "f.json"}, 2, "binary.cu is not text: byte 4 is NUL", dir.path());
  expect_refused({"compile", "huge.cu", "--json", "f.json"}, 2,
                 "huge.cu has 10000000 bytes; kernel sources of more than 1048576 bytes (1 MiB) are refused",
                 dir.path());
  expect_refused({"compile", "range.cu", "--json", "f.json"}, 2,
                 "range.cu:1: the parameter `radius` has the impossible range [8, 1]", dir.path());
  expect_refused({"compile", "family.cu", "--family", "image"}, 2, "unknown kernel family `image`", dir.path());
  expect_refused({"compile", "missing.cu"}, 1, "cannot read missing.cu", dir.path());
  EXPECT_FALSE(std::filesystem::exists(dir / "f.json"));
}

// For each instruction line of a --ptx / --sass listing, the number of the source line above it ("   10 | ...");
// -1 under "(prelude...)" and the other places without a user's line.
std::vector<std::pair<std::string, int>> instructions_under_lines(const std::string& out) {
  static const std::regex place(R"(^ *(\d*) \| )");
  std::vector<std::pair<std::string, int>> found;
  std::istringstream in(out);
  std::string line;
  int current = -1;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, place))
      current = m[1].length() ? std::stoi(m[1]) : -1;
    else if (line.starts_with("          "))
      found.push_back({line.substr(10), current});
  }
  return found;
}

TEST(CliCompile, PtxListingPutsEachInstructionUnderItsSourceLine) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  std::filesystem::copy_file(kTemplates / "vecadd.cu", dir / "vecadd.cu");
  CliResult r = run_cli({"compile", "vecadd.cu", "--ptx"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("PTX of vecadd:\n"), std::string::npos) << r.out;
  // The user's line, with its text, once; the prelude's global_index apart.
  EXPECT_NE(r.out.find("   10 | if (i < n) out[i] = a[i] + scale * b[i];\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("      | (prelude: ks_prelude.cuh)\n          mov.u32 %r3, %ctaid.x;"), std::string::npos)
      << r.out;
  int memory = 0;
  for (const auto& [instruction, line] : instructions_under_lines(r.out))
    if (instruction.starts_with("ld.global") || instruction.starts_with("st.global")) {
      ++memory;
      EXPECT_EQ(line, 10) << instruction << "\n" << r.out;
    }
  EXPECT_EQ(memory, 3) << r.out;
}

TEST(CliCompile, SassWithoutADisassemblerIsThePtxAndSaysSo) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  std::filesystem::copy_file(kTemplates / "vecadd.cu", dir / "vecadd.cu");
  CliResult r = run_cli({"compile", "vecadd.cu", "--sass", "--nvdisasm", (dir / "no-nvdisasm").string(),
                         "--listing-json", "listing.json"},
                        dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: SASS needs the CUDA toolkit's disassembler, and there is none at "), std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("PTX of vecadd:\n"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "listing.json"));
  EXPECT_EQ(j["kind"], "PTX");
  EXPECT_NE(j["note"].get<std::string>().find("this is the PTX"), std::string::npos);
}

TEST(CliCompile, ADisassemblerThatFailsSaysSoAndWritesNothing) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  std::filesystem::copy_file(kTemplates / "vecadd.cu", dir / "vecadd.cu");
  write_file(dir / "nvdisasm", "#!/bin/sh\necho 'nvdisasm fatal   : Input file is not a CUBIN' >&2\nexit 3\n");
  ::chmod((dir / "nvdisasm").c_str(), 0755);
  CliResult r = run_cli({"compile", "vecadd.cu", "--sass", "--nvdisasm", (dir / "nvdisasm").string(), "--json",
                         "facts.json", "--listing-json", "listing.json"},
                        dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("failed (exit status 3): nvdisasm fatal   : Input file is not a CUBIN"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "facts.json"));
  EXPECT_FALSE(std::filesystem::exists(dir / "listing.json"));
}

TEST(CliCompile, ListingJsonOfATwoKernelFile) {
  KS_REQUIRE_CLI_NVRTC();
  TempDir dir;
  write_file(dir / "two.cu",
             "__global__ void scale(float* x, int n, float f) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (i < n) x[i] *= f;\n"
             "}\n"
             "__global__ void fill(float* out) { out[threadIdx.x] = 0.f; }\n");
  expect_refused({"compile", "two.cu", "--entry", "fill", "--listing-json", "l.json"}, 2,
                 "--listing-json writes the listing --ptx or --sass asks for", dir.path());
  expect_refused({"compile", "two.cu", "--entry", "fill", "--ptx", "--nvdisasm", "nvdisasm"}, 2,
                 "--nvdisasm names the disassembler of --sass", dir.path());
  EXPECT_FALSE(std::filesystem::exists(dir / "l.json"));
  CliResult r = run_cli({"compile", "two.cu", "--entry", "fill", "--ptx", "--listing-json", "l.json"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("PTX of scale:\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PTX of fill:\n"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(dir / "l.json"));
  EXPECT_EQ(j["schema"], "kernelscope.listing/1");
  EXPECT_EQ(j["file"], "two.cu");
  EXPECT_EQ(j["kind"], "PTX");
  EXPECT_EQ(j["arch"], "sm_90");
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][0]["name"], "scale");
  EXPECT_EQ(j["kernels"][1]["name"], "fill");
  int stores_at_5 = 0;
  for (const auto& line : j["kernels"][1]["lines"]) {
    EXPECT_TRUE(line.contains("source_line") && line.contains("origin") && line.contains("text")) << line;
    if (line["text"].get<std::string>().starts_with("st.global")) {
      EXPECT_EQ(line["source_line"], 5);
      EXPECT_EQ(line["origin"], "user");
      ++stores_at_5;
    }
  }
  EXPECT_EQ(stores_at_5, 1);
}

}  // namespace
}  // namespace ks::test
