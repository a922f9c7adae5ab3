#pragma once
// Reading a text file line by line with its name and line numbers at hand, so that every parser can say
// "file.txt line 12: ..." and the user can go straight to the problem.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ks::topo {

class TextLines {
 public:
  // Reads the whole file; an Io Error names the file and the reason when it cannot be read.
  explicit TextLines(const std::filesystem::path& path);
  TextLines(std::string name, std::string text);  // for text already in memory
  // The lines point into the text this object holds: it stays where it is.
  TextLines(const TextLines&) = delete;
  TextLines& operator=(const TextLines&) = delete;

  const std::string& name() const { return name_; }
  std::size_t count() const { return lines_.size(); }
  std::string_view line(std::size_t index) const { return lines_[index]; }  // 0-based, without '\n' / '\r'

  // Throws an Io Error "NAME line N: what", with `hint` (0-based index; shown 1-based).
  [[noreturn]] void fail(std::size_t index, const std::string& what, const std::string& hint = {}) const;
  [[noreturn]] void fail_file(const std::string& what, const std::string& hint = {}) const;

 private:
  void split(const std::string& text);
  std::string name_;
  std::string text_;
  std::vector<std::string_view> lines_;
};

// The line without a comment starting at `comment` (if any), trimmed of blanks.
std::string_view strip_comment(std::string_view line, char comment);
std::string_view trim(std::string_view s);
// Splits on blanks (spaces, tabs).
std::vector<std::string_view> split_blanks(std::string_view s);
// Splits on `separator`, trimming each field; a quoted field ("a,b") keeps its separators.
std::vector<std::string> split_fields(std::string_view s, char separator);

}  // namespace ks::topo
