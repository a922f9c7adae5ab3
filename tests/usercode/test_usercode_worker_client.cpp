// The client side of the worker process that runs users' kernels, without a GPU: fake workers (small shell
// scripts speaking the protocol, or failing to) stand in for `kernelscope-cli worker`, so the watchdog, the
// restarts and the messages are tested where CI runs. The GPU tests run the real worker (tests/gpu).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/image.hpp"
#include "support/fake_worker.hpp"
#include "support/test_support.hpp"
#include "usercode/run/child_process.hpp"
#include "usercode/run/launch_plan.hpp"
#include "usercode/run/shared_memory.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks::usercode {
namespace {

using namespace std::chrono_literals;

using test::FakeWorker;
constexpr const char* kHello = test::kFakeHello;
constexpr const char* kOkReply =
    R"(echo '{"reply":{"outcome":"ok","message":"","cuda_error":"","kernel_ms":[1.5,2.5],"upload_ms":0.5,)"
    R"("download_ms":0.25,"load_ms":0}}')";

LaunchPlan two_launches() {
  LaunchPlan p;
  p.warmup = 1;
  p.timed = 1;
  return p;
}

TEST(UserKernelWorker, AnswersARunWithTheWorkersTimings) {
  FakeWorker fake(std::string(kHello) + "\nread request\necho '{\"progress\":0}'\necho '{\"progress\":1}'\n" +
                  "echo '{\"progress\":2}'\n" + kOkReply + "\nread request");
  WorkerClient client(fake.options());
  EXPECT_EQ(client.hello().device, "Fake GPU");
  const SharedMemory memory = SharedMemory::create(64);
  std::vector<int> progress;
  const WorkerReply reply = client.run(two_launches(), memory, nullptr, [&](int k) { progress.push_back(k); });
  EXPECT_EQ(reply.outcome, RunOutcome::Ok);
  EXPECT_EQ(reply.kernel_ms, (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(progress, (std::vector<int>{1, 2}));
  EXPECT_TRUE(client.running());
}

TEST(UserKernelWorker, StopsALaunchThatNeverEndsAndStartsAFreshWorkerNextTime) {
  // The first run hangs after its first launch began; the script counts its starts in a file.
  test::TempDir dir;
  const auto starts = (dir / "starts").string();
  FakeWorker fake(std::string("echo x >> ") + starts + "\n" + kHello +
                  "\nread request\necho '{\"progress\":0}'\nif [ $(wc -l < " + starts +
                  ") -eq 1 ]; then sleep 30; fi\necho '{\"progress\":1}'\necho '{\"progress\":2}'\n" + kOkReply +
                  "\nread request");
  WorkerClient client(fake.options(300ms));
  const SharedMemory memory = SharedMemory::create(64);
  const auto t0 = std::chrono::steady_clock::now();
  const WorkerReply hung = client.run(two_launches(), memory);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(hung.outcome, RunOutcome::TimedOut);
  EXPECT_NE(hung.message.find("stopped after 0.3 s: the kernel did not finish"), std::string::npos) << hung.message;
  EXPECT_LT(seconds, 5.0);  // the watchdog, not the script's 30 s
  EXPECT_FALSE(client.running());
  const WorkerReply next = client.run(two_launches(), memory);
  EXPECT_EQ(next.outcome, RunOutcome::Ok) << next.message;
  std::ifstream count(starts);
  int lines = 0;
  for (std::string l; std::getline(count, l);) ++lines;
  EXPECT_EQ(lines, 2);
}

TEST(UserKernelWorker, AFaultEndsTheWorkerAndTheNextRunStartsAnother) {
  FakeWorker fake(std::string(kHello) + "\nread request\necho '{\"progress\":0}'\n" +
                  R"x(echo '{"reply":{"outcome":"fault","message":"your kernel accessed memory outside its buffers )x"
                  R"x((illegal address)","cuda_error":"cudaErrorIllegalAddress","kernel_ms":[],"upload_ms":0,)x"
                  R"x("download_ms":0,"load_ms":0}}')x" +
                  "\nexit 3");
  WorkerClient client(fake.options());
  const SharedMemory memory = SharedMemory::create(64);
  const WorkerReply reply = client.run(two_launches(), memory);
  EXPECT_EQ(reply.outcome, RunOutcome::Fault);
  EXPECT_EQ(reply.cuda_error, "cudaErrorIllegalAddress");
  EXPECT_FALSE(client.running());
  EXPECT_EQ(client.run(two_launches(), memory).outcome, RunOutcome::Fault);  // a fresh worker answered again
}

TEST(UserKernelWorker, AWorkerThatDiesSaysHow) {
  FakeWorker fake(std::string(kHello) + "\nread request\nkill -SEGV $$");
  WorkerClient client(fake.options());
  const SharedMemory memory = SharedMemory::create(64);
  const WorkerReply reply = client.run(two_launches(), memory);
  EXPECT_EQ(reply.outcome, RunOutcome::WorkerDied);
  EXPECT_NE(reply.message.find("signal 11"), std::string::npos) << reply.message;
  EXPECT_FALSE(client.running());
}

TEST(UserKernelWorker, AWorkerWithoutAGpuIsADeviceErrorWithItsReason) {
  FakeWorker fake(R"(echo '{"hello":{"ok":false,"device":"","arch":"","message":"there is no CUDA device"}}')");
  WorkerClient client(fake.options());
  EXPECT_FALSE(client.hello().ok);
  const SharedMemory memory = SharedMemory::create(64);
  try {
    client.run(two_launches(), memory);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Device);
    EXPECT_NE(e.full_message().find("there is no CUDA device"), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("compile"), std::string::npos) << e.full_message();
  }
}

