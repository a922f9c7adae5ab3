// Edit a copy (app/copies): which built-in variants have a copy and which say why not, so that a new variant
// cannot silently lack one; the copies' text (the parameters filled in as the built-in computes them, worked out
// here from their definitions); and the template language they are written in.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>

#include "assets.hpp"
#include "copies/copy_template.hpp"
#include "copies/kernel_copy.hpp"
#include "core/error.hpp"
#include "registry/registry.hpp"

namespace ks::copies {
namespace {

const KernelSpec& kernel(const std::string& id) { return KernelRegistry::builtin().get(id); }

EditCopy copy_of(const std::string& id, const std::string& variant, std::vector<std::string> params, ElemType type) {
  ParamSet set = kernel(id).default_params();
  for (const std::string& p : params) set.set_assignment(p);
  return edit_copy(kernel(id), variant, set, type);
}

// Every line of a copy fits the editor and the Source window's 110 columns.
void expect_short_lines(const std::string& text) {
  std::size_t start = 0, number = 1;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    EXPECT_LE(end - start, 110u) << "line " << number << ": " << text.substr(start, end - start);
    start = end + 1;
    ++number;
  }
}

// The stencil variants that have no copy, with a word their reason must hold. Every other variant of every
// stencil kernel must have one: a new variant fails here until it gets a copy or a reason listed here.
const std::map<std::string, std::string> kStencilWithoutCopy = {
    {"*/cpu", "CPU"}, {"gaussian/cpu_recursive", "CPU"}, {"gaussian/recursive", "two launches"}};

TEST(KernelCopies, EveryStencilVariantHasACopyOrAStatedReason) {
  for (const KernelSpec& k : KernelRegistry::builtin().kernels()) {
    if (k.category != "stencil") continue;
    for (const VariantSpec& v : k.variants) {
      for (const ElemType type : k.types) {
        SCOPED_TRACE(k.id + " " + v.name + " " + to_string(type));
        const EditCopy edit = edit_copy(k, v.name, k.default_params(), type);
        auto listed = kStencilWithoutCopy.find(k.id + "/" + v.name);
        if (listed == kStencilWithoutCopy.end()) listed = kStencilWithoutCopy.find("*/" + v.name);
        if (k.unavailable_reason && k.unavailable_reason(v.name, k.default_params())) {
          // Unavailable at these parameters (convolve's default matrix does not separate): says what to take.
          EXPECT_FALSE(edit.copy);
          EXPECT_NE(edit.reason.find("Edit a copy of the tiled variant"), std::string::npos) << edit.reason;
          EXPECT_TRUE(copy_of(k.id, v.name, {"matrix=1,2,1;2,4,2;1,2,1"}, type).copy);  // a rank-1 matrix
        } else if (listed == kStencilWithoutCopy.end()) {
          ASSERT_TRUE(edit.copy) << edit.reason;
          EXPECT_TRUE(edit.reason.empty());
          EXPECT_EQ(edit.copy->family, "stencil");
          EXPECT_EQ(edit.copy->file_name, k.id + "_" + v.name + ".cu");
          EXPECT_NE(edit.copy->text.find("// @family stencil\n"), std::string::npos);
          EXPECT_NE(edit.copy->text.find("__global__ void " + k.id + "_" + v.name + "("), std::string::npos);
          // It says which built-in it copies and that it is the user's.
          EXPECT_NE(edit.copy->text.find("`" + k.id + "`, variant `" + v.name + "`"), std::string::npos);
          EXPECT_NE(edit.copy->text.find("This file is yours"), std::string::npos);
          EXPECT_EQ(edit.copy->text.find("{{"), std::string::npos);
          expect_short_lines(edit.copy->text);
        } else {
          EXPECT_FALSE(edit.copy);
          EXPECT_NE(edit.reason.find(listed->second), std::string::npos) << edit.reason;
        }
      }
    }
  }
}

// The variants outside the stencils that have a copy; every other one must say why it has none.
const std::set<std::string> kOtherWithCopy = {"life/naive",         "heat/naive",       "vecadd/naive",
                                              "vecadd/gridstride",  "vecadd/vector4",   "saxpy/naive",
                                              "saxpy/gridstride",   "saxpy/vector4"};

TEST(KernelCopies, EveryOtherVariantHasACopyOrSaysWhyAndLibraryCallsSayWhichLibrary) {
  for (const KernelSpec& k : KernelRegistry::builtin().kernels()) {
    if (k.category == "stencil") continue;
    for (const VariantSpec& v : k.variants) {
      SCOPED_TRACE(k.id + " " + v.name);
      const EditCopy edit = edit_copy(k, v.name, k.default_params(), ElemType::F32);
      if (kOtherWithCopy.count(k.id + "/" + v.name)) {
        ASSERT_TRUE(edit.copy) << edit.reason;
        EXPECT_TRUE(edit.reason.empty());
        EXPECT_EQ(edit.copy->text.find("{{"), std::string::npos);
        EXPECT_NE(edit.copy->text.find("This file is yours"), std::string::npos);
        expect_short_lines(edit.copy->text);
        continue;
      }
      EXPECT_FALSE(edit.copy);
      EXPECT_GT(edit.reason.size(), 40u) << edit.reason;
    }
  }
  EXPECT_NE(copy_of("matmul", "cublas", {}, ElemType::F32).reason.find("cuBLAS"), std::string::npos);
  EXPECT_NE(copy_of("reduce", "cub", {}, ElemType::F32).reason.find("reduce_sum.cu"), std::string::npos);
  EXPECT_NE(copy_of("sort", "radix", {}, ElemType::F32).reason.find("CUB"), std::string::npos);
  EXPECT_NE(copy_of("life", "tiled", {}, ElemType::U8).reason.find("naive"), std::string::npos);
  EXPECT_NE(copy_of("heat", "strip", {}, ElemType::F32).reason.find("naive"), std::string::npos);
  EXPECT_NE(copy_of("grayscott", "naive", {}, ElemType::F32).reason.find("life_step.cu"), std::string::npos);
  // A variant the kernel does not have is said, not a crash.
  EXPECT_NE(copy_of("box", "nonesuch", {}, ElemType::U8).reason.find("nonesuch"), std::string::npos);
}

// The numbers between the braces of `name`'s initialiser in `text`.
std::vector<double> array_values(const std::string& text, const std::string& name) {
  const std::size_t at = text.find(name + "[");
  EXPECT_NE(at, std::string::npos) << name;
  if (at == std::string::npos) return {};
  const std::size_t open = text.find('{', at), close = text.find("};", at);
  std::string body = text.substr(open, close - open);
  std::vector<double> values;
  const std::regex number(R"([-+]?[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?)");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), number); it != std::sregex_iterator(); ++it)
    values.push_back(std::stod(it->str()));
  return values;
}

