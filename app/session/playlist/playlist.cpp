#include "session/playlist/playlist.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "assets.hpp"
#include "core/error.hpp"
#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "registry/registry.hpp"
#include "session/display_frame.hpp"
#include "session/playlist/user_kernel_fit.hpp"
#include "session/simulation/life_pattern_files.hpp"
#include "usercode/declarations.hpp"
#include "usercode/run/user_params.hpp"
#include "usercode/source_text.hpp"
#include "session/playlist/sidebar_sections.hpp"
#include "session/session.hpp"
#include "sim/life_patterns.hpp"
#include "sim/sim_memory.hpp"

namespace ks::app {

namespace {

using nlohmann::json;

constexpr std::size_t kLabelLength = 48;
constexpr int kMaxBlockThreads = 1024;  // what every CUDA GPU allows per block
constexpr const char* kStepKeys =
    "open, pattern, kernel, backend, variant, type, block, params, panels, split, colormap, play, steps, "
    "grid, kernel_file, kernel_params, sections, caption";
constexpr long long kMaxGridSide = sim::kMaxGridSide;  // SimulationRunner::set_grid_size's limit

// Where in the text a parse error's byte offset lies: "line 4, column 12".
std::string line_and_column(std::string_view text, std::size_t byte) {
  byte = std::min(byte, text.size());
  const std::string_view before = text.substr(0, byte);
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  const std::size_t last_newline = before.rfind('\n');
  const std::size_t column = last_newline == std::string_view::npos ? byte : byte - last_newline - 1;
  return fmt::format("line {}, column {}", line, std::max<std::size_t>(column, 1));
}

std::string shortened(std::string text) {
  if (text.size() > kLabelLength) text = text.substr(0, kLabelLength - 3) + "...";
  return text;
}

std::string text_of(const json& j, const char* key) {
  if (!j.is_string()) throw_usage(fmt::format("'{}' must be text, not {}", key, j.dump()));
  return j.get<std::string>();
}

// A list of the sidebar's section names ("why", "timing"); a usage Error names the known ones.
std::vector<std::string> sections_of(const json& j) {
  if (!j.is_array()) throw_usage("'sections' must be a list of section names, not " + j.dump(),
                                 fmt::format("sections: {}", kSidebarSectionList));
  std::vector<std::string> names;
  for (const json& name : j) {
    const std::string n = text_of(name, "sections");
    if (std::find(kSidebarSections.begin(), kSidebarSections.end(), n) == kSidebarSections.end())
      throw_usage(fmt::format("'sections': no section '{}'", n), fmt::format("sections: {}", kSidebarSectionList));
    names.push_back(n);
  }
  return names;
}

bool bool_of(const json& j, const char* key) {
  if (!j.is_boolean()) throw_usage(fmt::format("'{}' must be true or false, not {}", key, j.dump()));
  return j.get<bool>();
}

// A parameter's value as ParamSet takes it: text as it is, numbers and booleans as JSON writes them.
std::string param_text(const std::string& name, const json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number() || j.is_boolean()) return j.dump();
  throw_usage(fmt::format("parameter '{}' must be a number, text or true/false, not {}", name, j.dump()));
}

std::string caption_of(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_array()) {  // a list of lines reads better in JSON than "\n" escapes
    std::string text;
    for (const json& line : j) {
      if (!text.empty()) text += '\n';
      text += text_of(line, "caption");
    }
    return text;
  }
  throw_usage("'caption' must be text or a list of lines, not " + j.dump());
}

bool looks_like_file(const std::string& spec) {
  return is_life_pattern_file(spec) || spec.find('/') != std::string::npos ||
         spec.find('\\') != std::string::npos;
}

std::string resolved(const std::string& path, const std::filesystem::path& base_dir, const char* what) {
  std::filesystem::path p(path);
  if (p.is_relative()) p = base_dir / p;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec))
    throw_usage(
        fmt::format("{} '{}': no such file (looked for {})", what, path, p.lexically_normal().string()));
  return p.lexically_normal().string();
}