TEST(UserKernelWorker, AWorkerThatNeverSaysHelloOrCannotStartIsADeviceError) {
  FakeWorker silent("sleep 30");
  WorkerClient client(silent.options(2000ms, 300ms));
  EXPECT_THROW(client.hello(), Error);
  WorkerClient::Options missing;
  missing.executable = "/nonexistent/kernelscope-cli";
  WorkerClient absent(missing);
  try {
    absent.hello();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Device);
    EXPECT_NE(e.full_message().find("/nonexistent/kernelscope-cli"), std::string::npos) << e.full_message();
  }
}

TEST(UserKernelWorker, CancelStopsTheWorkerAtOnce) {
  FakeWorker fake(std::string(kHello) + "\nread request\nsleep 30");
  WorkerClient client(fake.options(60000ms, 60000ms));
  const SharedMemory memory = SharedMemory::create(64);
  EXPECT_THROW(client.run(two_launches(), memory, [] { return true; }), Error);
  EXPECT_FALSE(client.running());
}

TEST(UserKernelSharedMemory, TheWorkerSeesTheClientsBytesAndTheNameGoesWithTheObject) {
  std::string name;
  {
    SharedMemory a = SharedMemory::create(1000);
    a.bytes()[999] = std::byte{42};
    name = a.name();
    SharedMemory b = SharedMemory::open(name, 1000);
    EXPECT_EQ(b.bytes()[999], std::byte{42});
    b.bytes()[0] = std::byte{7};
    EXPECT_EQ(a.bytes()[0], std::byte{7});
    EXPECT_THROW(SharedMemory::open(name, 100000), Error);  // larger than it is
  }
  EXPECT_THROW(SharedMemory::open(name, 1), Error);
}

// The result blocks a run's output is read from in place: the one no image reads serves the next run, so a result
// on screen is never written by the run after it; when both are read, a new one comes and the old ones stay with
// their readers.
TEST(UserKernelSharedMemory, AResultBlockStillReadIsNeverHandedOutAgain) {
  const test::FakeWorker fake(test::kFakeHello);
  WorkerClient client(fake.options());
  std::shared_ptr<SharedMemory> a = client.result_block(4096);
  ASSERT_GE(a->bytes().size(), 4096u);
  a->bytes()[0] = std::byte{11};
  const Image shown = Image::borrow({32, 32, 1, ElemType::F32}, a->bytes().data(), a);
  const SharedMemory* a_block = a.get();
  a.reset();  // only the image reads it now
  std::shared_ptr<SharedMemory> b = client.result_block(4096);
  EXPECT_NE(b.get(), a_block);
  const std::string b_name = b->name();
  const SharedMemory* b_block = b.get();
  {
    const Image checked = Image::borrow({32, 32, 1, ElemType::F32}, b->bytes().data(), b);
    b.reset();
    // Both read: a third block, and the first two keep their bytes.
    const std::shared_ptr<SharedMemory> c = client.result_block(4096);
    EXPECT_NE(c.get(), a_block);
    EXPECT_NE(c.get(), b_block);
    c->bytes()[0] = std::byte{99};
    EXPECT_EQ(shown.data()[0], std::byte{11});
  }
  // The check is done: the block it read is free again (or the third one is), never the one still shown.
  for (int k = 0; k < 4; ++k) {
    const std::shared_ptr<SharedMemory> next = client.result_block(4096);
    EXPECT_NE(static_cast<const void*>(next->bytes().data()), static_cast<const void*>(shown.data()));
  }
  // A larger result: a block large enough, still not the shown one.
  const std::shared_ptr<SharedMemory> large = client.result_block(1 << 20);
  EXPECT_GE(large->bytes().size(), std::size_t{1} << 20);
  EXPECT_NE(static_cast<const void*>(large->bytes().data()), static_cast<const void*>(shown.data()));
  EXPECT_EQ(shown.data()[0], std::byte{11});
}