TEST(KernelCopies, TheTapsAreTheFilterOfTheChosenParameters) {
  // Gaussian sigma 2 on f32: radius ceil(3 sigma) = 6, taps exp(-i^2 / 8) normalised to sum 1, in both factors.
  const EditCopy g = copy_of("gaussian", "naive", {"sigma=2"}, ElemType::F32);
  ASSERT_TRUE(g.copy);
  EXPECT_NE(g.copy->text.find("constexpr int kRadiusX = 6, kRadiusY = 6;"), std::string::npos);
  EXPECT_NE(g.copy->text.find("sigma=2, radius=0"), std::string::npos);  // the parameters it was made at
  const std::vector<double> row = array_values(g.copy->text, "kRowWeights");
  ASSERT_EQ(row.size(), 13u);
  double total = 0;
  for (int i = -6; i <= 6; ++i) total += std::exp(-i * i / 8.0);
  for (int i = -6; i <= 6; ++i) EXPECT_NEAR(row[std::size_t(i + 6)], std::exp(-i * i / 8.0) / total, 1e-8) << i;
  EXPECT_EQ(array_values(g.copy->text, "kColumnWeights"), row);

  // The same on u8: 11-bit fixed point per axis summing to 2048, divided by 2^22 at the end.
  const EditCopy g8 = copy_of("gaussian", "tiled", {"sigma=2"}, ElemType::U8);
  ASSERT_TRUE(g8.copy);
  const std::vector<double> irow = array_values(g8.copy->text, "kRowWeights");
  ASSERT_EQ(irow.size(), 13u);
  double isum = 0;
  for (std::size_t i = 0; i < irow.size(); ++i) {
    isum += irow[i];
    if (i == 6) continue;  // the centre tap takes the rounding residue
    EXPECT_EQ(irow[i], std::round(2048 * std::exp(-(double(i) - 6) * (double(i) - 6) / 8.0) / total));
  }
  EXPECT_EQ(isum, 2048);
  EXPECT_NE(g8.copy->text.find("constexpr int kDivisor = 4194304;"), std::string::npos);

  // A matrix that does not separate is written as its window, row by row, with its odd radii (5 wide, 3 high).
  const EditCopy m = copy_of("convolve", "naive", {"matrix=0.5,0,-0.25,0,1;0,1,0,0,0;2,0,0,0,1.5"}, ElemType::F32);
  ASSERT_TRUE(m.copy);
  EXPECT_NE(m.copy->text.find("constexpr int kRadiusX = 2, kRadiusY = 1;"), std::string::npos);
  EXPECT_NE(m.copy->text.find("__constant__ float kWeights[3][5] = {\n    {0.5f, 0.0f, -0.25f, 0.0f, 1.0f},\n"
                              "    {0.0f, 1.0f, 0.0f, 0.0f, 0.0f},\n    {2.0f, 0.0f, 0.0f, 0.0f, 1.5f}};"),
            std::string::npos)
      << m.copy->text;

  // The sharpen's amount is a declared parameter at the sidebar's value; the median's radius a constant.
  const EditCopy s = copy_of("sharpen", "separable", {"amount=2.5"}, ElemType::U8);
  ASSERT_TRUE(s.copy);
  EXPECT_NE(s.copy->text.find("// @param amount float [0, 10] = 2.5 "), std::string::npos);
  EXPECT_NE(s.copy->text.find(", float amount)"), std::string::npos);
  const EditCopy med = copy_of("median", "naive", {"radius=3"}, ElemType::U8);
  ASSERT_TRUE(med.copy);
  EXPECT_NE(med.copy->text.find("constexpr int kRadius = 3;"), std::string::npos);
  EXPECT_NE(med.copy->text.find("ks::InImage<unsigned char> in"), std::string::npos);
}

