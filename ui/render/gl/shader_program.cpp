#include "render/gl/shader_program.hpp"

#include <string>

#include "core/error.hpp"

namespace ks::ui::gl {

namespace {

std::string info_log(GLuint object, bool is_program) {
  GLint length = 0;
  if (is_program) glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
  else glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
  std::string log(std::size_t(std::max(length, 1)), '\0');
  if (is_program) glGetProgramInfoLog(object, length, nullptr, log.data());
  else glGetShaderInfoLog(object, length, nullptr, log.data());
  return log.c_str();
}

// A compiled shader stage; it only has to live until the program is linked.
class Shader {
 public:
  Shader(GLenum stage, std::string_view source, std::string_view name) : id_(glCreateShader(stage)) {
    const char* text = source.data();
    const GLint length = GLint(source.size());
    glShaderSource(id_, 1, &text, &length);
    glCompileShader(id_);
    GLint ok = 0;
    glGetShaderiv(id_, GL_COMPILE_STATUS, &ok);
    if (!ok)
      throw Error(ErrorKind::Internal, std::string(name) + (stage == GL_VERTEX_SHADER ? " (vertex)" : " (fragment)") +
                                           " did not compile: " + info_log(id_, false),
                  "GL " + version_text() + " on " + renderer_name() + "; kernelscope needs GL 3.3 core");
  }
  ~Shader() { glDeleteShader(id_); }
  Shader(const Shader&) = delete;
  Shader& operator=(const Shader&) = delete;
  GLuint id() const { return id_; }

 private:
  GLuint id_;
};

}  // namespace

Program link_program(std::string_view name, std::string_view vertex_source, std::string_view fragment_source) {
  const Shader vs(GL_VERTEX_SHADER, vertex_source, name);
  const Shader fs(GL_FRAGMENT_SHADER, fragment_source, name);
  Program program;
  glAttachShader(program.id(), vs.id());
  glAttachShader(program.id(), fs.id());
  glLinkProgram(program.id());
  GLint ok = 0;
  glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
  if (!ok) throw Error(ErrorKind::Internal, std::string(name) + " did not link: " + info_log(program.id(), true));
  glDetachShader(program.id(), vs.id());
  glDetachShader(program.id(), fs.id());
  return program;
}

GLint uniform(const Program& program, const char* name) { return glGetUniformLocation(program.id(), name); }

}  // namespace ks::ui::gl