TEST(UserKernelLaunchPlan, TheFieldsOfKeptAndResultBuffersCrossThePipe) {
  LaunchPlan p;
  p.module_key = "abc";
  p.entry = "_Z4life";
  BufferPlan state{64, 256, false, true, false, "step state#4"};
  state.require_held = true;
  state.keep_as = "step state#5";
  p.buffers.push_back(state);
  BufferPlan result{64, 0, false, true, false, ""};
  result.in_result_block = true;
  p.buffers.push_back(result);
  p.buffers.push_back({64, 512, true, false, false, ""});
  const nlohmann::json j = to_json(p);
  // A plain buffer's JSON is what it was before these fields: a worker of before reads it.
  EXPECT_FALSE(j.at("buffers")[2].contains("result_block"));
  EXPECT_FALSE(j.at("buffers")[2].contains("require_held"));
  EXPECT_FALSE(j.at("buffers")[2].contains("keep_as"));
  const LaunchPlan q = launch_plan_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_TRUE(q.buffers[0].require_held);
  EXPECT_EQ(q.buffers[0].keep_as, "step state#5");
  EXPECT_FALSE(q.buffers[0].in_result_block);
  EXPECT_TRUE(q.buffers[1].in_result_block);
  EXPECT_FALSE(q.buffers[1].require_held);
  EXPECT_TRUE(q.buffers[2].keep_as.empty());
  EXPECT_EQ(to_json(q), j);
}

TEST(UserKernelLaunchPlan, CrossesThePipeUnchanged) {
  LaunchPlan p;
  p.module_bytes = 1234;
  p.module_key = "abc";
  p.entry = "_Z6smooth";
  p.grid = {3, 4, 1};
  p.block = {32, 8, 1};
  p.buffers.push_back({100, 256, true, false, false, "image#3"});
  p.buffers.push_back({4, 512, false, true, true, ""});
  LaunchArgument image;
  image.kind = ArgumentKind::InImage;
  image.buffer = 0;
  image.image = {5, 7, 4, 20, 1, 2, 9.5};
  p.arguments.push_back(image);
  LaunchArgument f;
  f.kind = ArgumentKind::Float32;
  f.real = 0.25;
  p.arguments.push_back(f);
  p.warmup = 2;
  p.timed = 9;
  p.swap_first_two = true;
  p.checked = true;
  const LaunchPlan q = launch_plan_from_json(nlohmann::json::parse(to_json(p).dump()));
  EXPECT_EQ(to_json(q), to_json(p));
  EXPECT_EQ(q.arguments[0].image.constant_value, 9.5);
  EXPECT_EQ(q.buffers[1].zero_each_launch, true);
  EXPECT_EQ(q.buffers[0].content_key, "image#3");
}

TEST(UserKernelChildProcess, WritingToAChildThatDiedFailsQuietly) {
  ChildProcess child("/bin/sh", {"-c", "exit 0"});
  std::string line;
  EXPECT_EQ(child.read_line(line, 2000ms), ChildProcess::Read::Ended);
  EXPECT_EQ(child.how_it_ended(), "exited with status 0");
  EXPECT_FALSE(child.send_line(std::string(1 << 20, 'x')));  // no SIGPIPE: the test would die
}

}  // namespace
}  // namespace ks::usercode