TEST(KernelCopies, LifesCopyHasTheRuleAndTheBorderChosen) {
  // HighLife (B36/S23) on dead borders: born with 3 or 6, survives with 2 or 3.
  const EditCopy life = copy_of("life", "naive", {"rule=highlife", "border=dead"}, ElemType::U8);
  ASSERT_TRUE(life.copy);
  EXPECT_EQ(life.copy->family, "step");
  EXPECT_EQ(life.copy->entry, "life_naive");
  EXPECT_NE(life.copy->text.find("// @family step\n"), std::string::npos);
  EXPECT_NE(life.copy->text.find("constexpr unsigned kBornWith = 0b001001000;"), std::string::npos) << life.copy->text;
  EXPECT_NE(life.copy->text.find("constexpr unsigned kSurvivesWith = 0b000001100;"), std::string::npos);
  EXPECT_NE(life.copy->text.find("born with 3, 6 live neighbours"), std::string::npos);
  EXPECT_NE(life.copy->text.find("constexpr bool kTorus = false;"), std::string::npos);
  EXPECT_NE(life.copy->text.find("rule (B36/S23)"), std::string::npos);
  const EditCopy seeds = copy_of("life", "naive", {"rule=B2/S"}, ElemType::U8);
  ASSERT_TRUE(seeds.copy);
  EXPECT_NE(seeds.copy->text.find("kSurvivesWith = 0b000000000;  // survives with no count"), std::string::npos);
  EXPECT_NE(seeds.copy->text.find("constexpr bool kTorus = true;"), std::string::npos);
}

TEST(KernelCopies, HeatsCopyHasRAsADeclaredParameterAndTheBoundaryChosen) {
  // r = diffusivity * dt = 0.5 * 0.3 = 0.15, as a float: the declared default reads back as it.
  const EditCopy fixed = copy_of("heat", "naive", {"diffusivity=0.5", "dt=0.3", "boundary=fixed",
                                                   "boundary_value=2.5"}, ElemType::F32);
  ASSERT_TRUE(fixed.copy);
  EXPECT_EQ(fixed.copy->family, "step");
  const std::size_t at = fixed.copy->text.find("// @param r float [0, 0.25] = ");
  ASSERT_NE(at, std::string::npos) << fixed.copy->text;
  EXPECT_EQ(std::strtof(fixed.copy->text.c_str() + at + 31, nullptr), float(0.5 * 0.3));
  EXPECT_NE(fixed.copy->text.find("constexpr float kOutside = 2.5f;"), std::string::npos);
  EXPECT_NE(fixed.copy->text.find("return -1;  // fixed"), std::string::npos);
  EXPECT_EQ(fixed.copy->text.find("floor_mod"), std::string::npos);  // only the chosen boundary is written
  const EditCopy periodic = copy_of("heat", "naive", {"boundary=periodic"}, ElemType::F32);
  ASSERT_TRUE(periodic.copy);
  EXPECT_NE(periodic.copy->text.find("return ks::floor_mod(p, n);  // periodic"), std::string::npos);
  EXPECT_EQ(periodic.copy->text.find("return -1;"), std::string::npos);
  // An unstable dt is refused as the built-in refuses it.
  EXPECT_THROW(copy_of("heat", "naive", {"diffusivity=1", "dt=0.3"}, ElemType::F32), Error);
}

