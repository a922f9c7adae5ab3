#include "panels/window_words.hpp"

#include <regex>

namespace ks::ui {

std::string in_window_words(const std::string& text) {
  // Most specific first: a parameter with its value, the backends, then any other flag by its bare name.
  static const std::regex param(R"(--param ([A-Za-z_][A-Za-z0-9_]*)=)");
  static const std::regex backend_cpu(R"(--backend cpu\b)");
  static const std::regex backend_cuda(R"(--backend cuda\b)");
  static const std::regex flag(R"(--([a-z][a-z0-9]*)(-[a-z0-9]+)?)");
  std::string s = std::regex_replace(text, param, "$1 = ");
  s = std::regex_replace(s, backend_cpu, "the CPU backend");
  s = std::regex_replace(s, backend_cuda, "the CUDA backend");
  return std::regex_replace(s, flag, "$1");
}

std::string wrapped_at_spaces(const std::string& text, float width,
                              const std::function<float(const std::string&)>& measure) {
  std::string out, line;
  std::size_t at = 0;
  for (;;) {
    const std::size_t space = text.find_first_of(" \n", at);
    const std::size_t end = space == std::string::npos ? text.size() : space;
    const std::string word = text.substr(at, end - at);
    const std::string longer = line.empty() ? word : line + " " + word;
    if (!line.empty() && measure(longer) > width) {
      out += line + "\n";
      line = word;
    } else {
      line = longer;
    }
    if (space == std::string::npos) break;
    if (text[space] == '\n') {
      out += line + "\n";
      line.clear();
    }
    at = space + 1;
  }
  return out + line;
}

}  // namespace ks::ui
