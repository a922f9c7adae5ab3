// The kernel editor's widgets (ui/qt/editor) in this process, on Qt's offscreen platform, typed into with QTest
// as a keyboard would: compiles really run through NVRTC on the editor's worker thread (no GPU needed). Errors
// get a gutter marker and a list entry whose click moves the cursor there; fixing the text clears them and shows
// the registers; an unclosed brace marks the last line and the open brace; find selects the next match and
// wraps; save writes the file, a failing save writes nothing and says why; an outcome for an older text is
// dropped; typing goes on while a compile runs.
#ifdef KS_HAVE_QTEST
#include <QApplication>
#include <QPushButton>
#include <QTabWidget>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTextBlock>
#include <QToolTip>
#include <QTreeWidget>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>

#include <gtest/gtest.h>

#include "qt/app_settings.hpp"
#include "qt/editor/code_editor.hpp"
#include "qt/editor/compile_facts_view.hpp"
#include "qt/editor/diagnostics_list.hpp"
#include "qt/editor/find_bar.hpp"
#include "qt/editor/kernel_editor.hpp"
#include "qt/editor/kernel_editor_dock.hpp"
#include "qt/editor/listing_view.hpp"
#include "support/test_support.hpp"
#include "usercode/nvrtc_compile.hpp"

namespace ks::ui::qt {
namespace {

constexpr int kCompileWaitMs = 60000;

QApplication& app() {
  static int argc = 1;
  static char name[] = "ks_tests_gui";
  static char* argv[] = {name, nullptr};
  qputenv("QT_QPA_PLATFORM", "offscreen");
  static QApplication* instance = new QApplication(argc, argv);  // one per process, left to the process's end
  return *instance;
}

class KernelEditorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    app();
    if (!usercode::nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  }
  // Until the editor shows the outcome of its current text.
  static void wait_compiled(KernelEditor& e) {
    ASSERT_TRUE(QTest::qWaitFor([&] { return !e.compiling() && e.shown_outcome(); }, kCompileWaitMs))
        << "no compile outcome";
  }
  // Keystrokes at the cursor; '\n' is the Enter key.
  static void type(KernelEditor& e, const QString& text) {
    const QStringList lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
      if (i > 0) QTest::keyClick(&e.code(), Qt::Key_Return);
      QTest::keyClicks(&e.code(), lines[i]);
    }
  }
};

const char* kGood =
    "// @family array\n"
    "__global__ void add(const float* a, float* out, int n) {\n"
    "  const int i = ks::global_index();\n"
    "  if (i < n) out[i] = a[i] * 2.f;\n"
    "}\n";

TEST_F(KernelEditorTest, AnUndeclaredNameIsMarkedListedAndClickingGoesThereAndFixingClearsIt) {
  KernelEditor e;
  e.resize(800, 700);
  e.show();
  e.set_untitled(kGood, "add.cu");
  wait_compiled(e);
  ASSERT_TRUE(e.shown_outcome()->runnable()) << e.status_text().toStdString();
  // Typing an undeclared name at the end of line 4's expression, as a person would.
  e.code().go_to(4, 33);  // after "2.f"
  type(e, " + bias");
  EXPECT_TRUE(e.compiling()) << "the compile waits for the pause in typing";
  wait_compiled(e);
  ASSERT_EQ(e.text().split('\n')[3], "  if (i < n) out[i] = a[i] * 2.f + bias;");
  EXPECT_EQ(e.code().marker_at(4), usercode::Severity::Error) << e.status_text().toStdString();
  for (int line : {1, 2, 3, 5}) EXPECT_FALSE(e.code().marker_at(line)) << line;
  EXPECT_NE(e.code().tooltip_for_line(4).indexOf("\"bias\""), -1) << e.code().tooltip_for_line(4).toStdString();
  ASSERT_EQ(e.problems().topLevelItemCount(), 1);
  QTreeWidgetItem* item = e.problems().topLevelItem(0);
  EXPECT_EQ(item->text(0), "error");
  EXPECT_EQ(item->text(1), "4:36");
  EXPECT_NE(item->text(2).indexOf("bias"), -1);
  EXPECT_TRUE(e.facts().fact("registers / thread").isEmpty()) << "no facts for a kernel that does not compile";

  e.code().go_to(1, 1);
  QTest::mouseClick(e.problems().viewport(), Qt::LeftButton, {}, e.problems().visualItemRect(item).center());
  EXPECT_EQ(e.code().cursor_line_column(), std::make_pair(4, 36));

  // Fixing it: the name goes, the marker and the entry with it, and the registers show.
  e.code().go_to(4, 40);  // after "bias"
  for (int i = 0; i < 7; ++i) QTest::keyClick(&e.code(), Qt::Key_Backspace);
  wait_compiled(e);
  EXPECT_FALSE(e.code().marker_at(4));
  EXPECT_EQ(e.problems().topLevelItemCount(), 0);
  const QString registers = e.facts().fact("registers / thread");
  EXPECT_FALSE(registers.isEmpty());
  EXPECT_TRUE(registers == "-" || registers.toInt() > 0) << registers.toStdString();
  EXPECT_NE(e.facts().occupancy().indexOf("occupancy"), -1) << e.facts().occupancy().toStdString();
  // Undo brings the error back, redo takes it away again.
  e.code().undo();
  wait_compiled(e);
  EXPECT_EQ(e.code().marker_at(4), usercode::Severity::Error);
}

