// The Source panel's files: what the binary embeds is byte for byte the file in the source tree (so it is the
// code that was compiled, not a copy), and every registry kernel x variant maps to embedded files holding its
// anchor.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "registry/registry.hpp"
#include "source/embedded_sources.hpp"
#include "source/kernel_source_map.hpp"

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
      const std::vector<SourceRef> refs = sources_of(k.id, v.name);
      ASSERT_FALSE(refs.empty()) << k.id << " " << v.name << " has no source in kernel_source_map.cpp";
      for (const SourceRef& r : refs) {
        const embedded::EmbeddedFile* f = find_embedded(r.file);
        ASSERT_NE(f, nullptr) << k.id << " " << v.name << ": " << r.file << " is not embedded";
        EXPECT_NE(text_of(*f).find(r.anchor), std::string_view::npos)
            << k.id << " " << v.name << ": '" << r.anchor << "' is not in " << r.file;
      }
    }
  }
}

TEST(SourceMap, AKernelsOwnRowComesBeforeItsFamilysAndTheUnknownHaveNone) {
  const std::vector<SourceRef> sobel = sources_of("sobel", "cpu");
  ASSERT_EQ(sobel.size(), 2u);  // the driver, then the SIMD loop it calls
  EXPECT_EQ(sobel[0].anchor, "void gradient_magnitude(");
  EXPECT_EQ(sobel[1].file, "gpu/stencil/cpu/simd/weighted_rows.cpp");
  EXPECT_EQ(sources_of("box", "tiled").at(0).file, "gpu/stencil/cuda/tiled_window.cu");
  EXPECT_EQ(sources_of("box", "separable").size(), 2u);
  EXPECT_TRUE(sources_of("box", "no_such_variant").empty());
  EXPECT_TRUE(sources_of("no_such_kernel", "cpu").empty());
}

}  // namespace
}  // namespace ks::source
