#include "gui/editor_script.hpp"

#include <QPushButton>
#include <QTextCursor>
#include <cstdio>

#ifdef KS_HAVE_QTEST
#include <QTest>
#endif

#include "core/error.hpp"
#include "core/launch_shape.hpp"
#include "qt/editor/code_editor.hpp"
#include "qt/editor/compile_facts_view.hpp"
#include "qt/editor/diagnostics_list.hpp"
#include "qt/editor/find_bar.hpp"
#include "qt/editor/kernel_editor.hpp"
#include "qt/editor/kernel_editor_dock.hpp"
#include "qt/main_window.hpp"
#include "qt/viewport_widget.hpp"
#include "usercode/source_text.hpp"

namespace ks::gui {

namespace {

using ui::qt::KernelEditor;

void print(const QString& text) {
  std::fputs((text + "\n").toUtf8().constData(), stdout);
  std::fflush(stdout);
}

QString q(const std::string& s) { return QString::fromStdString(s); }

int count(const KernelEditor& e, usercode::Severity s) {
  if (!e.shown_outcome()) return 0;
  int n = 0;
  for (const auto& d : e.shown_outcome()->diagnostics) n += d.severity == s;
  return n;
}

void print_editor(ui::qt::MainWindow& window) {
  KernelEditor& e = window.kernel_editor().editor();
  const auto [line, column] = e.code().cursor_line_column();
  const auto brace = e.code().marked_brace();
  print(QString("editor name=%1 file=%2 modified=%3 visible=%4 errors=%5 warnings=%6 cursor=%7:%8 brace=%9 "
                "stale=%10 status=%11")
            .arg(e.display_name(), e.file_path().isEmpty() ? QString("none") : e.file_path(),
                 e.modified() ? "yes" : "no", window.kernel_editor().isVisible() ? "yes" : "no")
            .arg(count(e, usercode::Severity::Error))
            .arg(count(e, usercode::Severity::Warning))
            .arg(line)
            .arg(column)
            .arg(brace ? QString("%1:%2").arg(brace->line).arg(brace->column) : QString("none"))
            .arg(e.stale_outcomes_dropped())
            .arg(e.status_text()));
  const QWidget& dock = window.kernel_editor();
  print(QString("editor layout window=%1x%2 dock=%3x%4 floating=%5 viewport=%6x%7")
            .arg(window.width())
            .arg(window.height())
            .arg(dock.width())
            .arg(dock.height())
            .arg(window.kernel_editor().isFloating() ? "yes" : "no")
            .arg(window.viewport().width())
            .arg(window.viewport().height()));
  for (int l = 1; l <= e.code().blockCount(); ++l)
    if (const auto s = e.code().marker_at(l)) print(QString("editor marker %1 %2").arg(l).arg(usercode::to_string(*s)));
  if (!e.shown_outcome()) return;
  for (const auto& d : e.shown_outcome()->diagnostics) {
    const QString at = d.line <= 0 ? QString("-") : d.column > 0 ? QString("%1:%2").arg(d.line).arg(d.column)
                                                                  : QString::number(d.line);
    print(QString("editor problem %1 %2 %3").arg(usercode::to_string(d.severity), at, q(d.message)));
  }
  for (const char* label : {"registers / thread", "stack frame", "spill stores", "spill loads",
                            "static shared memory", "max threads / block", "compile time"}) {
    const QString value = e.facts().fact(label);
    if (!value.isEmpty()) print(QString("editor fact %1=%2").arg(label, value));
  }
  print("editor occupancy " + e.facts().occupancy());
  if (e.shown_outcome()->kernel)
    for (const auto& p : e.shown_outcome()->kernel->declarations.parameters)
      print(QString("editor param %1 %2 [%3, %4] = %5")
                .arg(q(p.name), usercode::to_string(p.type))
                .arg(p.min)
                .arg(p.max)
                .arg(p.value));
  print(QString("editor run %1 %2").arg(e.run_button().isEnabled() ? "enabled" : "disabled", e.run_button().toolTip()));
}

int to_int(const QString& word, const char* what) {
  bool ok = false;
  const int v = word.toInt(&ok);
  if (!ok) throw_usage(std::string("editor: ") + what + " must be a whole number, not '" + word.toStdString() + "'");
  return v;
}

void print_found(KernelEditor& e) {
  // The cursor sits after the match: say where the match starts.
  QTextCursor start = e.code().textCursor();
  start.setPosition(start.selectionStart());
  print(QString("editor found %1:%2 %3")
            .arg(start.blockNumber() + 1)
            .arg(start.positionInBlock() + 1)
            .arg(e.find_bar().status()));
}

#ifndef KS_HAVE_QTEST
[[noreturn]] void needs_qtest(const QString& command) {
  throw_usage("the script command 'editor " + command.toStdString() + "' needs Qt Test, and this kernelscope was "
              "built without it");
}
#endif

}  // namespace

bool run_editor_command(const QStringList& words, const QString& rest, ui::qt::MainWindow& window) {
  if (words.value(0) != "editor") return false;
  const QString cmd = words.value(1);
  const QString arg = rest.section(' ', 1).trimmed();  // the text after the subcommand
  KernelEditor& e = window.kernel_editor().editor();
  if (cmd == "show") {
    window.kernel_editor().show_editor();
  } else if (cmd == "open") {
    window.edit_kernel(arg);
  } else if (cmd == "text") {
    const QString text = q(usercode::read_kernel_source(arg.toStdString()));
    QTextCursor c = e.code().textCursor();
    c.select(QTextCursor::Document);
    c.insertText(text);
  } else if (cmd == "type") {
#ifdef KS_HAVE_QTEST
    const QStringList lines = arg.split("\\n");
    for (int i = 0; i < lines.size(); ++i) {
      if (i > 0) QTest::keyClick(&e.code(), Qt::Key_Return);
      QTest::keyClicks(&e.code(), lines[i]);
    }
#else
    needs_qtest(cmd);
#endif
  } else if (cmd == "go-to") {
    e.code().go_to(to_int(words.value(2), "the line"), words.size() > 3 ? to_int(words.value(3), "the column") : 0);
  } else if (cmd == "undo") {
    e.code().undo();
  } else if (cmd == "redo") {
    e.code().redo();
  } else if (cmd == "click-problem") {
    const int n = to_int(words.value(2), "the message's number");
    QTreeWidgetItem* item = e.problems().topLevelItem(n - 1);
    if (!item) throw_usage("editor: the list has no message " + std::to_string(n));
#ifdef KS_HAVE_QTEST
    e.problems().scrollToItem(item);
    QTest::mouseClick(e.problems().viewport(), Qt::LeftButton, {}, e.problems().visualItemRect(item).center());
#else
    needs_qtest(cmd);
#endif
  } else if (cmd == "find") {
    e.find_bar().open();
    e.find_bar().set_text(arg);
    print_found(e);
  } else if (cmd == "find-next") {
    e.find_bar().find_next();
    print_found(e);
  } else if (cmd == "find-previous") {
    e.find_bar().find_previous();
    print_found(e);
  } else if (cmd == "save") {
    window.kernel_editor().save();
  } else if (cmd == "save-as") {
    window.kernel_editor().save_as();
  } else if (cmd == "answer") {
    window.set_save_changes_answer(words.value(2));
  } else if (cmd == "block") {
    const BlockShape b = parse_block_shape(words.value(2).toStdString());
    e.facts().set_block({b.x, b.y});
  } else if (cmd == "run") {  // the Run button, as a click would (refused while it is disabled)
    if (!e.run_button().isEnabled()) throw_usage("editor run: Run is disabled (" + e.run_button().toolTip().toStdString() + ")");
    e.run_button().click();
  } else if (cmd == "print") {
    print_editor(window);
  } else {
    throw_usage("unknown editor command '" + cmd.toStdString() + "'",
                "show, open, text, type, go-to, undo, redo, click-problem, find, find-next, find-previous, run, save, "
                "save-as, answer, block, print");
  }
  return true;
}

}  // namespace ks::gui
