// Traffic as CSV: the long form (timestamp,src,dst,value) and dense matrices (one per timestamp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "topo/inputs/numbers.hpp"
#include "topo/inputs/text_lines.hpp"
#include "topo/inputs/traffic_files.hpp"

namespace ks::topo {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

bool is_long_form_header(std::string_view line) {
  const auto f = split_fields(line, ',');
  return f.size() == 4 && lower(f[0]) == "timestamp" && lower(f[1]) == "src" && lower(f[2]) == "dst" &&
         lower(f[3]) == "value";
}

std::size_t first_content_line(const TextLines& text) {
  for (std::size_t i = 0; i < text.count(); ++i)
    if (!trim(text.line(i)).empty()) return i;
  return text.count();
}

// One value of a CSV cell: a number, zero or more.
struct Cell {
  double value;
  std::optional<Decimal> exact;
};
Cell read_cell(const TextLines& text, std::size_t line, const std::string& field, const std::string& what) {
  const auto v = parse_double(field);
  if (!v) text.fail(line, what + " '" + field + "' is not a number");
  if (*v < 0) text.fail(line, what + " " + field + " is negative", "traffic must be zero or more");
  return {*v, parse_decimal(field)};
}

void finish_values(TrafficSeries& t, const std::vector<Cell>& cells) {
  ExactValues values;
  for (const Cell& c : cells) values.add(c.value, c.exact);
  t.values = values.values();
  t.scaled = values.scaled();
  t.decimals = t.scaled ? values.decimals() : 0;
}

// A dense matrix file: its node names (or n0 .. n{n-1}) and its n x n cells.
struct DenseMatrix {
  std::vector<std::string> names;
  std::vector<Cell> cells;
};

DenseMatrix read_dense(const TextLines& text) {
  std::vector<std::pair<std::size_t, std::vector<std::string>>> rows;
  for (std::size_t i = 0; i < text.count(); ++i) {
    if (trim(text.line(i)).empty()) continue;
    rows.emplace_back(i, split_fields(text.line(i), ','));
  }
  if (rows.empty()) text.fail_file("the file is empty", "a dense traffic file holds an n x n matrix");
  DenseMatrix m;
  // A first row with something that is not a number is a header of node names.
  const auto& first = rows.front().second;
  const bool header = std::any_of(first.begin(), first.end(), [](const std::string& f) { return !parse_double(f); });
  bool row_names = false;
  if (header) {
    std::vector<std::string> names = first;
    rows.erase(rows.begin());
    // "",A,B,C over rows "A,1,2,3": the header's first cell labels the name column.
    if (!rows.empty() && rows.front().second.size() == names.size() && !parse_double(rows.front().second[0])) {
      row_names = true;
      names.erase(names.begin());
    }
    m.names = names;
  }
  const std::size_t n = header ? m.names.size() : rows.size();
  if (n < 2) text.fail_file("a matrix of " + std::to_string(n) + " node(s); placements need at least 2");
  if (rows.size() != n)
    text.fail_file(fmt::format("{} rows of values for {} nodes", rows.size(), n), "the matrix must be square");
  if (!header)
    for (std::size_t i = 0; i < n; ++i) m.names.push_back("n" + std::to_string(i));
  for (std::size_t r = 0; r < n; ++r) {
    const auto& [line, fields] = rows[r];
    std::size_t at = 0;
    if (row_names) {
      if (fields[0] != m.names[r])
        text.fail(line, "row '" + fields[0] + "' where the header says '" + m.names[r] + "'",
                  "rows must come in the order of the header's names");
      at = 1;
    }
    if (fields.size() - at != n)
      text.fail(line, fmt::format("{} values in a row of a {} x {} matrix", fields.size() - at, n, n));
    for (std::size_t c = 0; c < n; ++c)
      m.cells.push_back(read_cell(text, line, fields[at + c], "value"));
  }
  return m;
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit((unsigned char)a[i]) && std::isdigit((unsigned char)b[j])) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit((unsigned char)a[ie])) ++ie;
      while (je < b.size() && std::isdigit((unsigned char)b[je])) ++je;
      std::string da = a.substr(i, ie - i), db = b.substr(j, je - j);
      da.erase(0, std::min(da.find_first_not_of('0'), da.size()));
      db.erase(0, std::min(db.find_first_not_of('0'), db.size()));
      if (da.size() != db.size()) return da.size() < db.size();
      if (da != db) return da < db;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

