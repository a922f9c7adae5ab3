#pragma once
// The families a user's kernel can belong to, and the contract of each: the exact parameters its entry takes,
// checked against the compiled entry's parameter types (as the compiler mangled them, so typedefs and spacing do
// not matter). README "Your own kernel" documents the same contracts for users.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "usercode/declarations.hpp"

namespace ks::usercode {

enum class Family { Stencil, Array, Step };

const char* to_string(Family f) noexcept;
std::optional<Family> family_from_string(std::string_view name);
// "stencil, array, step"
std::string family_names();
Family parse_family(std::string_view name);  // Usage Error naming the families otherwise

// The family's accepted signatures in words, one per line (for errors and help).
std::string contract_text(Family f);

// Empty when an entry taking `parameter_types` (demangled, e.g. "float const*", "ks::InImage<float>") fits the
// family with the declared parameters after its fixed ones; otherwise which parameter differs and what the
// contract wants there, e.g. "parameter 2 is `float*`; the stencil contract wants `ks::OutImage<float>` (the
// output image, same element type as the input)".
std::string contract_mismatch(Family f, const std::vector<std::string>& parameter_types,
                              const std::vector<DeclaredParameter>& declared);

}  // namespace ks::usercode
