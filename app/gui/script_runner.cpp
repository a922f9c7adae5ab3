#include "gui/script_runner.hpp"

#include <QApplication>
#include <QTextStream>
#include <cstdio>

#include "core/error.hpp"
#include "core/launch_shape.hpp"
#include "qt/main_window.hpp"
#include "qt/viewport_widget.hpp"
#include "session/session.hpp"

namespace ks::gui {

namespace {

constexpr int kStepMs = 20;
constexpr int kSettleFrames = 3;  // ImGui lays new windows out over its first frames

void print(const QString& text) {
  std::fputs((text + "\n").toUtf8().constData(), stdout);
  std::fflush(stdout);
}

bool on_off(const QString& word) {
  if (word == "on") return true;
  if (word == "off") return false;
  throw_usage("expected on or off, not '" + word.toStdString() + "'");
}

}  // namespace

ScriptRunner::ScriptRunner(ui::qt::MainWindow& window, app::Session& session, QStringList lines, int time_limit_s)
    : window_(window), session_(session), lines_(std::move(lines)) {
  connect(&timer_, &QTimer::timeout, this, &ScriptRunner::step);
  deadline_.setSingleShot(true);
  deadline_.setInterval(time_limit_s * 1000);
  connect(&deadline_, &QTimer::timeout, this, [this] {
    std::fprintf(stderr, "script: not finished after %d s (at line %d)\n", deadline_.interval() / 1000, next_);
    QApplication::exit(3);
  });
}

void ScriptRunner::start() {
  window_.set_interactive(false);
  deadline_.start();
  timer_.start(kStepMs);
}

bool ScriptRunner::waiting() const { return session_.busy() || window_.opening(); }

void ScriptRunner::step() {
  if (wait_for_work_) {
    if (waiting()) return;
    wait_for_work_ = false;
    settle_frames_ = kSettleFrames;
  }
  if (settle_frames_ > 0) {
    --settle_frames_;
    window_.viewport().update();
    return;
  }
  while (next_ < lines_.size()) {
    const QString line = lines_[next_++].trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    // A refused command, or what the window showed the user as a failure, fails the script, unless the script
    // expected it.
    const QString failure = !failure_.isEmpty() ? failure_ : window_.last_failure();
    if (line == "expect-error") {
      if (failure.isEmpty()) return fail("expected an error, and there was none");
      print("expected error: " + failure);
      failure_.clear();
      window_.clear_failure();
      return;
    }
    if (!failure.isEmpty()) return fail(failure);
    try {
      run_line(line);
    } catch (const Error& e) {
      failure_ = QString::fromStdString(e.full_message());
    }
    return;  // one command per step: the next one waits for this one's work
  }
}

void ScriptRunner::fail(const QString& message) {
  timer_.stop();
  std::fprintf(stderr, "script line %d: %s\n", next_, message.toUtf8().constData());
  QApplication::exit(1);
}

void ScriptRunner::run_line(const QString& line) {
  const QStringList w = line.split(' ', Qt::SkipEmptyParts);
  const QString cmd = w[0];
  const QString arg = w.size() > 1 ? w[1] : QString();
  auto need_arg = [&] {
    if (arg.isEmpty()) throw_usage("'" + cmd.toStdString() + "' needs an argument");
  };
  wait_for_work_ = true;
  if (cmd == "open") {
    need_arg();
    if (arg == "sample")
      session_.open_sample();
    else
      window_.open_file(arg);
  } else if (cmd == "kernel") {
    need_arg();
    session_.select_kernel(arg.toStdString());
  } else if (cmd == "param") {
    need_arg();
    const qsizetype eq = arg.indexOf('=');
    if (eq <= 0) throw_usage("param needs NAME=VALUE");
    session_.set_param(arg.left(eq).toStdString(), arg.mid(eq + 1).toStdString());
  } else if (cmd == "backend") {
    need_arg();
    session_.set_backend(backend_from_string(arg.toStdString()));
  } else if (cmd == "variant") {
    need_arg();
    session_.set_variant(arg.toStdString());
  } else if (cmd == "block") {
    need_arg();
    session_.set_block(arg == "default" ? std::nullopt : std::optional(parse_block_shape(arg.toStdString())));
  } else if (cmd == "type") {
    need_arg();
    session_.set_element_type(elem_type_from_string(arg.toStdString()));
  } else if (cmd == "run") {
    session_.request_run();
  } else if (cmd == "wait") {
    // waiting is what every command does
  } else if (cmd == "sweep") {
    session_.start_sweep();
  } else if (cmd == "fit") {
    window_.viewport().fit();
  } else if (cmd == "split") {
    window_.viewport().set_split(on_off(arg));
  } else if (cmd == "panels") {
    window_.panels().visible = on_off(arg);
  } else if (cmd == "window-shot") {
    need_arg();
    window_.save_window(arg);
    const qreal r = window_.devicePixelRatioF();
    print(QString("window-shot %1 %2x%3").arg(arg).arg(qRound(window_.width() * r)).arg(qRound(window_.height() * r)));
  } else if (cmd == "viewport-shot") {
    need_arg();
    const bool panels = !(w.size() > 2 && w[2] == "no-panels");
    window_.save_viewport(arg, panels);
    const auto& v = window_.viewport();
    const qreal r = v.devicePixelRatioF();
    print(QString("viewport-shot %1 %2x%3").arg(arg).arg(qRound(v.width() * r)).arg(qRound(v.height() * r)));
  } else if (cmd == "export") {
    need_arg();
    window_.export_result(arg, w.size() > 2 ? w[2].toInt() : 0);
  } else if (cmd == "export-timings") {
    need_arg();
    window_.export_timings(arg);
  } else if (cmd == "print-status") {
    const auto& r = session_.last_report();
    print(QString::fromStdString("status kernel=" + session_.kernel().id + " backend=" +
                                 to_string(session_.backend()) + " runs=" + std::to_string(session_.runs_applied()) +
                                 (r ? " last=" + r->kernel + "/" + r->variant : std::string())));
  } else if (cmd == "quit") {
    timer_.stop();
    window_.close();
    QApplication::exit(0);
  } else {
    throw_usage("unknown script command '" + cmd.toStdString() + "'");
  }
}

}  // namespace ks::gui
