// Reading demo playlists: every step key, bad JSON with its line, another schema, and bad steps each reported
// with their number and reason while the other steps stay usable. The shipped playlists all pass.
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "session/playlist/playlist.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    return e.full_message();
  }
  ADD_FAILURE() << "no error";
  return {};
}

Playlist parse(const std::string& steps, const std::filesystem::path& dir = ".") {
  return parse_playlist(R"({"schema": "kernelscope.playlist/1", "title": "T", "steps": )" + steps + "}", dir,
                        "test.json");
}

TEST(PlaylistParse, ReadsEveryStepKey) {
  test::TempDir dir;
  std::ofstream(dir / "glider.rle") << "x = 3, y = 3\nbo$2bo$3o!\n";
  std::ofstream(dir / "photo.png") << "not read here";
  const Playlist p = parse(R"([
    {"open": "sample", "kernel": "box", "backend": "cpu", "variant": "tiled", "type": "f32", "block": "16x16",
     "params": {"radius": 3, "border": "reflect"}, "panels": false, "split": true, "colormap": "viridis",
     "caption": ["line one", "line two"]},
    {"open": "photo.png", "block": "default", "caption": "plain"},
    {"pattern": "glider.rle", "play": true, "steps": 10, "grid": "200x120"},
    {"pattern": "gosper-gun", "variant": "bitpacked"}
  ])",
                           dir.path());
  EXPECT_EQ(p.title, "T");
  ASSERT_EQ(p.steps.size(), 4u);
  EXPECT_EQ(p.error_count(), 0) << p.steps[0].error << p.steps[1].error << p.steps[2].error
                                << p.steps[3].error;
  const PlaylistStep& s = p.steps[0];
  EXPECT_EQ(s.number, 1);
  EXPECT_EQ(s.open, "sample");
  EXPECT_EQ(s.kernel, "box");
  EXPECT_EQ(s.backend, "cpu");
  EXPECT_EQ(s.variant, "tiled");
  EXPECT_EQ(s.type, "f32");
  EXPECT_EQ(s.block, "16x16");
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(s.params[0],
            (std::pair<std::string, std::string>{"border", "reflect"}));  // JSON keeps keys sorted
  EXPECT_EQ(s.params[1], (std::pair<std::string, std::string>{"radius", "3"}));
  EXPECT_EQ(s.panels, false);
  EXPECT_EQ(s.split, true);
  EXPECT_EQ(s.colormap, "viridis");
  EXPECT_EQ(s.caption, "line one\nline two");
  EXPECT_EQ(s.label, "line one");
  EXPECT_EQ(p.steps[1].open,
            (dir.path() / "photo.png").lexically_normal().string());  // against the file's folder
  EXPECT_EQ(p.steps[1].block, "default");
  EXPECT_EQ(p.steps[2].pattern, (dir.path() / "glider.rle").lexically_normal().string());
  EXPECT_EQ(p.steps[2].play, true);
  EXPECT_EQ(p.steps[2].steps, 10);
  EXPECT_EQ(p.steps[2].grid, std::pair(200, 120));
  EXPECT_EQ(p.steps[2].label, "pattern glider.rle");  // no caption: a summary
  EXPECT_EQ(p.steps[3].pattern, "gosper-gun");
}

TEST(PlaylistParse, BadJsonSaysWhereWithItsLine) {
  const std::string text =
      "{\n  \"schema\": \"kernelscope.playlist/1\",\n  \"steps\": [\n    {\"kernel\": \"box\",}\n  ]\n}";
  const std::string m = usage_message([&] { parse_playlist(text, ".", "show.json"); });
  EXPECT_NE(m.find("show.json: not valid JSON at line 4"), std::string::npos) << m;
}

TEST(PlaylistParse, AnotherSchemaOrNoStepsIsRefused) {
  EXPECT_NE(usage_message([] {
              parse_playlist(R"({"schema": "other/2", "steps": [{}]})", ".", "a.json");
            }).find("not a kernelscope playlist (its \"schema\" is \"other/2\""),
            std::string::npos);
  EXPECT_NE(usage_message([] { parse_playlist(R"({"steps": [{}]})", ".", "a.json"); }).find("is missing"),
            std::string::npos);
  EXPECT_NE(usage_message([] {
              parse_playlist(R"({"schema": "kernelscope.playlist/1", "steps": []})", ".", "a.json");
            }).find("at least one step"),
            std::string::npos);
}

