// Exports of the app: the result at full resolution with its JSON sidecar, and the timing history as CSV and
// JSON. Every file is written atomically; a failure leaves no partial or half-updated output.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "assets.hpp"
#include "core/error.hpp"
#include "cpu/session_support.hpp"
#include "io/image_io.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

using session_test::cpu_options;

// A session that ran box radius 2 on the sample.
std::unique_ptr<Session> ran_box() {
  auto s = std::make_unique<Session>(cpu_options());
  s->open_sample();
  s->set_param("radius", "2");
  s->run_now();
  return s;
}

// The window's export runs on the session's worker: the files appear once the job has run, the outcome is a
// notice (an error is one too, not a throw), and the result exported is the one of the request even when another
// run replaces it before the job starts.
TEST(ExportResult, InTheBackgroundSaysHowItWentAndKeepsTheResultOfTheRequest) {
  using Notice = Session::Notice;
  test::TempDir dir;
  auto s = ran_box();
  const Image box = convert_channels(*s->output(), 3);
  s->export_result_async(dir / "out.png");
  s->set_param("radius", "7");
  s->run_now();  // after the export's job, on the same worker
  s->wait_idle();
  s->poll();
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"out.png", "out.png.json"}));
  EXPECT_TRUE(test::images_match(load_image(dir / "out.png"), box, 0));
  EXPECT_FALSE(test::images_match(convert_channels(*s->output(), 3), box, 0)) << "radius 7 differs from 2";
  bool exported = false;
  for (const Notice& n : s->take_notices())
    exported |= n.source == Notice::Source::Export && n.level == Notice::Level::Info &&
                n.text.find("out.png") != std::string::npos;
  EXPECT_TRUE(exported);

  s->export_result_async(dir / "no-such-folder" / "x.png");
  s->wait_idle();
  s->poll();
  bool failed = false;
  for (const Notice& n : s->take_notices())
    failed |= n.source == Notice::Source::Export && n.level == Notice::Level::Error &&
              n.text.find("x.png") != std::string::npos;
  EXPECT_TRUE(failed);
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"out.png", "out.png.json"}));

  Session empty(session_test::cpu_options());
  try {
    empty.export_result_async(dir / "y.png");
    ADD_FAILURE() << "nothing to export, and no error";
  } catch (const Error& e) {
    EXPECT_EQ(int(e.kind()), int(ErrorKind::Usage)) << e.what();
  }
}

TEST(ExportResult, WritesTheResultInTheFilesLayoutAndASidecarThatSaysHowItWasMade) {
  test::TempDir dir;
  auto s = ran_box();
  s->export_result(dir / "out.png");
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"out.png", "out.png.json"}));

  // The sample is an RGB file: the RGBA result goes back to RGB, pixel for pixel.
  const Image saved = load_image(dir / "out.png");
  EXPECT_EQ(saved.shape(), (ImageShape{1024, 768, 3, ElemType::U8}));
  EXPECT_TRUE(test::images_match(saved, convert_channels(*s->output(), 3)));

  const auto j = nlohmann::json::parse(read_text(dir / "out.png.json"));
  EXPECT_EQ(j["schema"], "kernelscope.export/1");
  EXPECT_EQ(j["input"]["file"], "embedded sample");
  EXPECT_EQ(j["input"]["image"]["channels"], 3);
  EXPECT_EQ(j["output"]["file"], "out.png");
  EXPECT_EQ(j["output"]["format"], "png8");
  EXPECT_EQ(j["output"]["image"]["width"], 1024);
  const auto& run = j["run"];
  EXPECT_EQ(run["kernel"], "box");
  EXPECT_EQ(run["variant"], "cpu");
  EXPECT_EQ(run["backend"], "cpu");
  EXPECT_EQ(run["device"], "CPU (2 threads)");
  EXPECT_EQ(run["params"]["radius"], "2");
  EXPECT_EQ(run["params"]["border"], "reflect101");
  EXPECT_TRUE(run["block"].is_null()) << "no block on the CPU";
  EXPECT_EQ(run["timings_ms"]["kernel"]["count"], 2);
  EXPECT_DOUBLE_EQ(run["timings_ms"]["kernel"]["median"].get<double>(), s->last_report()->kernel_time.median_ms);
  EXPECT_EQ(j["history"]["runs"], 1);
  EXPECT_EQ(j["cpu_reference"]["identical"], true);
  EXPECT_DOUBLE_EQ(j["cpu_reference"]["speedup"].get<double>(), 1.0);
}

