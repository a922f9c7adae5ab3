#include "sim/rle.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sim/life_rule.hpp"

namespace ks::sim {

namespace {

constexpr const char* kFormatHint =
    "an RLE file has '#' comment lines, a header 'x = WIDTH, y = HEIGHT[, rule = B3/S23]' and runs such as "
    "'bob$2bo$3o!' (b dead, o alive, $ end of row, ! end)";

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

class RleParser {
 public:
  RleParser(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

  LifePattern parse() {
    if (trim(text_).empty()) fail_at(0, "the file is empty");
    std::size_t pos = 0;
    int line_no = 0;
    bool header = false;
    while (pos < text_.size()) {
      const std::size_t end = std::min(text_.find('\n', pos), text_.size());
      std::string_view line = text_.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      ++line_no;
      pos = end + 1;
      if (!header) {
        const std::string t = trim(line);
        if (t.empty()) continue;
        if (t[0] == '#') {
          comment(t);
          continue;
        }
        read_header(t, line_no);
        header = true;
        continue;
      }
      if (read_runs(line, line_no)) return finish();
    }
    if (!header) fail_at(line_no, "there is no header line 'x = ..., y = ...'");
    fail_at(line_no, "the pattern ends without '!' (is the file cut short?)");
  }

 private:
  [[noreturn]] void fail_at(int line, const std::string& what) const {
    const std::string where = line > 0 ? fmt::format("{}, line {}", source_, line) : source_;
    throw_io(fmt::format("{}: {}", where, what), kFormatHint);
  }

  void comment(const std::string& t) {
    const char kind = t.size() > 1 ? t[1] : ' ';
    const std::string body = trim(std::string_view(t).substr(std::min<std::size_t>(2, t.size())));
    if (kind == 'N' && pattern_.name.empty()) pattern_.name = body;
    else if (!body.empty()) pattern_.comments.push_back(body);
  }

  // "x = 3, y = 3, rule = B3/S23": key = value pairs separated by commas; x and y required.
  void read_header(const std::string& t, int line_no) {
    if (t[0] != 'x' && t[0] != 'X')
      fail_at(line_no, fmt::format("expected the header 'x = WIDTH, y = HEIGHT' before the cells, found '{}'",
                                   t.substr(0, 40)));
    long long x = -1, y = -1;
    std::stringstream items(t);
    std::string item;
    while (std::getline(items, item, ',')) {
      const auto eq = item.find('=');
      if (eq == std::string::npos)
        fail_at(line_no, fmt::format("the header item '{}' is not 'key = value'", trim(item)));
      std::string key = trim(std::string_view(item).substr(0, eq));
      const std::string value = trim(std::string_view(item).substr(eq + 1));
      std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return char(std::tolower(c)); });
      if (key == "x" || key == "y") {
        long long& v = key == "x" ? x : y;
        if (value.empty() || value.size() > 9 ||
            !std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); }))
          fail_at(line_no, fmt::format("{} = '{}' is not a whole number", key, value));
        v = std::stoll(value);
      } else if (key == "rule") {
        try {
          pattern_.rule = to_string(parse_life_rule(value));
        } catch (const Error& e) {
          fail_at(line_no, fmt::format("rule '{}': {}", value, e.what()));
        }
      } else {
        fail_at(line_no, fmt::format("unknown header item '{}' (expected x, y and rule)", key));
      }
    }
    if (x < 0 || y < 0) fail_at(line_no, "the header must give both x (width) and y (height)");
    if (x * y > kMaxPatternCells)
      fail_at(line_no, fmt::format("the pattern is {}x{} cells, more than the {} this program reads", x, y,
                                   kMaxPatternCells));
    pattern_.width = int(x);
    pattern_.height = int(y);
    pattern_.cells.assign(std::size_t(x * y), 0);
  }

  // One data line; true once '!' was read.
  bool read_runs(std::string_view line, int line_no) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (std::isspace(static_cast<unsigned char>(c))) continue;
      if (std::isdigit(static_cast<unsigned char>(c))) {
        if (count_ > 100000000) fail_at(line_no, "a run count is absurdly long");
        count_ = count_ * 10 + (c - '0');
        has_count_ = true;
        continue;
      }
      const long long n = has_count_ ? count_ : 1;
      if (has_count_ && n == 0) fail_at(line_no, fmt::format("column {}: a run count of 0", i + 1));
      count_ = 0;
      has_count_ = false;
      switch (c) {
        case 'b':
        case 'o':
          put(n, c == 'o', line_no);
          break;
        case '$':
          // Blank rows past the header's height are harmless; cells there are not (see put).
          row_ += n;
          col_ = 0;
          break;
        case '!':
          return true;
        default:
          if (std::isalpha(static_cast<unsigned char>(c)) || c == '.')
            fail_at(line_no, fmt::format("column {}: '{}' is not a two-state cell (b or o); multi-state patterns "
                                         "are not supported",
                                         i + 1, c));
          fail_at(line_no, fmt::format("column {}: unexpected character '{}'", i + 1, c));
      }
    }
    return false;
  }

  void put(long long n, bool alive, int line_no) {
    if (row_ >= pattern_.height)
      fail_at(line_no, fmt::format("the pattern has more than the header's y = {} rows", pattern_.height));
    if (col_ + n > pattern_.width)
      fail_at(line_no, fmt::format("row {} has more than the header's x = {} cells", row_ + 1, pattern_.width));
    if (alive)
      std::fill_n(pattern_.cells.begin() + std::ptrdiff_t(row_ * pattern_.width + col_), n, std::uint8_t(1));
    col_ += n;
  }

  LifePattern finish() {
    if (pattern_.name.empty()) pattern_.name = source_;
    return std::move(pattern_);
  }

  std::string_view text_;
  std::string source_;
  LifePattern pattern_;
  long long row_ = 0, col_ = 0;
  long long count_ = 0;
  bool has_count_ = false;
};

}  // namespace

long long LifePattern::population() const { return std::count(cells.begin(), cells.end(), std::uint8_t(1)); }

LifePattern parse_rle(std::string_view text, const std::string& source) { return RleParser(text, source).parse(); }

LifePattern load_rle_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw_io(fmt::format("cannot read the pattern '{}': it is a folder", path.string()), "give an .rle file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_io(fmt::format("cannot read the pattern '{}'", path.string()), "check the path");
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw_io(fmt::format("reading the pattern '{}' failed", path.string()));
  return parse_rle(buffer.str(), path.string());
}

}  // namespace ks::sim