TEST_F(KernelEditorTest, AnUnclosedBraceMarksTheLastLineAndTheOpenBrace) {
  KernelEditor e;
  e.show();
  e.set_untitled("__global__ void k(float* out) {\n"
                 "  if (threadIdx.x == 0) {\n"
                 "    out[0] = 1.f;\n"
                 "  // a } in a comment does not close it\n"
                 "}\n",
                 "k.cu");
  wait_compiled(e);
  EXPECT_EQ(e.code().marker_at(5), usercode::Severity::Error) << "the last line";
  ASSERT_TRUE(e.code().marked_brace());
  EXPECT_EQ(*e.code().marked_brace(), (source::TextPosition{1, 31}));
  EXPECT_NE(e.code().tooltip_for_line(1).indexOf("never closed"), -1) << e.code().tooltip_for_line(1).toStdString();
}

TEST_F(KernelEditorTest, AWarningGetsItsOwnMarkerAndTheKernelStillCompiles) {
  KernelEditor e;
  e.show();
  e.set_untitled("__global__ void k(float* out) {\n"
                 "  int unused = 3;\n"
                 "  out[0] = 1.f;\n"
                 "}\n",
                 "k.cu");
  wait_compiled(e);
  EXPECT_TRUE(e.shown_outcome()->runnable());
  EXPECT_EQ(e.code().marker_at(2), usercode::Severity::Warning);
  ASSERT_EQ(e.problems().topLevelItemCount(), 1);
  EXPECT_EQ(e.problems().topLevelItem(0)->text(0), "warning");
  EXPECT_NE(e.status_text().indexOf("1 warning"), -1) << e.status_text().toStdString();
  EXPECT_FALSE(e.facts().fact("registers / thread").isEmpty());
}

TEST_F(KernelEditorTest, TheMessageShowsWhenThePointerRestsOnTheMarkerOrTheLine) {
  KernelEditor e;
  e.resize(700, 600);
  e.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&e));
  e.set_untitled("__global__ void k(float* out) {\n  out[0] = nothing;\n}\n", "k.cu");
  wait_compiled(e);
  ASSERT_EQ(e.code().marker_at(2), usercode::Severity::Error);
  QWidget* viewport = e.code().viewport();
  const int y = e.code().cursorRect(QTextCursor(e.code().document()->findBlockByNumber(1))).center().y();
  QWidget* gutter = nullptr;  // the strip left of the viewport
  for (QWidget* w : e.code().findChildren<QWidget*>())
    if (w->parentWidget() == &e.code() && w != viewport && w->geometry().right() < viewport->geometry().left() &&
        w->isVisible())
      gutter = w;
  ASSERT_TRUE(gutter);
  for (QWidget* target : {gutter, viewport}) {
    const QPoint at(target == gutter ? 4 : 40, y);
    QHelpEvent hover(QEvent::ToolTip, at, target->mapToGlobal(at));
    QApplication::sendEvent(target, &hover);
    EXPECT_TRUE(QToolTip::isVisible());
    EXPECT_NE(QToolTip::text().indexOf("\"nothing\""), -1) << QToolTip::text().toStdString();
    QToolTip::hideText();
    ASSERT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 3000));
  }
  // Line 1 has no message: no tooltip.
  const int y1 = e.code().cursorRect(QTextCursor(e.code().document()->firstBlock())).center().y();
  QHelpEvent quiet(QEvent::ToolTip, QPoint(40, y1), viewport->mapToGlobal(QPoint(40, y1)));
  QApplication::sendEvent(viewport, &quiet);
  EXPECT_FALSE(QToolTip::isVisible()) << QToolTip::text().toStdString();
}

