#pragma once
// A stand-in for `kernelscope-cli worker` that the benchmarks of the host's side of a user kernel's run start as
// their own program with --respond: it answers every plan at once without a GPU (a progress line per launch, then
// the reply) and touches no shared memory, so what a benchmark times is everything but the upload, the launches
// and the download, which the GPU machine adds.
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <regex>
#include <string>

#include "usercode/run/worker_client.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::bench {

inline int respond_as_worker() {
  std::cout << R"({"hello":{"ok":true,"device":"stand-in","arch":"sm_90","message":""}})" << std::endl;
  const std::regex timed("\"timed\":([0-9]+)");
  for (std::string line; std::getline(std::cin, line);) {
    std::smatch m;
    const int n = std::regex_search(line, m, timed) ? std::stoi(m[1]) : 1;
    std::string ms;
    for (int k = 0; k <= n; ++k) std::cout << fmt::format(R"({{"progress":{}}})", k) << '\n';
    for (int k = 0; k < n; ++k) ms += k ? ",0.01" : "0.01";
    std::cout << fmt::format(R"({{"reply":{{"outcome":"ok","message":"","cuda_error":"","kernel_ms":[{}],)"
                             R"("upload_ms":0,"download_ms":0,"load_ms":0}}}})",
                             ms)
              << std::endl;
  }
  return 0;
}

// The template assets/kernels/FILE compiled for sm_90 (no GPU needed); the benchmark ends when it does not compile.
inline usercode::CompiledKernel compiled_template(const std::string& file) {
  usercode::CompileRequest r;
  r.file_name = file;
  r.source = usercode::read_kernel_source(std::string(KS_SOURCE_DIR) + "/assets/kernels/" + file);
  r.options.arch = "sm_90";
  usercode::CompiledKernel kernel = usercode::compile_user_kernel(r);
  if (!kernel.ok()) {
    fmt::print(stderr, "{} does not compile here\n", file);
    std::exit(1);
  }
  return kernel;
}

// The options of a client whose worker is this program (`self`, argv[0]) answering with --respond.
inline usercode::WorkerClient::Options stand_in_options(const char* self) {
  usercode::WorkerClient::Options o;
  o.executable = self;
  o.arguments = {"--respond"};
  return o;
}

}  // namespace ks::bench
