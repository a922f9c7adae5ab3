#include "registry/params.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks {

namespace {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Numbers print without trailing zeros so ranges read as the user would type them.
std::string number_text(double v) { return fmt::format("{}", v); }

bool parse_double(const std::string& text, double& out) {
  std::string t = trim(text);
  if (t.empty()) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(t.c_str(), &end);
  return errno == 0 && end == t.c_str() + t.size() && std::isfinite(out);
}

}  // namespace

Matrix parse_matrix(const std::string& text) {
  Matrix m;
  std::stringstream rows(text);
  std::string row_text;
  int row_index = 0;
  while (std::getline(rows, row_text, ';')) {
    ++row_index;
    std::string r = row_text;
    std::replace(r.begin(), r.end(), ',', ' ');
    std::stringstream cells(r);
    std::string cell;
    int cols = 0;
    while (cells >> cell) {
      double v;
      if (!parse_double(cell, v))
        throw_usage(fmt::format("matrix row {}: '{}' is not a number", row_index, cell),
                    "write rows of numbers separated by ',' and rows separated by ';', e.g. \"1,2,1; 2,4,2; 1,2,1\"");
      m.values.push_back(v);
      ++cols;
    }
    if (cols == 0) {
      if (trim(row_text).empty() && rows.eof()) break;  // a trailing ';'
      throw_usage(fmt::format("matrix row {} is empty", row_index), "remove the extra ';'");
    }
    if (m.cols == 0) m.cols = cols;
    if (cols != m.cols)
      throw_usage(fmt::format("matrix row {} has {} values but row 1 has {}", row_index, cols, m.cols),
                  "give every row the same number of values");
    ++m.rows;
  }
  if (m.rows == 0) throw_usage("the matrix is empty", "give at least one value, e.g. \"0,1,0; 1,-4,1; 0,1,0\"");
  return m;
}

std::string format_matrix(const Matrix& m) {
  std::string s;
  for (int r = 0; r < m.rows; ++r) {
    if (r) s += "; ";
    for (int c = 0; c < m.cols; ++c) {
      if (c) s += ",";
      s += number_text(m.values[std::size_t(r) * m.cols + c]);
    }
  }
  return s;
}

std::string ParamSpec::range_text() const {
  switch (type) {
    case ParamType::Int:
    case ParamType::Float:
      return number_text(min) + " .. " + number_text(max);
    case ParamType::Bool:
      return "true|false";
    case ParamType::Choice: {
      std::string s;
      for (const auto& c : choices) s += (s.empty() ? "" : "|") + c;
      return s;
    }
    case ParamType::Matrix:
      return fmt::format("odd rows x odd columns, up to {}x{}", matrix_max_size, matrix_max_size);
    case ParamType::Text:
      return text_syntax.empty() ? "text" : text_syntax;
  }
  return {};
}

ParamSet::ParamSet(const std::vector<ParamSpec>& specs) : specs_(specs) {
  for (const auto& s : specs_) values_[s.name] = parse(s, s.default_text);
}

const ParamSpec& ParamSet::spec(const std::string& name) const {
  for (const auto& s : specs_)
    if (s.name == name) return s;
  std::string known;
  for (const auto& s : specs_) known += (known.empty() ? "" : ", ") + s.name;
  throw_usage(fmt::format("unknown parameter '{}'", name),
              known.empty() ? "this kernel takes no parameters" : "its parameters are: " + known);
}

ParamValue ParamSet::parse(const ParamSpec& s, const std::string& raw) const {
  const std::string text = trim(raw);
  auto out_of_range = [&](const std::string& shown) {
    throw_usage(fmt::format("{}={} is out of range", s.name, shown), fmt::format("allowed: {}", s.range_text()));
  };
  switch (s.type) {
    case ParamType::Int: {
      double v;
      if (!parse_double(text, v) || v != std::floor(v))
        throw_usage(fmt::format("{}='{}' is not a whole number", s.name, raw),
                    fmt::format("allowed: {}", s.range_text()));
      if (v < s.min || v > s.max) out_of_range(text);
      return static_cast<long long>(v);
    }
    case ParamType::Float: {
      double v;
      if (!parse_double(text, v))
        throw_usage(fmt::format("{}='{}' is not a number", s.name, raw), fmt::format("allowed: {}", s.range_text()));
      if (v < s.min || v > s.max) out_of_range(text);
      return v;
    }
    case ParamType::Bool: {
      std::string t = text;
      std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
      if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
      if (t == "false" || t == "0" || t == "no" || t == "off") return false;
      throw_usage(fmt::format("{}='{}' is not true or false", s.name, raw), "write true or false");
    }
    case ParamType::Choice: {
      if (std::find(s.choices.begin(), s.choices.end(), text) == s.choices.end())
        throw_usage(fmt::format("{}='{}' is not one of the choices", s.name, raw),
                    fmt::format("allowed: {}", s.range_text()));
      return text;
    }
    case ParamType::Matrix: {
      Matrix m = parse_matrix(text);
      if (m.rows % 2 == 0 || m.cols % 2 == 0 || m.rows > s.matrix_max_size || m.cols > s.matrix_max_size)
        throw_usage(fmt::format("{} is {}x{}", s.name, m.rows, m.cols),
                    fmt::format("allowed: {} (the centre must be a single cell)", s.range_text()));
      return m;
    }
    case ParamType::Text: {
      if (!s.check_text) return text;
      try {
        return s.check_text(text);
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::Usage) throw;
        throw Error(ErrorKind::Usage, fmt::format("{}='{}': {}", s.name, raw, e.what()), e.hint());
      }
    }
  }
  throw Error(ErrorKind::Internal, "unhandled parameter type");
}