TEST_F(KernelEditorTest, TheCodeFollowsThePanelsTextSize) {
  KernelEditor e;
  e.set_untitled(kGood, "add.cu");
  const int narrow_gutter = e.code().gutter_width();
  e.set_text_size(28);  // presenter size: 28 x 0.85 = 23.8, so 24 points
  EXPECT_EQ(e.code().font().pointSizeF(), 24.0);
  EXPECT_GT(e.code().gutter_width(), narrow_gutter) << "the line numbers grow with the text";
  e.set_text_size(13);  // the default: 11 points, the smallest
  EXPECT_EQ(e.code().font().pointSizeF(), 11.0);
}

TEST_F(KernelEditorTest, FindSelectsTheNextMatchAndWraps) {
  KernelEditor e;
  e.show();
  e.set_untitled(kGood, "add.cu");
  FindBar& find = e.find_bar();
  e.code().go_to(3, 1);
  find.open();
  find.set_text("out");  // the matches: 2:44 (float* out), 4:14 (out[i])
  auto selection_start = [&] {
    QTextCursor c = e.code().textCursor();
    c.setPosition(c.selectionStart());
    return std::make_pair(c.blockNumber() + 1, c.positionInBlock() + 1);
  };
  EXPECT_EQ(selection_start(), std::make_pair(4, 14));
  EXPECT_EQ(e.code().textCursor().selectedText(), "out");
  EXPECT_EQ(e.code().find_match_count(), 2);
  EXPECT_TRUE(find.find_next());
  EXPECT_EQ(selection_start(), std::make_pair(2, 44));
  EXPECT_NE(find.status().indexOf("wrapped to the top"), -1) << find.status().toStdString();
  EXPECT_TRUE(find.find_previous());
  EXPECT_NE(find.status().indexOf("wrapped to the bottom"), -1) << find.status().toStdString();
  EXPECT_EQ(selection_start(), std::make_pair(4, 14));
  find.set_text("nowhere");
  EXPECT_FALSE(find.find_next());
  EXPECT_EQ(find.status(), "no match");
}

// A dock with dialogs answered by the test.
struct DockFixture {
  QSettings settings;
  AppSettings app_settings{settings};
  QStringList errors;
  QString save_answer;
  EditorDockContext::Answer answer = EditorDockContext::Answer::Cancel;
  QStringList questions;
  KernelEditorDock dock;

  explicit DockFixture(const std::filesystem::path& ini)
      : settings(QString::fromStdString(ini.string()), QSettings::IniFormat),
        dock(EditorDockContext{app_settings, [this](const QString& t, const QString& m) { errors << t + ": " + m; },
                               [this](const QString&, const QString&) { return save_answer; },
                               [](const QString&) { return QString(); },
                               [this](const QString& q) {
                                 questions << q;
                                 return answer;
                               },
                               [](const QString&) {}},
             nullptr) {}
};

std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

