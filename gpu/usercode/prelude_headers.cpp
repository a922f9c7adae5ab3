#include "usercode/prelude_headers.hpp"

#include <span>

namespace ks::embedded {
std::span<const unsigned char> usercode_prelude_cuh();       // prelude/ks_prelude.cuh
std::span<const unsigned char> usercode_border_remap_hpp();  // core/border_remap.hpp
std::span<const unsigned char> usercode_floor_mod_hpp();     // core/floor_mod.hpp
std::span<const unsigned char> usercode_hd_hpp();            // core/hd.hpp
}  // namespace ks::embedded

namespace ks::usercode {

std::vector<std::string> prelude_header_texts() {
  std::vector<std::string> texts;
  for (auto bytes : {embedded::usercode_prelude_cuh(), embedded::usercode_border_remap_hpp(),
                     embedded::usercode_floor_mod_hpp(), embedded::usercode_hd_hpp()})
    texts.emplace_back(bytes.begin(), bytes.end());
  return texts;
}

}  // namespace ks::usercode
