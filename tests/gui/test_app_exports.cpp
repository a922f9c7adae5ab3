// Exports from the desktop app under Xvfb: the result with its sidecar, the timings, and the question before a
// file is replaced — "no" leaves the files as they were, "yes" replaces image and sidecar together. No temporary
// file stays behind.
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/image.hpp"
#include "gui_app_fixture.hpp"
#include "io/image_io.hpp"

namespace ks::test {
namespace {

nlohmann::json sidecar(const std::filesystem::path& image) {
  std::ifstream f(image.string() + ".json");
  return nlohmann::json::parse(f);
}

TEST_F(GuiApp, ExportsAskBeforeReplacingAndKeepImageAndSidecarTogether) {
  const AppRun run = run_script(
      "kernel box\nrun\n"
      "export a.png\nexport b.png\n"
      "kernel sobel\nrun\n"
      "overwrite no\nexport a.png\n"
      "overwrite yes\nexport b.png 16\n"
      "export-timings timings.csv\n"
      "quit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_NE(run.out.find("question: Replace files? a.png, a.png.json -> no"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("question: Replace files? b.png, b.png.json -> yes"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("question: Replace files? timings.csv"), std::string::npos) << "a new file needs no question";

  EXPECT_EQ(sidecar(path("a.png"))["run"]["kernel"], "box") << "'no' kept the old export";
  EXPECT_EQ(load_image(path("a.png")).type(), ElemType::U8);
  const auto b = sidecar(path("b.png"));
  EXPECT_EQ(b["run"]["kernel"], "sobel");
  EXPECT_EQ(b["output"]["format"], "png16");
  EXPECT_EQ(b["input"]["file"], "embedded sample");
  const Image deep = load_image(path("b.png"));
  EXPECT_EQ(deep.type(), ElemType::U16);
  EXPECT_EQ(deep.width(), 1024);

  std::ifstream csv(path("timings.csv"));
  std::string header;
  std::getline(csv, header);
  EXPECT_NE(header.find("kernel"), std::string::npos) << header;
  int rows = 0;
  for (std::string line; std::getline(csv, line);) rows += !line.empty();
  EXPECT_GE(rows, 2) << "a box run and a sobel run at least";

  for (const auto& entry : std::filesystem::directory_iterator(path("")))
    EXPECT_NE(entry.path().filename().string().rfind(".a.png", 0), 0u) << "a staging file stayed: " << entry.path();
}

// A message longer than the room left of the status bar's fields ends in "..." there, instead of being cut
// against them mid-word (issue 23: "PNG (8CPU (2 threads)..."); the whole of it stays the tooltip.
TEST_F(GuiApp, ALongStatusMessageIsElidedBeforeTheFields) {
  const std::string name = std::string(180, 'n') + ".png";
  const AppRun run = run_script("kernel box\nrun\nexport " + path(name).string() + "\nprint-status\nquit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const std::string status = line_starting(run.out, "status ");
  const std::size_t shown_at = status.find(" message_shown="), whole_at = status.find(" message=");
  ASSERT_NE(shown_at, std::string::npos) << status;
  ASSERT_NE(whole_at, std::string::npos) << status;
  const std::string shown = status.substr(shown_at + 15, whole_at - shown_at - 15);
  const std::string whole = status.substr(whole_at + 9);
  EXPECT_NE(whole.find(name), std::string::npos) << "the message names the file: " << whole;
  EXPECT_LT(shown.size(), whole.size()) << status;
  EXPECT_EQ(shown.substr(shown.size() - 3), "\u2026") << "ends in an ellipsis: " << shown;
}

// Issue 23: the result's save dialog opened in the last folder of any dialog (the traffic file's after one was
// opened). It opens in the input image's folder until a result was saved, then in the folder of the last save;
// opening files moves neither. A name typed without a folder lands in the folder the dialog opened in.
TEST_F(GuiApp, SaveDialogsOpenWhereResultsWentElseBesideTheInputImage) {
  for (const char* folder : {"photos", "traffic", "results"}) std::filesystem::create_directories(path(folder));
  const auto image = path("photos") / "card.png";
  save_image(random_image(97, 61, 3, ElemType::U8, 1), image);
  std::ofstream(path("traffic") / "traffic.csv") << "timestamp,src,dst,value\n0,a,b,5\n0,a,c,7\n1,c,d,2\n";
  const AppRun run = run_script(
      "open " + image.string() + "\n"
      "kernel box\nrun\n"
      "drop " + (path("traffic") / "traffic.csv").string() + "\n"
      "save-as first.png\n"
      "menu File/Export result image...\n"
      "save-as " + (path("results") / "second.png").string() + "\n"
      "menu File/Export result image...\n"
      "drop " + (path("traffic") / "traffic.csv").string() + "\n"
      "save-as third.png\n"
      "menu File/Export result image...\n"
      "save-as shot.png\n"
      "menu File/Save screenshot...\n"
      "quit\n");
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  EXPECT_TRUE(std::filesystem::exists(path("photos") / "first.png")) << "beside the input image: " << run.out;
  EXPECT_TRUE(std::filesystem::exists(path("results") / "second.png")) << run.out;
  EXPECT_TRUE(std::filesystem::exists(path("results") / "third.png")) << "where the last result went: " << run.out;
  EXPECT_TRUE(std::filesystem::exists(path("results") / "shot.png")) << run.out;
  for (const char* name : {"first.png", "third.png", "shot.png"})
    EXPECT_FALSE(std::filesystem::exists(path("traffic") / name)) << name;
  EXPECT_NE(run.out.find("question: Dialog Export result image -> " + (path("photos") / "first.png").string()),
            std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace ks::test