TEST_F(KernelEditorTest, SaveWritesTheFileAndAFailingSaveWritesNothingAndSaysWhy) {
  test::TempDir dir;
  DockFixture f(dir.path() / "settings.ini");
  f.dock.show_editor();
  KernelEditor& e = f.dock.editor();
  EXPECT_EQ(e.display_name(), "smooth3x3.cu") << "the first time, the smoothing template";
  e.code().go_to(1, 1);
  type(e, "// mine\n");
  EXPECT_TRUE(e.modified());
  EXPECT_TRUE(e.title().endsWith(" *")) << e.title().toStdString();

  const auto missing = dir.path() / "no such folder" / "smooth.cu";
  f.save_answer = QString::fromStdString(missing.string());
  EXPECT_FALSE(f.dock.save());
  ASSERT_EQ(f.errors.size(), 1);
  EXPECT_NE(f.errors[0].indexOf("Save kernel"), -1) << f.errors[0].toStdString();
  EXPECT_FALSE(std::filesystem::exists(missing));
  EXPECT_FALSE(std::filesystem::exists(missing.parent_path()));
  EXPECT_TRUE(e.modified()) << "nothing was saved";

  const auto good = dir.path() / "smooth.cu";
  f.save_answer = QString::fromStdString(good.string());
  EXPECT_TRUE(f.dock.save());
  EXPECT_EQ(read_text(good), e.text().toStdString());
  EXPECT_TRUE(read_text(good).starts_with("// mine\n// A 3x3 smoothing"));
  EXPECT_FALSE(e.modified());
  EXPECT_EQ(e.display_name(), "smooth.cu");
  EXPECT_EQ(f.app_settings.recent_kernels(), QStringList{QString::fromStdString(good.string())});
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    EXPECT_TRUE(entry.path() == good || entry.path().filename() == "settings.ini") << "left behind: " << entry.path();

  // A bad file keeps the text; a change asks first, and Cancel keeps everything.
  const auto empty = dir.path() / "empty.cu";
  std::ofstream(empty) << "\n  \n";
  EXPECT_FALSE(f.dock.open_kernel(QString::fromStdString(empty.string())));
  EXPECT_NE(f.errors.back().indexOf("empty"), -1) << f.errors.back().toStdString();
  EXPECT_EQ(e.file_path().toStdString(), good.string());
  e.code().go_to(1, 1);
  type(e, "x");
  f.answer = EditorDockContext::Answer::Cancel;
  EXPECT_FALSE(f.dock.open_kernel(QString::fromStdString(good.string())));
  ASSERT_EQ(f.questions.size(), 1);
  EXPECT_EQ(f.questions[0], "Save changes to smooth.cu?");
  EXPECT_TRUE(e.text().startsWith("x// mine"));
  EXPECT_FALSE(f.dock.confirm_close());

  // Ctrl+S in the text saves to the file (a QShortcutOverride takes it from the window's shortcuts).
  QKeyEvent override_event(QEvent::ShortcutOverride, Qt::Key_S, Qt::ControlModifier);
  QApplication::sendEvent(&e.code(), &override_event);
  EXPECT_TRUE(override_event.isAccepted()) << "the window's Ctrl+S would take the key";
  QTest::keyClick(&e.code(), Qt::Key_S, Qt::ControlModifier);
  EXPECT_FALSE(e.modified());
  EXPECT_TRUE(read_text(good).starts_with("x// mine"));

  // The same file opened again (its text unchanged) is compiled and shown again.
  EXPECT_TRUE(f.dock.open_kernel(QString::fromStdString(good.string())));
  EXPECT_FALSE(e.shown_outcome()) << "the new document starts without the old one's outcome";
  wait_compiled(e);
  EXPECT_EQ(e.file_path().toStdString(), good.string());
}

// A compile of the tests' own: it records its thread and the texts it saw, and waits until the test lets it
// finish, whatever the cancel flag says (a compile that ended just as the next keystroke came).
struct HeldCompile {
  std::mutex mutex;
  std::condition_variable cv;
  bool released = false;
  std::atomic<int> started{0};
  std::atomic<bool> ran_on_gui_thread{false};
  Qt::HANDLE gui_thread = QThread::currentThreadId();

  editor::CompileFunction function() {
    return [this](const usercode::CompileRequest& r, usercode::CompileCache* cache) {
      if (QThread::currentThreadId() == gui_thread) ran_on_gui_thread = true;
      ++started;
      std::unique_lock lock(mutex);
      cv.wait(lock, [this] { return released; });
      usercode::CompileRequest plain = r;
      plain.cancel = nullptr;  // it ends as if too late for the cancel
      return usercode::compile_user_kernel(plain, cache);
    };
  }
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    cv.notify_all();
  }
};

