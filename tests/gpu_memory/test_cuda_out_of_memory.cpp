// An image that does not fit in the GPU's memory: a clear OutOfMemory error that names the sizes and suggests the
// CPU backend, nothing leaked, and the engine still works once memory is free again. The GPU is filled on purpose
// (a real allocation of almost all free memory), so these tests run alone (RUN_SERIAL, see tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "support/memory_ballast.hpp"
#include "support/test_support.hpp"


namespace ks {
namespace {


StencilRequest box_on_cuda() {
  StencilRequest r;
  r.kernel = "box";
  r.params = KernelRegistry::builtin().get("box").default_params();
  r.backend = Backend::Cuda;
  r.warmup = 0;
  r.repeat = 1;
  return r;
}

TEST(CudaMemory, AnImageLargerThanFreeGpuMemoryIsAClearErrorAndTheEngineRecovers) {
  KS_REQUIRE_GPU();
#ifdef KS_HAVE_CUDA
  Engine engine;
  // 4096 x 4096 f32: 64 MB in and 64 MB out, against 32 MB left free.
  const Image big = test::random_image(4096, 4096, 1, ElemType::F32, 11);
  // The context and the kernels' code are loaded (lazily, on first use) before memory is taken away, so that what
  // the failed run leaves behind can be measured. The same request as the one that will fail: a smaller image can
  // pick other kernels (or grid shapes), whose code would then be loaded inside the measurement (5 MB on an H100).
  engine.run_stencil(big, box_on_cuda());
  {
    MemoryBallast ballast(32u << 20);
    ASSERT_TRUE(ballast.holds()) << "could not fill the GPU's memory for the test";
    const std::size_t free_before = free_device_memory();
    try {
      engine.run_stencil(big, box_on_cuda());
      FAIL() << "a 128 MB run succeeded with about 32 MB of GPU memory free";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::OutOfMemory) << e.what();
      const std::string what = e.what();
      EXPECT_NE(what.find("MB"), std::string::npos) << what;     // says how much it asked for and had
      EXPECT_NE(what.find("free"), std::string::npos) << what;
      EXPECT_NE(e.hint().find("--backend cpu"), std::string::npos) << e.hint();
      EXPECT_EQ(exit_code_for(e.kind()), 1);
    }
    // Whatever the failed run had allocated was given back.
    EXPECT_GE(free_device_memory() + (1u << 20), free_before);
  }
  // Memory is free again: the same engine runs the same request and gets the CPU reference's result.
  const StencilResult gpu = engine.run_stencil(big, box_on_cuda());
  StencilRequest cpu_request = box_on_cuda();
  cpu_request.backend = Backend::Cpu;
  const StencilResult cpu = engine.run_stencil(big, cpu_request);
  EXPECT_TRUE(test::images_match(gpu.output, cpu.output));
#endif
}

}  // namespace
}  // namespace ks