void ParamSet::set(const std::string& name, const std::string& text) {
  const ParamSpec& s = spec(name);
  values_[name] = parse(s, text);
  user_set_[name] = true;
}

void ParamSet::set_assignment(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw_usage(fmt::format("'{}' is not NAME=VALUE", assignment), "write e.g. --param radius=2");
  set(trim(assignment.substr(0, eq)), assignment.substr(eq + 1));
}

const ParamValue& ParamSet::value(const std::string& name) const {
  spec(name);  // throws for unknown names
  return values_.at(name);
}

long long ParamSet::get_int(const std::string& name) const {
  const auto& v = value(name);
  if (auto p = std::get_if<long long>(&v)) return *p;
  throw Error(ErrorKind::Internal, "parameter '" + name + "' is not an integer");
}

double ParamSet::get_float(const std::string& name) const {
  const auto& v = value(name);
  if (auto p = std::get_if<double>(&v)) return *p;
  if (auto p = std::get_if<long long>(&v)) return double(*p);
  throw Error(ErrorKind::Internal, "parameter '" + name + "' is not a number");
}

bool ParamSet::get_bool(const std::string& name) const {
  const auto& v = value(name);
  if (auto p = std::get_if<bool>(&v)) return *p;
  throw Error(ErrorKind::Internal, "parameter '" + name + "' is not a boolean");
}

const std::string& ParamSet::get_choice(const std::string& name) const {
  const auto& v = value(name);
  if (auto p = std::get_if<std::string>(&v)) return *p;
  throw Error(ErrorKind::Internal, "parameter '" + name + "' is not a choice");
}

const Matrix& ParamSet::get_matrix(const std::string& name) const {
  const auto& v = value(name);
  if (auto p = std::get_if<Matrix>(&v)) return *p;
  throw Error(ErrorKind::Internal, "parameter '" + name + "' is not a matrix");
}

const std::string& ParamSet::get_text(const std::string& name) const {
  const auto& v = value(name);
  if (auto p = std::get_if<std::string>(&v)) return *p;
  throw Error(ErrorKind::Internal, "parameter '" + name + "' is not text");
}

std::vector<std::pair<std::string, std::string>> ParamSet::as_text() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& s : specs_) {
    const auto& v = values_.at(s.name);
    std::string text = std::visit(
        [](const auto& x) -> std::string {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, long long>) return std::to_string(x);
          else if constexpr (std::is_same_v<T, double>) return number_text(x);
          else if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
          else if constexpr (std::is_same_v<T, std::string>) return x;
          else return format_matrix(x);
        },
        v);
    out.emplace_back(s.name, text);
  }
  return out;
}

namespace {
ParamSpec number_param(ParamType type, std::string name, double min, double max, std::string def, std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = type;
  s.min = min;
  s.max = max;
  s.default_text = std::move(def);
  s.help = std::move(help);
  return s;
}
}  // namespace

ParamSpec int_param(std::string name, double min, double max, std::string def, std::string help) {
  return number_param(ParamType::Int, std::move(name), min, max, std::move(def), std::move(help));
}
ParamSpec float_param(std::string name, double min, double max, std::string def, std::string help) {
  return number_param(ParamType::Float, std::move(name), min, max, std::move(def), std::move(help));
}
ParamSpec choice_param(std::string name, std::vector<std::string> choices, std::string def, std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::Choice;
  s.choices = std::move(choices);
  s.default_text = std::move(def);
  s.help = std::move(help);
  return s;
}

}  // namespace ks
