#pragma once
// A plain-text table: a header row, a rule, then rows; each column as wide as its widest cell. Numbers are
// right-aligned so that their digits line up. Used for every table the CLI prints.
#include <string>
#include <vector>

namespace ks::report {

class Table {
 public:
  enum class Align { Left, Right };
  struct Column {
    std::string header;
    Align align = Align::Left;
  };

  explicit Table(std::vector<Column> columns);

  // Missing trailing cells print empty; extra cells are an Internal error (a bug of the caller).
  void add_row(std::vector<std::string> cells);
  bool empty() const noexcept { return rows_.empty(); }
  std::size_t row_count() const noexcept { return rows_.size(); }

  // Every line ends with '\n'; `indent` spaces start each line.
  std::string render(int indent = 0) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace ks::report
