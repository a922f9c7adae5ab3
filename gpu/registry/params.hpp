#pragma once
// Parameters of a kernel, described once (ParamSpec) and read by the CLI (--param), the GUI (widgets),
// `list`, the tests and the benchmarks. Values are checked against the spec; nothing is clamped silently.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ks {

// Text: free text that `check_text` validates and puts in canonical form (e.g. a Life rule "B36/S23").
enum class ParamType { Int, Float, Bool, Choice, Matrix, Text };

// A small dense matrix of weights given by the user, e.g. "1,2,1; 2,4,2; 1,2,1" (rows separated by ';').
struct Matrix {
  int rows = 0;
  int cols = 0;
  std::vector<double> values;  // row-major
  bool operator==(const Matrix&) const = default;
};
Matrix parse_matrix(const std::string& text);  // throws a usage Error saying where the text is wrong
std::string format_matrix(const Matrix& m);

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::Float;
  std::string help;
  double min = 0;                    // Int, Float: inclusive range
  double max = 0;
  std::vector<std::string> choices;  // Choice
  std::string default_text;          // every type: the default as the user would type it
  int matrix_max_size = 15;          // Matrix: at most this many rows and columns, each odd
  // Text: returns the canonical form of a valid text or throws a usage Error saying what is wrong. `choices`
  // may list common values (a GUI offers them); `text_syntax` is what range_text() shows.
  std::function<std::string(const std::string&)> check_text;
  std::string text_syntax;

  std::string range_text() const;    // "1 .. 50", "replicate|reflect|...", "odd rows x odd cols up to 15x15"
};

using ParamValue = std::variant<long long, double, bool, std::string, Matrix>;

// Builders of the common kinds of parameter, for the kernel families' register_* functions.
ParamSpec int_param(std::string name, double min, double max, std::string def, std::string help);
ParamSpec float_param(std::string name, double min, double max, std::string def, std::string help);
ParamSpec choice_param(std::string name, std::vector<std::string> choices, std::string def, std::string help);

// The values of every parameter of one kernel: defaults first, then what the user set.
class ParamSet {
 public:
  ParamSet() = default;
  explicit ParamSet(const std::vector<ParamSpec>& specs);  // all defaults

  // Parses `text` for the parameter `name` and checks it against its spec; throws a usage Error naming the
  // parameter, the value and the allowed range.
  void set(const std::string& name, const std::string& text);
  // "name=value"
  void set_assignment(const std::string& assignment);

  long long get_int(const std::string& name) const;
  double get_float(const std::string& name) const;  // Int parameters read as float too
  bool get_bool(const std::string& name) const;
  const std::string& get_choice(const std::string& name) const;
  const Matrix& get_matrix(const std::string& name) const;
  const std::string& get_text(const std::string& name) const;  // Text parameters (canonical form)
  bool was_set(const std::string& name) const { return user_set_.count(name) != 0; }

  const std::vector<ParamSpec>& specs() const noexcept { return specs_; }
  // Name -> value as text, in spec order (for JSON sidecars, tables, reproducible command lines).
  std::vector<std::pair<std::string, std::string>> as_text() const;

 private:
  const ParamSpec& spec(const std::string& name) const;
  const ParamValue& value(const std::string& name) const;
  ParamValue parse(const ParamSpec& s, const std::string& text) const;

  std::vector<ParamSpec> specs_;
  std::map<std::string, ParamValue> values_;
  std::map<std::string, bool> user_set_;
};

}  // namespace ks
