// The constant border of a u8 image reaches a user's stencil as the built-ins read it (stencil_plan.hpp: rounded
// half up and saturated to 0..255), so that a copy of a built-in (Edit a copy) and the built-in it is checked
// against read the same pixel outside the image. A fake worker (a shell script) records the launch plan
// run_user_stencil sends; no GPU is needed, NVRTC compiles the kernel.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/run/launch_plan.hpp"
#include "usercode/run/user_stencil.hpp"
#include "usercode/run/worker_client.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::usercode {
namespace {

// The constant value the InImage argument carries when run_user_stencil is given `value` for an image of `type`.
double constant_sent(ElemType type, double value) {
  test::TempDir dir;
  const auto script = dir / "worker.sh", request = dir / "request.json";
  std::ofstream(script)
      << "#!/bin/sh\n"
         R"(echo '{"hello":{"ok":true,"device":"Fake GPU","arch":"sm_90","message":""}}')" "\n"
         "read line\necho \"$line\" > " << request.string() << "\n"
         R"(echo '{"progress":0}')" "\n"
         R"(echo '{"reply":{"outcome":"failed","message":"a fake worker","cuda_error":"","kernel_ms":[],)"
         R"("upload_ms":0,"download_ms":0,"load_ms":0}}')" "\n"
         "read line\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  WorkerClient::Options o;
  o.executable = script.string();
  WorkerClient worker(o);

  CompileRequest r;
  r.file_name = "copy.cu";
  const std::string pixel = type == ElemType::U8 ? "unsigned char" : "float";
  r.source = "// @family stencil\n__global__ void k(ks::InImage<" + pixel + "> in, ks::OutImage<" + pixel +
             "> out) {\n  if (out.contains(0, 0)) out.set(0, 0, 0, in.at(-1, 0, 0));\n}\n";
  const CompiledKernel k = compile_user_kernel(r);
  EXPECT_TRUE(k.ok());
  UserLaunchOptions launch;
  launch.block = {32, 8};
  run_user_stencil(worker, k, Image(3, 2, 1, type), 4 /* constant */, value, launch);
  std::ifstream in(request);
  std::string line;
  std::getline(in, line);
  const LaunchPlan plan = launch_plan_from_json(nlohmann::json::parse(line).at("run"));
  return plan.arguments.at(0).image.constant_value;
}

TEST(UserStencilConstantBorder, U8RoundsHalfUpAndSaturatesAsTheBuiltInsAndF32PassesAsItIs) {
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  EXPECT_EQ(constant_sent(ElemType::U8, 200.6), 201);  // truncated, it was 200: the built-ins read 201
  EXPECT_EQ(constant_sent(ElemType::U8, 200.5), 201);
  EXPECT_EQ(constant_sent(ElemType::U8, 200.4), 200);
  EXPECT_EQ(constant_sent(ElemType::U8, -3), 0);
  EXPECT_EQ(constant_sent(ElemType::U8, 300), 255);
  EXPECT_EQ(constant_sent(ElemType::F32, 0.75), 0.75);
}

}  // namespace
}  // namespace ks::usercode