TEST(KernelCopies, VecaddAndSaxpyCopiesRoundAsTheBuiltInAndSaxpysAlphaIsDeclared) {
  const EditCopy add = copy_of("vecadd", "vector4", {}, ElemType::F32);
  ASSERT_TRUE(add.copy);
  EXPECT_EQ(add.copy->family, "array");
  EXPECT_NE(add.copy->text.find("// @family array\n"), std::string::npos);
  EXPECT_NE(add.copy->text.find("__global__ void vecadd_vector4(const float* a, const float* b, float* out, int n)"),
            std::string::npos);
  EXPECT_NE(add.copy->text.find("return __fadd_rn(a, b);"), std::string::npos);
  const EditCopy saxpy = copy_of("saxpy", "naive", {"alpha=-0.3"}, ElemType::F32);
  ASSERT_TRUE(saxpy.copy);
  EXPECT_NE(saxpy.copy->text.find("// @param alpha float [-1e6, 1e6] = -0.3 "), std::string::npos);
  EXPECT_NE(saxpy.copy->text.find("out[i] = __fmaf_rn(alpha, x[i], y[i]);"), std::string::npos);
  EXPECT_NE(saxpy.copy->text.find("int n, float alpha)"), std::string::npos);
}

TEST(KernelCopies, ParametersTheBuiltInRefusesAreRefusedAlike) {
  try {
    copy_of("convolve", "naive", {"matrix=1,-1,0", "normalize=true"}, ElemType::F32);
    FAIL() << "no error for weights that sum to 0";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("sum to 0"), std::string::npos) << e.full_message();
  }
  // A matrix of rank > 1 has no separable variant: the copy says which to take instead.
  const EditCopy sep = copy_of("convolve", "separable", {"matrix=1,2,0;3,4,0;0,0,1"}, ElemType::F32);
  EXPECT_FALSE(sep.copy);
  EXPECT_NE(sep.reason.find("tiled"), std::string::npos) << sep.reason;
}

TEST(CopyTemplate, EveryTemplateInTheTreeIsEmbeddedAsItIs) {
  std::set<std::string> files;
  const std::filesystem::path folder = std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/copies";
  for (const auto& entry : std::filesystem::directory_iterator(folder)) files.insert(entry.path().filename().string());
  std::set<std::string> embedded_names;
  for (const std::string_view name : embedded::kernel_copy_template_names()) embedded_names.insert(std::string(name));
  EXPECT_EQ(embedded_names, files);
  for (const std::string& name : files) {
    std::ifstream in(folder / name, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(embedded::kernel_copy_template(name), text) << name;
  }
  EXPECT_TRUE(embedded::kernel_copy_template("nonesuch.cu").empty());
}

TEST(CopyTemplate, ReplacesPlaceholdersAndKeepsOrDropsBlocks) {
  const std::string text = "a {{X}} b {{Y}}\n"
                           "{{if one}}\n"
                           "one\n"
                           "  {{if two}}\n"
                           "two {{X}}\n"
                           "  {{else}}\n"
                           "not two\n"
                           "  {{end}}\n"
                           "{{else}}\n"
                           "not one\n"
                           "{{end}}\n"
                           "last";
  const std::map<std::string, std::string> values = {{"X", "x"}, {"Y", ""}};
  EXPECT_EQ(expand_template(text, values, {"one", "two"}), "a x b \none\ntwo x\nlast");
  EXPECT_EQ(expand_template(text, values, {"one"}), "a x b \none\nnot two\nlast");
  EXPECT_EQ(expand_template(text, values, {"two"}), "a x b \nnot one\nlast");
}

TEST(CopyTemplate, CommentLinesWrapAtTheWidthAndFloatsReadBack) {
  const std::string long_text = "Made at matrix=1,2,3; 4,5,6; 7,8,9, normalize=true and some more words to wrap";
  EXPECT_EQ(comment_lines(long_text, 40), "Made at matrix=1,2,3; 4,5,6; 7,8,9,\n// normalize=true and some more words to\n// wrap");
  EXPECT_EQ(comment_lines("short", 40), "short");
  EXPECT_EQ(float_literal(1.0f), "1.0f");
  EXPECT_EQ(float_literal(0.2f), "0.2f");
  EXPECT_EQ(float_literal(-0.25f), "-0.25f");
  EXPECT_EQ(float_literal(1e-20f), "1e-20f");
  for (const float v : {1.0f / 9.0f, 0.2f * 0.9f, 3.14159274f, 1.17549435e-38f})
    EXPECT_EQ(std::strtof(float_text(v).c_str(), nullptr), v) << float_text(v);
}

TEST(CopyTemplate, AMissingValueOrAnUnbalancedBlockIsAnInternalErrorNamingTheLine) {
  auto message = [](const std::string& text) {
    try {
      expand_template(text, {{"X", "x"}}, {});
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Internal);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("ok\n{{NOPE}}\n").find("line 2: no value for the placeholder `NOPE`"), std::string::npos);
  EXPECT_NE(message("{{if a}}\nx\n").find("line 1: `{{if}}` is never ended"), std::string::npos);
  EXPECT_NE(message("x\n{{end}}\n").find("line 2: `{{end}}` without"), std::string::npos);
  EXPECT_NE(message("a {{X\n").find("line 1: `{{` is never closed"), std::string::npos);
}

}  // namespace
}  // namespace ks::copies
