#pragma once
// A shared library opened at run time (dlopen) rather than linked: the CUDA toolkit's libraries that only some
// features use (cuBLAS for matmul's cublas variants, NVRTC for your own kernels) are not Debian packages, so the
// programs must start, and run on the CPU backend, on a machine that lacks them. Each feature opens its library
// when first used and says, as an Error, what is missing and how to get it.
#include <string>
#include <vector>

namespace ks {

class RuntimeLibrary {
 public:
  // Tries each candidate (a soname, found through the loader's search path, or an absolute path) in order.
  // Throws a Device Error naming `what` (e.g. "cuBLAS"), the candidates and dlerror()'s reason, with `hint`.
  // `stays_mapped`: never unloaded (RTLD_NODELETE), for a library that leaves callbacks in the driver (CUPTI), or
  // one opened once per process by a static (cuBLAS, NVRTC): closed by the static destructors at exit, it would be
  // unloaded out of order with the exit handlers of the CUDA runtime it carries, a suspect of the crash at the end
  // of the Python tests on the GPU machine.
  RuntimeLibrary(const std::vector<std::string>& candidates, const std::string& what, const std::string& hint,
                 bool stays_mapped = false);
  ~RuntimeLibrary();
  RuntimeLibrary(const RuntimeLibrary&) = delete;
  RuntimeLibrary& operator=(const RuntimeLibrary&) = delete;

  const std::string& path() const noexcept { return path_; }  // the candidate that opened

  // The function `name` as a pointer of type F (e.g. decltype(&cublasSgemm_v2)); a Device Error when the library
  // has no such symbol (a different major version).
  template <class F>
  F function(const char* name) const {
    return reinterpret_cast<F>(symbol(name));
  }

 private:
  void* symbol(const char* name) const;

  void* handle_ = nullptr;
  std::string path_;
  std::string what_;
  std::string hint_;
};

// The candidates for a library of the CUDA toolkit: its soname, then the same name in `toolkit_dir` (the
// toolkit's library folder where the program was built, e.g. /usr/local/cuda/lib64, which need not be on the
// loader's path) when that is not empty.
std::vector<std::string> toolkit_library_candidates(const std::string& soname, const std::string& toolkit_dir);

}  // namespace ks
