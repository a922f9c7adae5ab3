#include "source/source_tokens.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace ks::source {

namespace {

constexpr std::array kKeywords = {
    "alignas",       "alignof",     "auto",      "bool",     "break",
    "case",          "char",        "class",     "const",    "consteval",
    "constexpr",     "const_cast",  "continue",  "decltype", "default",
    "delete",        "do",          "double",    "else",     "enum",
    "explicit",      "extern",      "false",     "float",    "for",
    "friend",        "goto",        "if",        "inline",   "int",
    "long",          "namespace",   "new",       "noexcept", "nullptr",
    "operator",      "private",     "protected", "public",   "reinterpret_cast",
    "return",        "short",       "signed",    "sizeof",   "static",
    "static_assert", "static_cast", "struct",    "switch",   "template",
    "this",          "throw",       "true",      "try",      "catch",
    "typename",      "union",       "unsigned",  "using",    "virtual",
    "void",          "volatile",    "while",     "concept",  "requires",
    "override",      "final",       "typedef",   "mutable",
};

constexpr std::array kCudaWords = {
    "__global__",
    "__device__",
    "__host__",
    "__shared__",
    "__constant__",
    "__syncthreads",
    "__syncwarp",
    "__launch_bounds__",
    "__restrict__",
    "__forceinline__",
    "__noinline__",
    "__align__",
    "__ldg",
    "__shfl_sync",
    "__shfl_down_sync",
    "__shfl_up_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__popc",
    "__popcll",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "atomicAdd",
    "atomicMax",
    "atomicMin",
    "atomicCAS",
    "atomicExch",
    "__threadfence",
    "__fmaf_rn",
    "cudaStream_t",
    "dim3",
};

template <std::size_t N>
bool listed(const std::array<const char*, N>& words, std::string_view w) {
  return std::any_of(words.begin(), words.end(), [&](const char* k) { return w == k; });
}

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Appends [begin, end) as `kind`, merged into the last token when that has the same kind.
void emit(std::vector<Token>& out, TokenKind kind, std::size_t begin, std::size_t end) {
  if (end <= begin) return;
  if (!out.empty() && out.back().kind == kind && out.back().begin + out.back().length == begin) {
    out.back().length += end - begin;
    return;
  }
  out.push_back({kind, begin, end - begin});
}

// The end of a number starting at `i`: digits, letters (0x, suffixes), '.', digit separators, and a sign
// right after a decimal exponent (1e-3) or a hexadecimal one (0x1p-4).
std::size_t number_end(std::string_view line, std::size_t i) {
  const bool hex = line.substr(i, 2) == "0x" || line.substr(i, 2) == "0X";
  std::size_t j = i;
  while (j < line.size()) {
    const char c = line[j];
    if (ident_char(c) || c == '.' || c == '\'') {
      ++j;
    } else if ((c == '+' || c == '-') && j > i) {
      const char e = line[j - 1];
      const bool exponent = hex ? (e == 'p' || e == 'P') : (e == 'e' || e == 'E');
      if (!exponent) break;
      ++j;
    } else {
      break;
    }
  }
  return j;
}

// The end of a quoted literal opened at `i` (past its closing quote, or the line's end when it has none).
std::size_t quoted_end(std::string_view line, std::size_t i) {
  const char quote = line[i];
  std::size_t j = i + 1;
  while (j < line.size() && line[j] != quote) j += line[j] == '\\' ? 2 : 1;
  return std::min(line.size(), j + 1);
}

}  // namespace

std::vector<Token> tokenize_line(std::string_view line, bool& in_block_comment) {
  std::vector<Token> out;
  std::size_t i = 0;
  const std::size_t first = line.find_first_not_of(" \t");
  const bool preprocessor = !in_block_comment && first != std::string_view::npos && line[first] == '#';
  while (i < line.size()) {
    if (in_block_comment) {
      const std::size_t close = line.find("*/", i);
      const std::size_t end = close == std::string_view::npos ? line.size() : close + 2;
      in_block_comment = close == std::string_view::npos;
      emit(out, TokenKind::Comment, i, end);
      i = end;
      continue;
    }
    const std::string_view rest = line.substr(i);
    if (rest.starts_with("//")) {
      emit(out, TokenKind::Comment, i, line.size());
      break;
    }
    if (rest.starts_with("/*")) {
      in_block_comment = true;
      emit(out, TokenKind::Comment, i, i + 2);
      i += 2;
      continue;
    }
    if (preprocessor &&
        i >= first) {  // the directive and its arguments up to a comment; strings in #include "x" too
      std::size_t end = i + 1;
      while (end < line.size() && line.substr(end, 2) != "//" && line.substr(end, 2) != "/*") ++end;
      emit(out, TokenKind::Preprocessor, i, end);
      i = end;
      continue;
    }
    const char c = line[i];
    std::size_t end = i + 1;
    TokenKind kind = TokenKind::Plain;
    if (c == '"' || c == '\'') {
      end = quoted_end(line, i);
      kind = TokenKind::String;
    } else if (digit(c) || (c == '.' && i + 1 < line.size() && digit(line[i + 1]))) {
      end = number_end(line, i);
      kind = TokenKind::Number;
    } else if (ident_start(c)) {
      while (end < line.size() && ident_char(line[end])) ++end;
      const std::string_view word = line.substr(i, end - i);
      kind = listed(kCudaWords, word)  ? TokenKind::Cuda
             : listed(kKeywords, word) ? TokenKind::Keyword
                                       : TokenKind::Plain;
    }
    emit(out, kind, i, end);
    i = end;
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

std::vector<std::vector<Token>> tokenize_lines(const std::vector<std::string_view>& lines) {
  std::vector<std::vector<Token>> out;
  out.reserve(lines.size());
  bool in_block_comment = false;
  for (std::string_view line : lines) out.push_back(tokenize_line(line, in_block_comment));
  return out;
}

}  // namespace ks::source
