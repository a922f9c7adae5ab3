#pragma once
// Compiling and linking a GLSL program, with the driver's log in the error when it fails.
#include <string_view>

#include "render/gl/gl_objects.hpp"

namespace ks::ui::gl {

// `name` appears in errors ("the image shader"). Throws an Internal error with the compile or link log: the
// shaders ship inside the program, so a failure is ours (or the driver's), not the user's.
Program link_program(std::string_view name, std::string_view vertex_source, std::string_view fragment_source);

GLint uniform(const Program& program, const char* name);  // -1 when the shader has none of that name

}  // namespace ks::ui::gl
