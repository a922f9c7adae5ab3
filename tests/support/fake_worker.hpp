#pragma once
// A worker process made of a shell script speaking (or failing to speak) the protocol of `kernelscope-cli worker`
// (gpu/usercode/run/launch_plan.hpp), so that the client's watchdog, restarts and messages, and the app's paths
// through it, are tested without a GPU. tests/gpu runs the real worker.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/test_support.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks::test {

inline constexpr const char* kFakeHello =
    R"(echo '{"hello":{"ok":true,"device":"Fake GPU","arch":"sm_90","message":""}}')";

// Answers every request Ok after its launches without touching the shared memory: a `step` plan's state comes
// back as it went in (a kernel that leaves every cell as it is), each of the plan's timed launches taking 0.5 ms.
inline constexpr const char* kFakeIdentityLoop = R"(while read request; do
  n=$(printf '%s' "$request" | sed -n 's/.*"timed":\([0-9]*\).*/\1/p')
  ms=$(seq -s, "$n" | sed 's/[0-9][0-9]*/0.5/g')
  echo '{"progress":0}'
  echo "{\"reply\":{\"outcome\":\"ok\",\"message\":\"\",\"cuda_error\":\"\",\"kernel_ms\":[$ms],\"upload_ms\":0,\"download_ms\":0,\"load_ms\":0}}"
done)";

class FakeWorker {
 public:
  explicit FakeWorker(const std::string& body) : path_(dir_ / "worker.sh") {
    std::ofstream(path_) << "#!/bin/sh\n" << body << "\n";
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all);
  }
  const std::filesystem::path& path() const { return path_; }
  const std::filesystem::path& dir() const { return dir_.path(); }
  usercode::WorkerClient::Options options(std::chrono::milliseconds launch = std::chrono::milliseconds(2000),
                                          std::chrono::milliseconds setup = std::chrono::milliseconds(5000)) const {
    usercode::WorkerClient::Options o;
    o.executable = path_.string();
    o.arguments = {};
    o.launch_timeout = launch;
    o.setup_timeout = setup;
    return o;
  }

 private:
  TempDir dir_;
  std::filesystem::path path_;
};

}  // namespace ks::test