TEST(PlaylistParse, BadStepsSayWhichAndWhyWhileTheOthersStayUsable) {
  const Playlist p = parse(R"([
    {"open": "sample", "kernel": "box", "caption": "Box"},
    {"kernel": "nosuch"},
    {"variant": "warp-magic"},
    {"params": {"radius": 999}},
    {"params": {"speed": 2}},
    {"block": "33x33", "caption": "tiled with a 33x33 block"},
    {"block": "wide"},
    {"open": "missing.png"},
    {"pattern": "no-such-pattern"},
    {"colormap": "rainbow"},
    {"play": true},
    {"split": "yes"},
    {"frobnicate": 1},
    "just text",
    {"type": "u16"},
    {"kernel": "life", "grid": "0x10"},
    {"variant": "separable", "caption": "Separable"}
  ])");
  ASSERT_EQ(p.steps.size(), 17u);
  EXPECT_EQ(p.error_count(), 15);
  EXPECT_TRUE(p.steps[0].ok()) << p.steps[0].error;
  EXPECT_TRUE(p.steps[16].ok()) << p.steps[16].error;  // the kernel of step 1 still holds
  auto error_of = [&](int number) { return p.steps[std::size_t(number - 1)].error; };
  auto says = [&](int number, const std::string& what) {
    EXPECT_NE(error_of(number).find(what), std::string::npos)
        << "step " << number << ": " << error_of(number);
    EXPECT_EQ(error_of(number).rfind("step " + std::to_string(number) + " (", 0), 0u) << error_of(number);
  };
  says(2, "nosuch");
  says(3, "kernel 'box' has no variant 'warp-magic' (its variants: cpu, naive, tiled, separable)");
  says(4, "radius");
  says(5, "speed");
  says(6, "step 6 (\"tiled with a 33x33 block\"): block '33x33' has 1089 threads");
  says(7, "wide");
  says(8, "image 'missing.png': no such file");
  says(9, "no-such-pattern");
  says(10, "unknown colormap 'rainbow'");
  says(11, "'play', 'steps' and 'grid' apply to simulations");
  says(12, "'split' must be true or false");
  says(13, "unknown key 'frobnicate'");
  says(14, "a step must be an object");
  says(15, "'type' must be u8 or f32");
  says(16, "grid '0x10' is not WxH cells");
}

// A grid follows the app's rule: up to 65536 a side, any number of cells in all (a Life world past 2^30 cells runs
// on a packed variant; which variant holds a grid is the simulation's to say when the step shows).
TEST(PlaylistParse, GridsTakeUpTo65536ASideAndWorldsPast2To30Cells) {
  const Playlist p = parse(R"([
    {"kernel": "life", "variant": "cpu_bitpacked", "grid": "32769x32768"},
    {"grid": "65536x65536"},
    {"grid": "65537x16"},
    {"grid": "16x65537"}
  ])");
  ASSERT_EQ(p.steps.size(), 4u);
  EXPECT_TRUE(p.steps[0].ok()) << p.steps[0].error;
  EXPECT_EQ(p.steps[0].grid, std::pair(32769, 32768));
  EXPECT_TRUE(p.steps[1].ok()) << p.steps[1].error;
  for (std::size_t i : {2u, 3u})
    EXPECT_NE(p.steps[i].error.find("1 .. 65536 a side"), std::string::npos) << p.steps[i].error;
}

TEST(PlaylistParse, ParamsAndVariantsNeedAKernelFirst) {
  const Playlist p = parse(R"([{"variant": "tiled"}, {"kernel": "gaussian"}, {"variant": "separable"}])");
  EXPECT_NE(p.steps[0].error.find("need a 'kernel' in this step or an earlier one"), std::string::npos);
  EXPECT_TRUE(p.steps[2].ok()) << p.steps[2].error;
}

TEST(PlaylistParse, AMissingFileIsAnIoErrorAndAnUnknownDemoListsTheDemos) {
  try {
    load_playlist_or_demo("no-such-playlist");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(e.full_message().find("naive-tiled-separable"), std::string::npos) << e.full_message();
  }
}

