#include "report/table.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace ks::report {

namespace {

// Display width of UTF-8 text: count code points, not bytes (the tables use "×" and "—" in places).
std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

void pad(std::string& line, const std::string& cell, std::size_t width, Table::Align align) {
  const std::size_t fill = width - std::min(width, display_width(cell));
  if (align == Table::Align::Right) line.append(fill, ' ');
  line += cell;
  if (align == Table::Align::Left) line.append(fill, ' ');
}

}  // namespace

Table::Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() > columns_.size())
    throw Error(ErrorKind::Internal, "table row has more cells than columns");
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::string Table::render(int indent) const {
  std::vector<std::size_t> widths(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = display_width(columns_[c].header);
    for (const auto& row : rows_) widths[c] = std::max(widths[c], display_width(row[c]));
  }
  auto render_line = [&](auto cell_of) {
    std::string line(std::size_t(std::max(indent, 0)), ' ');
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      if (c) line += "  ";
      pad(line, cell_of(c), widths[c], columns_[c].align);
    }
    // Trailing blanks of a left-aligned last column are noise in logs and diffs.
    line.erase(line.find_last_not_of(' ') + 1);
    return line + '\n';
  };

  std::string out = render_line([&](std::size_t c) { return columns_[c].header; });
  std::string rule(std::size_t(std::max(indent, 0)), ' ');
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (c) rule += "  ";
    rule.append(widths[c], '-');
  }
  out += rule + '\n';
  for (const auto& row : rows_) out += render_line([&](std::size_t c) { return row[c]; });
  return out;
}

}  // namespace ks::report