// What a step without a caption is called in the step list and in errors.
std::string summary_of(const PlaylistStep& s) {
  std::string text;
  auto add = [&](const std::string& part) {
    if (!text.empty()) text += ", ";
    text += part;
  };
  if (s.open) add("open " + std::filesystem::path(*s.open).filename().string());
  if (s.pattern) add("pattern " + std::filesystem::path(*s.pattern).filename().string());
  if (s.kernel) add(*s.kernel);
  if (s.variant) add(*s.variant);
  if (s.block) add("block " + *s.block);
  if (s.kernel_file)
    add(s.kernel_file->empty() ? "the built-in kernel" : std::filesystem::path(*s.kernel_file).filename().string());
  return text.empty() ? "(no changes)" : text;
}

// What the valid steps before leave in effect, for the checks of the next one.
struct InEffect {
  const KernelSpec* kernel = nullptr;
  std::optional<usercode::Family> user_kernel;  // the family of the user's kernel running, if one is
};

// A user kernel named in this step must fit the kernel in effect after it; one named before gives way to a
// kernel chosen now that it does not fit (as the app's Kernel section does), and the player ends it there too.
void check_user_kernel(const PlaylistStep& s, InEffect& now) {
  if (s.kernel_file) now.user_kernel = s.kernel_file->empty() ? std::nullopt : std::optional(s.kernel_family);
  if (!now.user_kernel || !now.kernel) return;
  if (s.kernel_file) {
    const std::string why = user_kernel_misfit(s.kernel_family, *now.kernel,
                                               std::filesystem::path(*s.kernel_file).filename().string());
    if (!why.empty()) throw_usage(why, "choose a kernel it fits in the same step, or give it \"kernel_file\": null");
  } else if (!user_kernel_fits(*now.user_kernel, *now.kernel)) {
    now.user_kernel.reset();
  }
}

// The checks that need the registry, against the kernel in effect at this step (`kernel`, updated here).
void check_against_registry(PlaylistStep& s, const KernelSpec*& kernel) {
  const KernelRegistry& registry = KernelRegistry::builtin();
  if (s.pattern) {
    if (s.kernel && *s.kernel != "life")
      throw_usage(fmt::format("'pattern' starts Life, and the step also chooses kernel '{}'", *s.kernel));
    if (!is_life_pattern_file(*s.pattern)) sim::builtin_pattern(*s.pattern);  // a usage Error lists the names
    kernel = &registry.get("life");
  }
  if (s.kernel) {
    const KernelSpec& spec = registry.get(*s.kernel);  // a usage Error lists the ids
    if (!Session::can_run(spec))
      throw_usage(fmt::format("kernel '{}' ({}) does not run in the app", spec.id, spec.category));
    kernel = &spec;
  }
  if (!kernel && (s.variant || !s.params.empty() || s.play || s.steps || s.grid))
    throw_usage(
        "'variant', 'params', 'play', 'steps' and 'grid' need a 'kernel' in this step or an earlier one");
  if (s.variant && !kernel->find_variant(*s.variant)) {
    std::string known;
    for (const VariantSpec& v : kernel->variants) {
      if (!known.empty()) known += ", ";
      known += v.name;
    }
    throw_usage(
        fmt::format("kernel '{}' has no variant '{}' (its variants: {})", kernel->id, *s.variant, known));
  }
  if (!s.params.empty()) {
    ParamSet params = kernel->default_params();
    for (const auto& [name, value] : s.params) params.set(name, value);  // a usage Error names what is wrong
  }
  if ((s.play || s.steps || s.grid) && kernel->category != "simulation")
    throw_usage(fmt::format(
        "'play', 'steps' and 'grid' apply to simulations (life, heat, grayscott), not '{}'", kernel->id));
}

