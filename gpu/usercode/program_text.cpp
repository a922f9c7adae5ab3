#include "usercode/nvrtc_compile.hpp"

namespace ks::usercode {

std::string program_text(std::string_view source, const std::string& file_name) {
  std::string quoted;
  for (char c : file_name) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  // One line for the prelude, one for #line: the user's first line is line 1 again.
  std::string text = "#include \"ks_prelude.cuh\"\n#line 1 \"" + quoted + "\"\n";
  text.append(source);
  return text;
}

}  // namespace ks::usercode
