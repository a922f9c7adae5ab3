#pragma once
// The small template language of the built-ins' copies (assets/kernels/copies/*.cu): `{{NAME}}` is replaced by
// its value, and a line holding only `{{if NAME}}`, `{{else}}` or `{{end}}` keeps or drops the lines up to the
// next one by whether NAME is among the conditions (blocks nest). Anything else is copied as it is.
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace ks::copies {

// The template's text with every placeholder replaced and every block decided. A placeholder with no value, an
// `{{else}}` or `{{end}}` without its `{{if}}`, or an `{{if}}` never ended is an internal Error naming the line
// (the templates ship with the program, so it is a bug, not a user's mistake).
std::string expand_template(std::string_view text, const std::map<std::string, std::string>& values,
                            const std::set<std::string>& conditions);

// `text` as comment lines of at most `width` columns: words moved to a next line that starts with "// " (the
// first line's "// " is the template's). A word longer than a line keeps a line of its own.
std::string comment_lines(std::string_view text, std::size_t width = 110);

// The fewest significant digits that read back as the same float ("0.2", "0.111111112"), and the same as a C++
// float literal ("0.2f", "1.0f"): the copies' numbers are the built-in's floats exactly.
std::string float_text(float v);
std::string float_literal(float v);

}  // namespace ks::copies