void check_values(const PlaylistStep& s) {
  if (s.backend) backend_from_string(*s.backend);
  if (s.type) {
    const ElemType t = elem_type_from_string(*s.type);
    if (t != ElemType::U8 && t != ElemType::F32)
      throw_usage("'type' must be u8 or f32, not '" + *s.type + "'");
  }
  if (s.block && *s.block != "default") {
    const BlockShape b = parse_block_shape(*s.block);
    if (b.threads() > kMaxBlockThreads)
      throw_usage(fmt::format("block '{}' has {} threads, and a CUDA block holds at most {}", *s.block,
                              b.threads(), kMaxBlockThreads));
  }
  if (s.colormap) {
    const auto maps = ui::all_colormaps();
    if (std::none_of(maps.begin(), maps.end(),
                     [&](ui::Colormap m) { return ui::colormap_name(m) == *s.colormap; }))
      throw_usage("unknown colormap '" + *s.colormap + "' (gray, viridis, magma or diverging)");
  }
  if (s.steps && *s.steps < 1) throw_usage(fmt::format("'steps' must be 1 or more, not {}", *s.steps));
}

// Reads the keys of one step. Throws a usage Error for the first thing wrong; the step keeps what it read.
void read_step(const json& j, PlaylistStep& s, const std::filesystem::path& base_dir) {
  if (!j.is_object()) throw_usage("a step must be an object like {\"kernel\": \"box\"}, not " + j.dump());
  if (j.contains("caption")) s.caption = caption_of(j["caption"]);
  for (const auto& [key, value] : j.items()) {
    if (key == "caption") continue;
    if (key == "open") {
      const std::string v = text_of(value, "open");
      s.open = v == "sample" ? v : resolved(v, base_dir, "image");
    } else if (key == "pattern") {
      const std::string v = text_of(value, "pattern");
      s.pattern = looks_like_file(v) ? resolved(v, base_dir, "pattern file") : v;
    } else if (key == "kernel")
      s.kernel = text_of(value, "kernel");
    else if (key == "backend")
      s.backend = text_of(value, "backend");
    else if (key == "variant")
      s.variant = text_of(value, "variant");
    else if (key == "type")
      s.type = text_of(value, "type");
    else if (key == "block")
      s.block = text_of(value, "block");
    else if (key == "colormap")
      s.colormap = text_of(value, "colormap");
    else if (key == "panels")
      s.panels = bool_of(value, "panels");
    else if (key == "split")
      s.split = bool_of(value, "split");
    else if (key == "play")
      s.play = bool_of(value, "play");
    else if (key == "sections")
      s.sections = sections_of(value);
    else if (key == "steps") {
      if (!value.is_number_integer()) throw_usage("'steps' must be a whole number, not " + value.dump());
      s.steps = value.get<long long>();
    } else if (key == "grid") {
      const std::string v = text_of(value, "grid");
      int w = 0, h = 0;
      char x = 0, extra = 0;
      // The cells in all are the simulation's to check when the step runs (2^30 a byte or a float per cell, up to
      // 65536^2 for Life's packed variants), as for a grid typed in the Simulation section.
      if (std::sscanf(v.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || x != 'x' || w < 1 || h < 1 ||
          w > kMaxGridSide || h > kMaxGridSide)
        throw_usage("grid '" + v + "' is not WxH cells (e.g. \"200x120\", 1 .. 65536 a side)");
      s.grid = std::pair(w, h);
    } else if (key == "kernel_file") {
      s.kernel_file = value.is_null() ? std::string() : resolved(text_of(value, "kernel_file"), base_dir, "kernel file");
    } else if (key == "kernel_params") {
      if (!value.is_object())
        throw_usage("'kernel_params' must be an object like {\"strength\": 0.5}, not " + value.dump());
      for (const auto& [name, v] : value.items()) s.kernel_params.emplace_back(name, param_text(name, v));
    } else if (key == "params") {
      if (!value.is_object())
        throw_usage("'params' must be an object like {\"radius\": 3}, not " + value.dump());
      for (const auto& [name, v] : value.items()) s.params.emplace_back(name, param_text(name, v));
    } else {
      throw_usage(fmt::format("unknown key '{}' (a step may have: {})", key, kStepKeys));
    }
  }
  if (s.open && s.pattern) throw_usage("a step opens an image or a Life pattern, not both");
  if (!s.kernel_params.empty() && (!s.kernel_file || s.kernel_file->empty()))
    throw_usage("'kernel_params' go with the 'kernel_file' of the same step");
  if (s.kernel_file && !s.kernel_file->empty()) {
    // Read and its declarations checked now (a usage Error says what is wrong); compiled when the step shows.
    const usercode::KernelDeclarations declared =
        usercode::parse_declarations(usercode::read_kernel_source(*s.kernel_file), *s.kernel_file);
    if (declared.family) {
      const std::optional<usercode::Family> family = usercode::family_from_string(*declared.family);
      if (!family)
        throw_usage(fmt::format("{}:{}: unknown kernel family `{}`", *s.kernel_file, declared.family_line,
                                *declared.family),
                    "the families are " + usercode::family_names());
      s.kernel_family = *family;
    }
    std::vector<std::string> assignments;
    for (const auto& [name, value] : s.kernel_params) assignments.push_back(name + "=" + value);
    usercode::user_param_values(declared, assignments);
  }
  check_values(s);
}

}  // namespace