TEST(ExportResult, SixteenBitPngAndOtherFormats) {
  test::TempDir dir;
  auto s = ran_box();
  SaveOptions o;
  o.png_bit_depth = 16;
  s->export_result(dir / "deep.png", o);
  const Image deep = load_image(dir / "deep.png");
  EXPECT_EQ(deep.type(), ElemType::U16);
  EXPECT_EQ(nlohmann::json::parse(read_text(dir / "deep.png.json"))["output"]["format"], "png16");
  // 8-bit values widen exactly to 16 bits (v * 257).
  const Image expected = convert_type(convert_channels(*s->output(), 3), ElemType::U16);
  EXPECT_TRUE(test::images_match(deep, expected));
  s->export_result(dir / "out.bmp");
  EXPECT_EQ(load_image(dir / "out.bmp").width(), 1024);
  EXPECT_EQ(nlohmann::json::parse(read_text(dir / "out.bmp.json"))["output"]["format"], "bmp");
}

TEST(ExportResult, ARefusedExportWritesNothing) {
  test::TempDir dir;
  Session fresh(cpu_options());
  fresh.open_sample();
  EXPECT_THROW(fresh.export_result(dir / "early.png"), Error) << "no result yet";

  auto s = ran_box();
  try {
    s->export_result(dir / "out.xyz");
    FAIL() << "an unknown format was written";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find((dir / "out.xyz").string()), std::string::npos)
        << "the message names the file the user chose: " << e.what();
  }
  try {
    s->export_result(dir / "no-such-folder" / "out.png");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
  }
  EXPECT_TRUE(listing(dir.path()).empty());
}

TEST(ExportResult, WhenTheSidecarCannotBeWrittenTheOldImageStays) {
  test::TempDir dir;
  std::ofstream(dir / "out.png") << "the previous export";
  fs::create_directory(dir / "out.png.json");  // a folder where the sidecar should go: its write fails
  auto s = ran_box();
  try {
    s->export_result(dir / "out.png");
    FAIL() << "the export claimed success without its sidecar";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
  }
  EXPECT_EQ(read_text(dir / "out.png"), "the previous export");
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"out.png", "out.png.json"})) << "no staging file left";
}

// RFC 4180 fields of one CSV line (quotes doubled inside quoted fields).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  return lines;
}

TEST(ExportTimings, CsvHasOneRowPerRunWithItsParameters) {
  test::TempDir dir;
  Session s(cpu_options());
  s.open_sample();
  s.run_now();
  s.select_kernel("convolve");  // its matrix has commas: the field must be quoted
  s.run_now();
  s.export_timings(dir / "t.csv");
  const auto lines = lines_of(read_text(dir / "t.csv"));
  ASSERT_EQ(lines.size(), 3u);
  const auto header = csv_fields(lines[0]);
  ASSERT_EQ(header.size(), 21u);
  EXPECT_EQ(header[2], "kernel");
  EXPECT_EQ(header[11], "params");
  EXPECT_EQ(header[18], "display_ms");
  const auto first = csv_fields(lines[1]);
  const auto second = csv_fields(lines[2]);
  ASSERT_EQ(first.size(), 21u);
  ASSERT_EQ(second.size(), 21u) << lines[2];
  EXPECT_EQ(first[0], "1");
  EXPECT_EQ(first[2], "box");
  EXPECT_EQ(first[4], "cpu");
  EXPECT_EQ(first[7], "1024");
  EXPECT_EQ(first[16], "") << "no upload on the CPU";
  EXPECT_EQ(first[18], "") << "nothing was drawn";
  EXPECT_GT(std::stod(first[14]), 0) << "median ms";
  EXPECT_EQ(second[2], "convolve");
  EXPECT_NE(second[11].find("matrix=0,-1,0; -1,5,-1; 0,-1,0"), std::string::npos) << second[11];
}

TEST(ExportTimings, JsonListsTheRunsAndUnknownExtensionsAreRefused) {
  test::TempDir dir;
  Session s(cpu_options());
  EXPECT_THROW(s.export_timings(dir / "t.json"), Error) << "nothing to export yet";
  s.open_sample();
  s.run_now();
  s.note_display(s.display_frame().output_generation, 1.5, "host upload");
  s.export_timings(dir / "t.json");
  const auto j = nlohmann::json::parse(read_text(dir / "t.json"));
  EXPECT_EQ(j["schema"], "kernelscope.timings/1");
  ASSERT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["kernel"], "box");
  EXPECT_EQ(j["runs"][0]["kernel_ms"]["count"], 2);
  EXPECT_DOUBLE_EQ(j["runs"][0]["display_ms"].get<double>(), 1.5);
  EXPECT_TRUE(j["runs"][0]["upload_ms"].is_null());
  EXPECT_THROW(s.export_timings(dir / "t.txt"), Error);
  EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"t.json"}));
}

}  // namespace
}  // namespace ks::app
