#include "core/no_cuda.hpp"

#include "core/error.hpp"

namespace ks {

void throw_no_cuda(const std::string& detail) {
  throw Error(ErrorKind::Device, detail.empty() ? std::string(kNoCudaBackend) : kNoCudaBackend + (", " + detail),
              kNoCudaHint);
}

}  // namespace ks