int Playlist::error_count() const {
  return int(std::count_if(steps.begin(), steps.end(), [](const PlaylistStep& s) { return !s.ok(); }));
}

Playlist parse_playlist(std::string_view json_text, const std::filesystem::path& base_dir,
                        std::string source) {
  json doc;
  try {
    doc = json::parse(json_text.begin(), json_text.end());
  } catch (const json::parse_error& e) {
    throw_usage(
        fmt::format("{}: not valid JSON at {}: {}", source, line_and_column(json_text, e.byte), e.what()),
        "check the commas and quotes there");
  }
  if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != kPlaylistSchema)
    throw_usage(fmt::format("{}: not a kernelscope playlist (its \"schema\" is {}, not \"{}\")", source,
                            doc.is_object() && doc.contains("schema") ? doc["schema"].dump() : "missing",
                            kPlaylistSchema));
  Playlist playlist;
  playlist.source = std::move(source);
  if (doc.contains("title") && doc["title"].is_string()) playlist.title = doc["title"].get<std::string>();
  if (playlist.title.empty()) playlist.title = std::filesystem::path(playlist.source).stem().string();
  if (!doc.contains("steps") || !doc["steps"].is_array() || doc["steps"].empty())
    throw_usage(playlist.source + ": a playlist needs \"steps\": a list of at least one step");

  InEffect in_effect;  // as the valid steps before leave it
  for (const json& j : doc["steps"]) {
    PlaylistStep s;
    s.number = int(playlist.steps.size()) + 1;
    try {
      read_step(j, s, base_dir);
      InEffect after = in_effect;
      check_against_registry(s, after.kernel);
      check_user_kernel(s, after);
      in_effect = after;  // a bad step changes nothing, for the later steps' checks as when they run
    } catch (const Error& e) {
      s.error = e.full_message();
    }
    s.label = shortened(s.caption.empty() ? summary_of(s) : s.caption.substr(0, s.caption.find('\n')));
    if (!s.ok()) s.error = fmt::format("step {} (\"{}\"): {}", s.number, s.label, s.error);
    playlist.steps.push_back(std::move(s));
  }
  return playlist;
}

Playlist load_playlist(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw_io("cannot read the playlist '" + file.string() + "'", "check the path");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_playlist(text.str(), file.parent_path(), file.string());
}

Playlist load_playlist_or_demo(const std::string& spec) {
  std::error_code ec;
  if (std::filesystem::exists(spec, ec)) return load_playlist(spec);
  std::string names;
  for (const embedded::DemoPlaylist& demo : embedded::demo_playlists()) {
    if (demo.name == spec)
      return parse_playlist(demo.text, std::filesystem::current_path(ec), "demo " + spec);
    if (!names.empty()) names += ", ";
    names += demo.name;
  }
  throw_io("no playlist file '" + spec + "'", "give a .json file or a demo playlist: " + names);
}

std::vector<std::string> demo_playlist_names() {
  std::vector<std::string> names;
  for (const embedded::DemoPlaylist& demo : embedded::demo_playlists()) names.emplace_back(demo.name);
  return names;
}

}  // namespace ks::app
