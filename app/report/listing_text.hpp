#pragma once
// A compiler listing (gpu/usercode/listing.hpp) for people and for programs: as text with the source interleaved,
// each place once before its instructions (the way `nvdisasm --print-line-info` and Compiler Explorer show it),
// and as JSON (`compile --listing-json`). The CLI's `compile --ptx/--sass` and the app's kernel editor show it.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "usercode/listing.hpp"

namespace ks::report {

// Per kernel a header, then, each time the place changes, the place ("  10 | if (i < n) ..." with the user's
// line's text the first time and "  10 | (again)" after; "(prelude)", "(CUDA header)", "(no source line)" for the
// others) and the instructions under it, indented.
std::string listing_text(const usercode::Listing& listing, std::string_view source);

// {"schema": "kernelscope.listing/1", "file", "kind": "PTX"|"SASS", "arch", "note", "kernels": [{"name",
// "mangled_name", "lines": [{"source_line", "origin": "user"|"prelude"|"header"|"none", "text"}]}]}
nlohmann::ordered_json listing_json(const usercode::Listing& listing, const std::string& file, const std::string& arch);

}  // namespace ks::report
