#pragma once
// Number and shape formatting shared by the tables of every command, so that `run`, `bench` and `demo` print
// the same quantity the same way.
#include <cstdint>
#include <string>

#include "core/image.hpp"

namespace ks::report {

// Milliseconds with three significant digits at least ("0.0123", "1.23", "123.4").
std::string format_ms(double ms);
// Decimal units, matching GB/s: "512 B", "6.29 MB", "1.07 GB".
std::string format_bytes(std::uint64_t bytes);
// Binary units for memory sizes as the driver reports them: "79.1 GiB".
std::string format_memory(std::uint64_t bytes);
std::string format_gbps(double gbps);
// GFLOP/s like GB/s, and thousands as TFLOP/s-sized integers: "0.52", "12.3", "51234".
std::string format_gflops(double gflops);
// Operations per byte: "0.0625", "1.25", "170".
std::string format_intensity(double intensity);
// "83.4%", or "-" when there is nothing to compare with (the CPU backend has no measured copy bandwidth).
std::string format_percent(double percent);
// "3.52x", or "-" when undefined.
std::string format_speedup(double ratio);
// "1024x768, 4 ch, u8"
std::string format_shape(const ImageShape& shape);
// One CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& s);

}  // namespace ks::report

namespace ks::report {

// Breaks `text` at spaces into lines of at most `width` characters (longer words stay whole), each starting
// with `indent` spaces and ending with '\n'.
std::string wrap_text(const std::string& text, std::size_t width, std::size_t indent);

}  // namespace ks::report
