#pragma once
// A stand-in for `kernelscope-cli worker` that the benchmarks of the host's side of a user kernel's run start as
// their own program with --respond: it answers every plan at once without a GPU (a progress line per launch, then
// the reply) and touches no shared memory, so what a benchmark times is everything but the upload, the launches
// and the download, which the GPU machine adds.
#include <fmt/format.h>

#include <iostream>
#include <regex>
#include <string>

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

}  // namespace ks::bench