TrafficSeries read_traffic_csv_long(const std::filesystem::path& path) {
  TextLines text(path);
  const std::size_t head = first_content_line(text);
  if (head == text.count()) text.fail_file("the file is empty", "expected a header `timestamp,src,dst,value`");
  if (!is_long_form_header(text.line(head)))
    text.fail(head, "expected the header `timestamp,src,dst,value`");
  TrafficSeries t;
  t.source = path.string() + " (CSV long form)";
  std::map<std::string, std::size_t> ts_of, node_of;
  struct Entry {
    std::size_t t, src, dst, line;
    Cell cell;
  };
  std::vector<Entry> entries;
  auto id_of = [](std::map<std::string, std::size_t>& ids, std::vector<std::string>& names, const std::string& s) {
    auto [it, fresh] = ids.emplace(s, names.size());
    if (fresh) names.push_back(s);
    return it->second;
  };
  for (std::size_t i = head + 1; i < text.count(); ++i) {
    if (trim(text.line(i)).empty()) continue;
    const auto f = split_fields(text.line(i), ',');
    if (f.size() != 4) text.fail(i, fmt::format("{} fields; expected 4: timestamp,src,dst,value", f.size()));
    if (f[0].empty() || f[1].empty() || f[2].empty()) text.fail(i, "an empty timestamp or node name");
    const Cell cell = read_cell(text, i, f[3], "value");
    entries.push_back({id_of(ts_of, t.timestamps, f[0]), id_of(node_of, t.nodes, f[1]),
                       id_of(node_of, t.nodes, f[2]), i, cell});
  }
  if (entries.empty()) text.fail_file("no data rows after the header", "the traffic is empty");
  const std::size_t n = t.nodes.size();
  std::vector<Cell> cells(t.timestamps.size() * n * n, Cell{0.0, Decimal{0, 0}});
  std::vector<std::size_t> line_of(cells.size(), 0);
  for (const Entry& e : entries) {
    const std::size_t k = (e.t * n + e.src) * n + e.dst;
    if (line_of[k])
      text.fail(e.line, fmt::format("a second value for {} -> {} at {} (the first is on line {})", t.nodes[e.src],
                                    t.nodes[e.dst], t.timestamps[e.t], line_of[k]),
                "give each (timestamp, src, dst) once");
    line_of[k] = e.line + 1;
    cells[k] = e.cell;
  }
  finish_values(t, cells);
  return t;
}

TrafficSeries read_traffic_dense_file(const std::filesystem::path& path) {
  TextLines text(path);
  DenseMatrix m = read_dense(text);
  TrafficSeries t;
  t.source = path.string() + " (dense CSV)";
  t.nodes = std::move(m.names);
  t.timestamps = {path.stem().string()};
  finish_values(t, m.cells);
  return t;
}

TrafficSeries read_traffic_dense_folder(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".csv") files.push_back(entry.path());
  if (ec) throw_io("cannot list '" + folder.string() + "': " + ec.message());
  if (files.empty()) throw_io("'" + folder.string() + "' holds no .csv or .xml files", "expected one matrix per timestamp");
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return natural_less(a.filename().string(), b.filename().string());
  });
  TrafficSeries t;
  t.source = folder.string() + " (dense CSV, " + std::to_string(files.size()) + " files)";
  std::vector<Cell> cells;
  for (const auto& f : files) {
    TextLines text(f);
    DenseMatrix m = read_dense(text);
    if (t.nodes.empty()) t.nodes = m.names;
    if (m.names != t.nodes)
      text.fail_file(fmt::format("its {} nodes differ from the {} of {}", m.names.size(), t.nodes.size(),
                                 files.front().string()),
                     "every file of a folder must have the same nodes in the same order");
    t.timestamps.push_back(f.stem().string());
    cells.insert(cells.end(), m.cells.begin(), m.cells.end());
  }
  finish_values(t, cells);
  return t;
}

void write_traffic_csv_long(const TrafficSeries& t, const std::filesystem::path& path) {
  std::string out = "timestamp,src,dst,value\n";
  const std::size_t n = t.nodes.size();
  auto quoted = [](const std::string& s) {
    return s.find_first_of(",\"") == std::string::npos ? s : "\"" + s + "\"";
  };
  for (std::size_t ts = 0; ts < t.timestamps.size(); ++ts)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t k = (ts * n + i) * n + j;
        if (t.values[k] == 0) continue;
        const std::string value = t.scaled ? format_scaled((*t.scaled)[k], t.decimals) : fmt::format("{:.17g}", t.values[k]);
        out += quoted(t.timestamps[ts]) + "," + quoted(t.nodes[i]) + "," + quoted(t.nodes[j]) + "," + value + "\n";
      }
  write_text_atomically(path, out);
}

}  // namespace ks::topo
