#pragma once
// What a kernel source declares about itself in structured comments, read before compiling (the app builds its
// widgets from them; the contract check uses them). One declaration per line, anywhere in the file:
//   // @family stencil|array|step
//   // @entry NAME                          the __global__ function to run when the file has several
//   // @output array|scalar                 array family: n elements out, or one value (accumulated by the kernel)
//   // @param NAME int|float [MIN, MAX] = DEFAULT   optional description
// Parameters follow the family's fixed ones in the entry's signature, in the order declared.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::usercode {

enum class ParamType { Int, Float };
const char* to_string(ParamType t) noexcept;

struct DeclaredParameter {
  std::string name;
  ParamType type = ParamType::Float;
  double min = 0;
  double max = 0;
  double value = 0;  // the default
  std::string description;
  int line = 0;  // 1-based line of the declaration in the user's file
};

enum class OutputKind { Array, Scalar };

struct KernelDeclarations {
  std::optional<std::string> family;  // as written; checked by the family module
  int family_line = 0;
  std::string entry;
  int entry_line = 0;
  std::optional<OutputKind> output;
  std::vector<DeclaredParameter> parameters;
};

// Usage Error "FILE:LINE: what is wrong. how to write it" for a malformed declaration, an unknown type, a range
// whose minimum exceeds its maximum, a default outside its range, a non-integer bound of an int, a duplicate or
// invalid name, or a second @family/@entry/@output.
KernelDeclarations parse_declarations(std::string_view source, const std::string& file_name);

}  // namespace ks::usercode