// Every playlist shipped in assets/playlists reads without a bad step, and is the one the app embeds.
TEST(PlaylistParse, TheShippedPlaylistsAllValidate) {
  const std::filesystem::path folder = std::filesystem::path(KS_SOURCE_DIR) / "assets" / "playlists";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    const Playlist p = load_playlist(entry.path());
    EXPECT_GE(p.steps.size(), 3u) << entry.path();
    for (const PlaylistStep& s : p.steps) {
      EXPECT_TRUE(s.ok()) << entry.path() << ": " << s.error;
      EXPECT_FALSE(s.caption.empty()) << entry.path() << " step " << s.number;
    }
    const Playlist demo = load_playlist_or_demo(entry.path().stem().string());  // embedded, same text
    EXPECT_EQ(demo.title, p.title);
  }
  EXPECT_EQ(files, 3);
  EXPECT_EQ(demo_playlist_names().size(), 3u);
}

}  // namespace
}  // namespace ks::app

namespace ks::app {
namespace {

TEST(PlaylistParse, AStepWithAKernelFileOfTheUsersIsCheckedWhenRead) {
  test::TempDir dir;
  std::filesystem::copy_file(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/smooth3x3.cu",
                             dir / "ours.cu");
  const Playlist p = parse(R"([
    {"open": "sample", "kernel": "box", "params": {"radius": 1}},
    {"kernel_file": "ours.cu", "kernel_params": {"strength": 0.5}, "caption": "Ours"},
    {"kernel_file": null},
    {"kernel_file": "missing.cu"},
    {"kernel_file": "ours.cu", "kernel_params": {"strength": 2}},
    {"kernel_file": "ours.cu", "kernel_params": {"sigma": 1}},
    {"kernel_params": {"strength": 0.5}}
  ])",
                           dir.path());
  ASSERT_EQ(p.steps.size(), 7u);
  EXPECT_TRUE(p.steps[1].ok()) << p.steps[1].error;
  EXPECT_EQ(p.steps[1].kernel_file, (dir / "ours.cu").lexically_normal().string());
  EXPECT_EQ(p.steps[1].kernel_params, (std::vector<std::pair<std::string, std::string>>{{"strength", "0.5"}}));
  EXPECT_TRUE(p.steps[2].ok()) << p.steps[2].error;
  EXPECT_EQ(p.steps[2].kernel_file, std::string());  // back to the built-in
  EXPECT_NE(p.steps[3].error.find("kernel file 'missing.cu': no such file"), std::string::npos) << p.steps[3].error;
  EXPECT_NE(p.steps[4].error.find("outside its declared range [0, 1]"), std::string::npos) << p.steps[4].error;
  EXPECT_NE(p.steps[5].error.find("no parameter `sigma`"), std::string::npos) << p.steps[5].error;
  EXPECT_NE(p.steps[6].error.find("'kernel_params' go with the 'kernel_file'"), std::string::npos)
      << p.steps[6].error;
}

}  // namespace
}  // namespace ks::app

