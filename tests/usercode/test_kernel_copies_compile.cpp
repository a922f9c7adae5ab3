// The built-ins' copies (Edit a copy, app/copies) compile through NVRTC as the editor compiles them, for every
// stencil kernel's defaults and the parameters that change their shape (tests/support/kernel_copy_cases.hpp), on
// u8 and f32, and declare what the stencil contract expects: the family, one entry of the copy's name, the
// element type asked for, the sharpen's `amount` as a declared parameter at the sidebar's value. No GPU needed.
#include <gtest/gtest.h>

#include "copies/kernel_copy.hpp"
#include "registry/registry.hpp"
#include "support/kernel_copy_cases.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::usercode {
namespace {

CompiledKernel compile_copy(const copies::KernelCopy& copy) {
  CompileRequest r;
  r.file_name = copy.file_name;
  r.source = copy.text;
  r.options.arch = "sm_90";
  return compile_user_kernel(r);
}

TEST(KernelCopiesCompile, EveryStencilCopyCompilesAndKeepsTheContract) {
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  int compiled = 0;
  for (const test::CopyCase& c : test::copy_cases()) {
    const KernelSpec& kernel = KernelRegistry::builtin().get(c.kernel);
    const ParamSet params = c.param_set();
    for (const VariantSpec& v : kernel.variants) {
      for (const ElemType type : {ElemType::U8, ElemType::F32}) {
        SCOPED_TRACE(c.label() + " " + v.name + " " + to_string(type));
        const copies::EditCopy edit = copies::edit_copy(kernel, v.name, params, type);
        if (!edit.copy) continue;  // tests/cpu/test_kernel_copies.cpp says which variants have none
        const copies::KernelCopy& copy = *edit.copy;
        EXPECT_EQ(copy.text.find("{{"), std::string::npos);
        const CompiledKernel k = compile_copy(copy);
        ASSERT_TRUE(k.ok()) << k.module->log << "\n" << copy.text;
        ++compiled;
        ASSERT_TRUE(k.family);
        EXPECT_EQ(*k.family, Family::Stencil);
        EXPECT_EQ(copy.family, "stencil");
        EXPECT_EQ(k.entry_facts().name, copy.entry);
        EXPECT_EQ(copy.entry, c.kernel + "_" + v.name);
        ASSERT_FALSE(k.entry_facts().parameter_types.empty());
        EXPECT_EQ(k.entry_facts().parameter_types[0],
                  type == ElemType::U8 ? "ks::InImage<unsigned char>" : "ks::InImage<float>");
        if (c.kernel == "sharpen") {
          ASSERT_EQ(k.declarations.parameters.size(), 1u);
          EXPECT_EQ(k.declarations.parameters[0].name, "amount");
          EXPECT_EQ(k.declarations.parameters[0].value, params.get_float("amount"));
        } else {
          EXPECT_TRUE(k.declarations.parameters.empty());
        }
        // Static shared memory within CUDA's 48 KiB (the tiled and separable copies size theirs from the radius).
        if (k.entry_facts().resources_reported) {
          EXPECT_LE(k.entry_facts().shared_bytes, 48 * 1024);
        }
      }
    }
  }
  EXPECT_GT(compiled, 60);
}

TEST(KernelCopiesCompile, HeatsCopyCompilesAsAStepKernelForEveryBoundary) {
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  const KernelSpec& heat = KernelRegistry::builtin().get("heat");
  for (const char* boundary : {"insulated", "periodic", "fixed"}) {
    SCOPED_TRACE(boundary);
    ParamSet params = heat.default_params();
    params.set("boundary", boundary);
    const copies::EditCopy edit = copies::edit_copy(heat, "naive", params, ElemType::F32);
    ASSERT_TRUE(edit.copy) << edit.reason;
    const CompiledKernel k = compile_copy(*edit.copy);
    ASSERT_TRUE(k.ok()) << k.module->log;
    ASSERT_TRUE(k.family);
    EXPECT_EQ(*k.family, Family::Step);
    EXPECT_EQ(k.entry_facts().name, "heat_naive");
    ASSERT_EQ(k.declarations.parameters.size(), 1u);
    EXPECT_EQ(float(k.declarations.parameters[0].value), 0.2f);  // diffusivity 1 * dt 0.2
  }
}

TEST(KernelCopiesCompile, VecaddAndSaxpyCopiesCompileAsArrayKernels) {
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  for (const char* id : {"vecadd", "saxpy"}) {
    const KernelSpec& kernel = KernelRegistry::builtin().get(id);
    for (const char* variant : {"naive", "gridstride", "vector4"}) {
      SCOPED_TRACE(std::string(id) + " " + variant);
      const copies::EditCopy edit = copies::edit_copy(kernel, variant, kernel.default_params(), ElemType::F32);
      ASSERT_TRUE(edit.copy) << edit.reason;
      const CompiledKernel k = compile_copy(*edit.copy);
      ASSERT_TRUE(k.ok()) << k.module->log;
      ASSERT_TRUE(k.family);
      EXPECT_EQ(*k.family, Family::Array);
      EXPECT_EQ(k.entry_facts().name, std::string(id) + "_" + variant);
      EXPECT_EQ(k.declarations.parameters.size(), std::string(id) == "saxpy" ? 1u : 0u);
    }
  }
}

TEST(KernelCopiesCompile, LifesCopyCompilesAsAStepKernel) {
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  const KernelSpec& life = KernelRegistry::builtin().get("life");
  for (const char* border : {"torus", "dead"}) {
    SCOPED_TRACE(border);
    ParamSet params = life.default_params();
    params.set("border", border);
    const copies::EditCopy edit = copies::edit_copy(life, "naive", params, ElemType::U8);
    ASSERT_TRUE(edit.copy) << edit.reason;
    const CompiledKernel k = compile_copy(*edit.copy);
    ASSERT_TRUE(k.ok()) << k.module->log;
    ASSERT_TRUE(k.family);
    EXPECT_EQ(*k.family, Family::Step);
    EXPECT_EQ(k.entry_facts().name, "life_naive");
    EXPECT_EQ(k.entry_facts().parameter_types,
              (std::vector<std::string>{"unsigned char const*", "unsigned char*", "int", "int"}));
  }
}

}  // namespace
}  // namespace ks::usercode