TEST_F(KernelEditorTest, AnOutcomeForAnOlderTextIsDroppedAndTypingGoesOnWhileItCompiles) {
  HeldCompile held;
  {
    KernelEditor e(nullptr, held.function());
    e.show();
    // A text that does not compile: its outcome would show an error marker on line 1.
    e.set_untitled("__global__ void k(float* out) { out[0] = missing; }\n", "k.cu");
    std::vector<int> errors_shown;  // the errors of each outcome shown, in order
    QObject::connect(&e, &KernelEditor::outcome_shown,
                     [&] { errors_shown.push_back(editor::count_errors(e.shown_outcome()->diagnostics)); });
    ASSERT_TRUE(QTest::qWaitFor([&] { return held.started == 1; }, 5000)) << "the compile did not start";
    // While it runs (held), the GUI thread takes keystrokes and runs its event loop.
    const auto before = std::chrono::steady_clock::now();
    e.code().selectAll();
    type(e, "__global__ void k(float* out) { out[0] = 1.f; }");
    QTest::qWait(50);
    const double typing_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before).count();
    EXPECT_LT(typing_ms, 2000) << "typing waited for the compile";
    EXPECT_EQ(held.started, 1) << "the first compile is still running";
    EXPECT_EQ(e.text(), "__global__ void k(float* out) { out[0] = 1.f; }");
    EXPECT_TRUE(e.compiling());
    // Let the first compile end: its outcome is for the old text and must not show.
    held.release();
    wait_compiled(e);
    EXPECT_FALSE(held.ran_on_gui_thread);
    EXPECT_GE(e.stale_outcomes_dropped(), 1u);
    EXPECT_TRUE(e.shown_outcome()->runnable()) << e.status_text().toStdString();
    EXPECT_FALSE(e.code().marker_at(1));
    EXPECT_EQ(errors_shown, std::vector<int>{0}) << "the old text's outcome (1 error) was shown";
    EXPECT_NE(e.shown_outcome()->thread, std::this_thread::get_id());
  }
}

TEST_F(KernelEditorTest, RunIsOfferedOnlyForAKernelThatCompilesOnceSomethingRunsIt) {
  KernelEditor e;
  e.show();
  e.set_untitled(kGood, "add.cu");
  wait_compiled(e);
  EXPECT_FALSE(e.run_button().isEnabled());
  EXPECT_EQ(e.run_button().toolTip(), "nothing here runs kernels");
  QSignalSpy runs(&e, &KernelEditor::runRequested);  // a receiver, as the window's runner will be
  QTest::qWait(10);
  EXPECT_TRUE(e.run_button().isEnabled());
  QTest::mouseClick(&e.run_button(), Qt::LeftButton);
  ASSERT_EQ(runs.size(), 1);
  EXPECT_EQ(runs[0][1].toString(), QString(kGood));
  EXPECT_EQ(runs[0][2].toString(), "add.cu");
  type(e, "oops");
  EXPECT_FALSE(e.run_button().isEnabled()) << "not while the new text compiles";
  wait_compiled(e);
  EXPECT_FALSE(e.run_button().isEnabled()) << "not for a text that does not compile";
}

TEST_F(KernelEditorTest, ThePtxTabListsTheInstructionsUnderTheirLinesAndFollowsTheText) {
  KernelEditor e;
  e.resize(800, 700);
  e.show();
  e.set_untitled(kGood, "add.cu");
  wait_compiled(e);
  e.listing().show();  // as when its tab is chosen
  QTabWidget* tabs = e.findChild<QTabWidget*>();
  ASSERT_NE(tabs, nullptr);
  tabs->setCurrentWidget(&e.listing());
  ASSERT_TRUE(QTest::qWaitFor([&] { return e.listing().text().toPlainText().contains("st.global"); }, kCompileWaitMs))
      << e.listing().note().toStdString();
  const QString ptx = e.listing().text().toPlainText();
  // The store belongs to line 4, the bounds check; the line's own text stands above it.
  const auto line4 = ptx.indexOf("4 | if (i < n) out[i] = a[i] * 2.f;");
  ASSERT_GE(line4, 0) << ptx.toStdString();
  EXPECT_GT(ptx.indexOf("st.global", line4), line4) << ptx.toStdString();
  // A text that does not compile empties it; fixing it lists again.
  type(e, "oops");
  wait_compiled(e);
  EXPECT_TRUE(QTest::qWaitFor([&] { return e.listing().text().toPlainText().isEmpty(); }, kCompileWaitMs));
  for (int i = 0; i < 4; ++i) QTest::keyClick(&e.code(), Qt::Key_Backspace);
  wait_compiled(e);
  EXPECT_TRUE(QTest::qWaitFor([&] { return e.listing().text().toPlainText().contains("st.global"); }, kCompileWaitMs));
}

}  // namespace
}  // namespace ks::ui::qt
#endif  // KS_HAVE_QTEST