namespace ks::app {
namespace {

void copy_template(const char* name, const std::filesystem::path& to) {
  std::filesystem::copy_file(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels" / name, to);
}

// Array (Lab) and step (simulation) kernels of the user's in a playlist: the family comes from the file's
// `// @family`, each must fit the kernel chosen with it, and a missing file, a family no one knows, parameters
// outside their range or a kernel of another kind are refused in words while the other steps stay usable.
TEST(PlaylistParse, StepsWithArrayAndStepKernelsOfTheUsersAreCheckedAgainstTheKernelTheyRunWith) {
  test::TempDir dir;
  copy_template("vecadd.cu", dir / "vecadd.cu");
  copy_template("life_step.cu", dir / "life_step.cu");
  std::ofstream(dir / "odd.cu") << "// @family blob\n__global__ void k() {}\n";
  const Playlist p = parse(R"([
    {"kernel": "vecadd"},
    {"kernel_file": "vecadd.cu", "kernel_params": {"scale": 2}},
    {"kernel": "box", "kernel_file": "vecadd.cu"},
    {"kernel": "life", "kernel_file": "life_step.cu", "kernel_params": {"birth": 3}},
    {"kernel": "grayscott", "kernel_file": "life_step.cu"},
    {"kernel": "heat", "kernel_file": "life_step.cu"},
    {"kernel": "box", "kernel_file": "life_step.cu"},
    {"kernel": "vecadd", "kernel_file": "no_such_step.cu"},
    {"kernel_file": "vecadd.cu", "kernel_params": {"scale": 11}},
    {"kernel_file": "odd.cu"},
    {"kernel": "reduce", "kernel_file": "vecadd.cu"}
  ])",
                           dir.path());
  ASSERT_EQ(p.steps.size(), 11u);
  EXPECT_TRUE(p.steps[1].ok()) << p.steps[1].error;
  EXPECT_EQ(p.steps[1].kernel_family, usercode::Family::Array);
  EXPECT_EQ(p.steps[1].kernel_file, (dir / "vecadd.cu").lexically_normal().string());
  EXPECT_NE(p.steps[2].error.find("vecadd.cu is an array kernel: it runs in the Lab on a lab kernel's inputs"),
            std::string::npos)
      << p.steps[2].error;
  EXPECT_NE(p.steps[2].error.find("not 'box' (stencil)"), std::string::npos) << p.steps[2].error;
  EXPECT_TRUE(p.steps[3].ok()) << p.steps[3].error;
  EXPECT_EQ(p.steps[3].kernel_family, usercode::Family::Step);
  EXPECT_NE(p.steps[4].error.find("Gray-Scott keeps two (u and v)"), std::string::npos) << p.steps[4].error;
  // heat takes a step kernel; that this one keeps u8 cells (life's) is told when the step shows, after compiling
  EXPECT_TRUE(p.steps[5].ok()) << p.steps[5].error;
  EXPECT_NE(p.steps[6].error.find("life_step.cu is a step kernel: it steps life (u8 cells) or heat (f32), not 'box'"),
            std::string::npos)
      << p.steps[6].error;
  EXPECT_NE(p.steps[7].error.find("kernel file 'no_such_step.cu': no such file"), std::string::npos)
      << p.steps[7].error;
  EXPECT_NE(p.steps[8].error.find("outside its declared range"), std::string::npos) << p.steps[8].error;
  EXPECT_NE(p.steps[9].error.find("odd.cu:1: unknown kernel family `blob`"), std::string::npos) << p.steps[9].error;
  // The failed steps changed nothing: heat is still in effect, and the step that chooses reduce with vecadd.cu
  // (an array kernel the Lab checks against reduce once compiled) reads.
  EXPECT_TRUE(p.steps[10].ok()) << p.steps[10].error;
  EXPECT_EQ(p.error_count(), 6);
}

// The example beside the templates (a teacher's "ours next to the built-in" for each family) reads whole.
TEST(PlaylistParse, TheYourOwnKernelsExampleValidates) {
  const Playlist p =
      load_playlist(std::filesystem::path(KS_SOURCE_DIR) / "assets" / "kernels" / "your-own-kernels.json");
  EXPECT_EQ(p.error_count(), 0) << (p.error_count() ? p.steps[0].error : "");
  for (const PlaylistStep& s : p.steps) EXPECT_TRUE(s.ok()) << s.error;
  std::vector<usercode::Family> families;
  for (const PlaylistStep& s : p.steps)
    if (s.kernel_file && !s.kernel_file->empty()) families.push_back(s.kernel_family);
  EXPECT_EQ(families, (std::vector<usercode::Family>{usercode::Family::Stencil, usercode::Family::Array,
                                                      usercode::Family::Step}));
}

TEST(PlaylistParse, AStepOpensSidebarSectionsByName) {
  const Playlist p = parse(R"([
    {"open": "sample", "kernel": "box", "sections": ["kernel", "why"]},
    {"sections": ["why", "reasons"]},
    {"sections": "why"}
  ])");
  ASSERT_TRUE(p.steps[0].ok()) << p.steps[0].error;
  EXPECT_EQ(p.steps[0].sections, (std::vector<std::string>{"kernel", "why"}));
  EXPECT_NE(p.steps[1].error.find("no section 'reasons'"), std::string::npos) << p.steps[1].error;
  EXPECT_NE(p.steps[1].error.find("why"), std::string::npos) << "the known sections are listed: " << p.steps[1].error;
  EXPECT_NE(p.steps[2].error.find("must be a list"), std::string::npos) << p.steps[2].error;
}

}  // namespace
}  // namespace ks::app
