#pragma once
// Where kernels run: the CPU (a thread pool) or a CUDA device. The runtime measures each backend's peaks, and
// every kernel variant names the backend it runs on.
#include <string>

namespace ks {

enum class Backend { Cpu, Cuda };
const char* to_string(Backend b) noexcept;
Backend backend_from_string(const std::string& s);  // "cpu" | "cuda"; usage Error otherwise

}  // namespace ks
