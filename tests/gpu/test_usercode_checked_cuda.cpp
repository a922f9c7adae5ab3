// Checked mode on a GPU: a kernel compiled with -DKS_CHECKED (through NVRTC), loaded and launched with the CUDA
// runtime's library API as the runner does, leaves the first out-of-bounds access in ks_check_record, skips it,
// and the record reads back as the sentence the learner sees. Only one thread's record is kept when many fail.
#include <gtest/gtest.h>

#if KS_HAVE_CUDA
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "usercode/check/check_record.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/user_kernel.hpp"
#include "support/test_support.hpp"

namespace ks::usercode {
namespace {

#define KS_CUDA_OK(call)                                                        \
  do {                                                                          \
    const cudaError_t status_ = (call);                                         \
    ASSERT_EQ(status_, cudaSuccess) << #call << ": " << cudaGetErrorString(status_); \
  } while (0)

// The prelude's InImage<float> and OutImage<float>, as a launch passes them.
struct HostInImage {
  const float* data;
  int width, height, channels, pitch;
  int border;  // ks::Border::Replicate
  float constant_value;
};
struct HostOutImage {
  float* data;
  int width, height, channels, pitch;
};

struct DeviceFloats {
  float* data = nullptr;
  explicit DeviceFloats(std::size_t n) { cudaMalloc(&data, n * sizeof(float)); }
  ~DeviceFloats() { cudaFree(data); }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
};

struct Library {
  cudaLibrary_t handle = nullptr;
  ~Library() {
    if (handle) cudaLibraryUnload(handle);
  }
};

std::string device_arch() {
  int device = 0, major = 0, minor = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  return "sm_" + std::to_string(major * 10 + minor);
}

CompiledKernel compile_checked(const std::string& source, bool checked = true) {
  CompileRequest r;
  r.file_name = "checked.cu";
  r.source = source;
  r.options.arch = device_arch();
  if (checked) r.options.extra.push_back(kCheckedModeOption);
  return compile_user_kernel(r);
}

// Loads `k`, launches its entry over `grid` x `block` with `args`, and reads the record back.
void launch_and_read(const CompiledKernel& k, dim3 grid, dim3 block, void** args, CheckRecord& record) {
  ASSERT_TRUE(k.ok()) << k.module->log;
  Library lib;
  KS_CUDA_OK(cudaLibraryLoadData(&lib.handle, k.module->cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  cudaKernel_t kernel = nullptr;
  KS_CUDA_OK(cudaLibraryGetKernel(&kernel, lib.handle, k.entry_facts().mangled_name.c_str()));
  void* global = nullptr;
  std::size_t bytes = 0;
  KS_CUDA_OK(cudaLibraryGetGlobal(&global, &bytes, lib.handle, kCheckRecordSymbol));
  ASSERT_EQ(bytes, sizeof(CheckRecord));
  KS_CUDA_OK(cudaMemset(global, 0, bytes));
  KS_CUDA_OK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, 0, nullptr));
  KS_CUDA_OK(cudaDeviceSynchronize());
  KS_CUDA_OK(cudaMemcpy(&record, global, bytes, cudaMemcpyDeviceToHost));
}

TEST(UsercodeCheckedCuda, AWriteOnePastTheRowIsRecordedAndSkipped) {
  KS_REQUIRE_GPU();
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  const std::string source = R"(// @family stencil
__global__ void overreach(ks::InImage<float> in, ks::OutImage<float> out) {
  const int x = ks::global_x(), y = ks::global_y();
  if (!out.contains(x, y)) return;
  out.set(x, y, 0, in.at(x, y, 0) + 1.f);
  if (x == 5 && y == 2) out.set(out.width, y, 0, 100.f);  // one past the row's end: pixel (0, 3)
}
)";
  constexpr int n = 16;
  std::vector<float> host_in(n * n);
  for (int i = 0; i < n * n; ++i) host_in[i] = float(i);
  DeviceFloats in(n * n), out(n * n);
  KS_CUDA_OK(cudaMemcpy(in.data, host_in.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  KS_CUDA_OK(cudaMemset(out.data, 0, n * n * sizeof(float)));
  HostInImage in_image{in.data, n, n, 1, n, 0, 0.f};
  HostOutImage out_image{out.data, n, n, 1, n};
  void* args[] = {&in_image, &out_image};
  CheckRecord r;
  launch_and_read(compile_checked(source), dim3(2, 2), dim3(8, 8), args, r);
  ASSERT_TRUE(has_violation(r));
  EXPECT_EQ(r.accessor, static_cast<std::int32_t>(CheckedAccessor::OutSet));
  EXPECT_EQ(r.x, 16);
  EXPECT_EQ(r.y, 2);
  EXPECT_EQ(r.index, 2 * 16 + 16);
  EXPECT_EQ(r.size, 256);
  EXPECT_EQ(r.base, reinterpret_cast<std::uint64_t>(out.data));
  const NamedBuffer names[] = {{reinterpret_cast<std::uint64_t>(in.data), "in"},
                               {reinterpret_cast<std::uint64_t>(out.data), "out"}};
  EXPECT_EQ(describe_violation(r, names),
            "thread (5, 2, 0) of block (0, 0, 0) wrote out.set(16, 2, 0, ...): x = 16 is outside the output's 16 "
            "columns (0..15)");
  // The write was skipped: pixel (0, 3) holds its own result, not the stray 100.
  std::vector<float> host_out(n * n);
  KS_CUDA_OK(cudaMemcpy(host_out.data(), out.data, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT_EQ(host_out[3 * n], host_in[3 * n] + 1.f);
}

TEST(UsercodeCheckedCuda, ManyFailingThreadsLeaveOneWholeRecord) {
  KS_REQUIRE_GPU();
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  // Every thread reads channel 1 of a 1-channel image.
  const std::string source = R"(// @family stencil
__global__ void wrong_channel(ks::InImage<float> in, ks::OutImage<float> out) {
  const int x = ks::global_x(), y = ks::global_y();
  if (!out.contains(x, y)) return;
  out.set(x, y, 0, in.at(x, y, 1));
}
)";
  constexpr int w = 64, h = 48;
  DeviceFloats in(w * h), out(w * h);
  KS_CUDA_OK(cudaMemset(in.data, 0, w * h * sizeof(float)));
  HostInImage in_image{in.data, w, h, 1, w, 0, 0.f};
  HostOutImage out_image{out.data, w, h, 1, w};
  void* args[] = {&in_image, &out_image};
  CheckRecord r;
  launch_and_read(compile_checked(source), dim3(w / 16, h / 16), dim3(16, 16), args, r);
  ASSERT_TRUE(has_violation(r));
  EXPECT_EQ(r.accessor, static_cast<std::int32_t>(CheckedAccessor::InAt));
  EXPECT_EQ(r.c, 1);
  EXPECT_EQ(r.channels, 1);
  // One thread wrote every field: its coordinates are its own.
  EXPECT_EQ(r.x, int(r.block[0] * 16 + r.thread[0]));
  EXPECT_EQ(r.y, int(r.block[1] * 16 + r.thread[1]));
  EXPECT_EQ(r.thread[2], 0u);
  EXPECT_EQ(r.block[2], 0u);
}

TEST(UsercodeCheckedCuda, KsCheckedCatchesOnePastTheEndOfARawArray) {
  KS_REQUIRE_GPU();
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  const std::string source = R"(// @family array
// @output scalar
__global__ void sum_checked(const float* in_, float* out_, int n) {
  auto in = ks::checked(in_, n);
  auto out = ks::checked(out_, 1);
  const int i = ks::global_index();
  if (i <= n) atomicAdd(&out[0], in[i]);  // i == n is one past the end
}
)";
  constexpr int n = 1000;
  const std::vector<float> ones(n, 1.f);
  DeviceFloats in(n), out(1);
  KS_CUDA_OK(cudaMemcpy(in.data, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  KS_CUDA_OK(cudaMemset(out.data, 0, sizeof(float)));
  int count = n;
  void* args[] = {&in.data, &out.data, &count};
  CheckRecord r;
  launch_and_read(compile_checked(source), dim3(4), dim3(256), args, r);
  ASSERT_TRUE(has_violation(r));
  const NamedBuffer names[] = {{reinterpret_cast<std::uint64_t>(in.data), "in"}};
  EXPECT_EQ(describe_violation(r, names),
            "thread (232, 0, 0) of block (3, 0, 0) accessed in[1000]: index 1000 is outside the 1000 elements given "
            "to ks::checked (0..999)");
  float sum = 0;
  KS_CUDA_OK(cudaMemcpy(&sum, out.data, sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT_EQ(sum, 1000.f);  // the stray read gave 0
}

TEST(UsercodeCheckedCuda, APlainModuleHasNoRecord) {
  KS_REQUIRE_GPU();
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  const CompiledKernel k = compile_checked(R"(// @family array
__global__ void copy(const float* in, float* out, int n) {
  const int i = ks::global_index();
  if (i < n) out[i] = in[i];
}
)", false);
  ASSERT_TRUE(k.ok()) << k.module->log;
  Library lib;
  KS_CUDA_OK(cudaLibraryLoadData(&lib.handle, k.module->cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  void* global = nullptr;
  std::size_t bytes = 0;
  EXPECT_EQ(cudaLibraryGetGlobal(&global, &bytes, lib.handle, kCheckRecordSymbol), cudaErrorSymbolNotFound);
  cudaGetLastError();  // clear the error for the tests after
}

}  // namespace
}  // namespace ks::usercode
#endif  // KS_HAVE_CUDA
