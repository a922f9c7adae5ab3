// The Source panel's files: what the binary embeds is byte for byte the file in the source tree (so it is the
// code that was compiled, not a copy), and every registry kernel x variant lists embedded files holding its
// entry (VariantSpec::sources), among them the file of whichever tiled kernel serves a stencil's run.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "registry/registry.hpp"
#include "source/embedded_sources.hpp"
#include "stencil/stencil_plan.hpp"
#include "stencil/tiled_design.hpp"

namespace ks::source {
namespace {

std::string read_from_tree(const std::string& relative) {
  std::ifstream in(std::string(KS_SOURCE_DIR) + "/" + relative, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(SourceEmbedded, EveryFileEqualsTheFileInTheSourceTree) {
  const auto files = embedded::kernel_source_files();
  ASSERT_GT(files.size(), 20u);
  for (const embedded::EmbeddedFile& f : files) {
    const std::string on_disk = read_from_tree(f.path);
    ASSERT_FALSE(on_disk.empty()) << f.path << " is not in " << KS_SOURCE_DIR;
    EXPECT_EQ(text_of(f), on_disk) << f.path << " differs from the embedded copy: rebuild";
  }
}

TEST(SourceEmbedded, HoldsTheCompiledKernelFamiliesAndNothingElse) {
  std::set<std::string> paths;
  for (const embedded::EmbeddedFile& f : embedded::kernel_source_files()) paths.insert(f.path);
  for (const char* expected : {"gpu/stencil/cuda/naive_window.cu", "gpu/stencil/cuda/tiled_window.cu",
                               "gpu/stencil/cpu/linear_cpu.cpp", "gpu/sim/cuda/life_naive.cu",
                               "gpu/lab/matmul/cuda/matmul_simple.cuh"})
    EXPECT_TRUE(paths.count(expected)) << expected;
  for (const std::string& p : paths) {
    EXPECT_TRUE(p.starts_with("gpu/")) << p;
    EXPECT_FALSE(p.ends_with("_nocuda.cpp")) << p << ": a stub, not a kernel";
  }
  EXPECT_EQ(find_embedded("gpu/core/no_such_file.cu"), nullptr);
}

TEST(SourceMap, EveryKernelVariantShowsAnEmbeddedFileWithItsAnchor) {
  for (const KernelSpec& k : KernelRegistry::builtin().kernels()) {
    for (const VariantSpec& v : k.variants) {
      ASSERT_FALSE(v.sources.empty()) << k.id << " " << v.name << " lists no source file (VariantSpec::sources)";
      for (const SourceFile& f : v.sources) {
        const embedded::EmbeddedFile* e = find_embedded(f.path);
        ASSERT_NE(e, nullptr) << k.id << " " << v.name << ": " << f.path << " is not embedded";
        ASSERT_FALSE(f.entry.empty()) << k.id << " " << v.name << ": " << f.path << " has no entry";
        EXPECT_NE(text_of(*e).find(f.entry), std::string_view::npos)
            << k.id << " " << v.name << ": '" << f.entry << "' is not in " << f.path;
      }
    }
  }
}

std::vector<std::string> paths_of(const std::string& kernel, const std::string& variant) {
  std::vector<std::string> paths;
  for (const SourceFile& f : KernelRegistry::builtin().get(kernel).sources_of(variant)) paths.push_back(f.path);
  return paths;
}

TEST(SourceMap, AKernelsOwnRowComesBeforeItsFamilysAndTheUnknownHaveNone) {
  const std::span<const SourceFile> sobel = KernelRegistry::builtin().get("sobel").sources_of("cpu");
  ASSERT_EQ(sobel.size(), 2u);  // the driver, then the SIMD loop it calls
  EXPECT_EQ(sobel[0].path, "gpu/stencil/cpu/linear_cpu.cpp");
  EXPECT_EQ(sobel[0].entry, "void gradient_magnitude(");
  EXPECT_EQ(sobel[1].path, "gpu/stencil/cpu/simd/weighted_rows.cpp");
  EXPECT_EQ(paths_of("box", "tiled").at(0), "gpu/stencil/cuda/tiled_window.cu");
  // The box's separable variant: the strip kernel, the 3x3 one, and the packed 3x3 one that runs its u8 3x3
  // window; sobel's derivatives have negative weights, which the packed kernel does not take.
  EXPECT_EQ(paths_of("box", "separable"),
            (std::vector<std::string>{"gpu/stencil/cuda/separable_strip.cu", "gpu/stencil/cuda/separable_3x3.cu",
                                      "gpu/stencil/cuda/separable_3x3_packed.cu"}));
  EXPECT_EQ(paths_of("sobel", "separable"), (std::vector<std::string>{"gpu/stencil/cuda/separable_strip.cu",
                                                                      "gpu/stencil/cuda/separable_3x3.cu"}));
  EXPECT_TRUE(KernelRegistry::builtin().get("box").sources_of("no_such_variant").empty());
  EXPECT_EQ(KernelRegistry::builtin().find("no_such_kernel"), nullptr);
}

// The file of each kernel tiled_design may choose, as the CUDA sources define them.
std::string file_of(TiledKernel k) {
  switch (k) {
    case TiledKernel::Window: return "gpu/stencil/cuda/tiled_window.cu";
    case TiledKernel::Median: return "gpu/stencil/cuda/median_network.cu";
    case TiledKernel::WindowMulti: return "gpu/stencil/cuda/window_multi.cu";
    case TiledKernel::Laplacian3x3: return "gpu/stencil/cuda/separable_3x3_packed.cu";
  }
  return "";
}

TEST(SourceMap, TheTiledVariantListsTheFileOfEveryKernelThatServesIt) {
  // Parameters that reach each of tiled_design's kernels: odd windows, separable and not, both laplacians.
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"box", {}},
      {"box", {"radius=3"}},
      {"gaussian", {"sigma=0.3"}},
      {"gaussian", {"sigma=5"}},
      {"sobel", {}},
      {"sobel", {"output=dx"}},
      {"laplacian", {}},
      {"laplacian", {"neighbours=8"}},
      {"sharpen", {"sigma=0.3"}},
      {"median", {}},
      {"median", {"radius=3"}},
      {"convolve", {}},
      {"convolve", {"matrix=1,2,1;2,4,2;1,2,1"}},
      {"convolve", {"matrix=1,2,3,4,5;0,1,0,1,0;5,4,3,2,1"}},
      {"convolve",  // 3x15, rank 2
       {"matrix=1,0,0,0,0,0,0,0,0,0,0,0,0,0,0;"
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0;"
        "0,0,0,0,0,0,0,0,0,0,0,0,0,0,1"}},
  };
  std::set<TiledKernel> served;
  for (const auto& [id, assignments] : runs) {
    const KernelSpec& k = KernelRegistry::builtin().get(id);
    ParamSet params = k.default_params();
    for (const std::string& a : assignments) params.set_assignment(a);
    const std::vector<std::string> listed = paths_of(id, "tiled");
    for (const ElemType type : {ElemType::U8, ElemType::F32})
      for (const int channels : {1, 4})
        for (const BlockShape block : {BlockShape{32, 8}, BlockShape{16, 16}, BlockShape{12, 8}}) {
          const TiledKernel chosen = tiled_design(make_stencil_plan(id, params), type, channels, block).kernel;
          served.insert(chosen);
          EXPECT_NE(std::find(listed.begin(), listed.end(), file_of(chosen)), listed.end())
              << id << " " << (assignments.empty() ? "(defaults)" : assignments.front()) << ", "
              << to_string(type) << " x" << channels
              << ", block " << block.x << "x" << block.y << ": tiled runs " << file_of(chosen)
              << ", which its variant does not list";
        }
  }
  EXPECT_EQ(served.size(), 4u) << "the runs above no longer reach every tiled kernel";
}

}  // namespace
}  // namespace ks::source
