#include "gui/script_runner.hpp"

#include <QApplication>
#include <QTextStream>
#include <cstdio>

#include "core/error.hpp"
#include "core/launch_shape.hpp"
#include "qt/main_window.hpp"
#include "qt/viewport_widget.hpp"
#include "gui/script_inspect.hpp"
#include "gui/playlist_script.hpp"
#include "gui/sim_script.hpp"
#include "gui/topology_script.hpp"
#include "session/display_frame.hpp"
#include "session/lab/lab_commands.hpp"
#include "session/session.hpp"
#include "session/topology/topology_document.hpp"

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

bool throw_usage_bool(const QString& word) { throw_usage("expected yes or no, not '" + word.toStdString() + "'"); }

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
  wait_for_work_ = true;  // the file (or sample) given on the command line loads first
  deadline_.start();
  timer_.start(kStepMs);
}

bool ScriptRunner::waiting() const {
  const bool behind = sim_wait_generation_ >= 0 && session_.simulating() && session_.simulation().playing() &&
                      session_.simulation().generation() < sim_wait_generation_;
  if (!sleep_until_.hasExpired()) return true;
  const bool topology = wait_for_topology_ && session_.topology().busy();
  const bool requests = !window_.panels().save_requests.empty();  // asked for by a panel, not served yet
  return session_.busy() || window_.opening() || behind || topology || requests;
}

void ScriptRunner::step() {
  if (wait_for_work_) {
    if (window_.viewport().frames_drawn() < click_seen_frame_) {
      window_.viewport().update();
      return;
    }
    if (waiting()) return;
    wait_for_work_ = wait_for_topology_ = false;
    settle_until_frame_ = window_.viewport().frames_drawn() + kSettleFrames;
  }
  if (window_.viewport().frames_drawn() < settle_until_frame_) {  // frames drawn, not timer steps
    window_.viewport().update();
    return;
  }
  // Dialogs that panels asked for are answered after the frame that asked: say them before what comes next.
  print_questions();
  if (click_pending_button()) return;
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
    } catch (const std::exception& e) {
      failure_ = QString::fromStdString(std::string("unexpected: ") + e.what());
    }
    return;  // one command per step: the next one waits for this one's work
  }
}

void ScriptRunner::print_questions() {
  for (const QString& question : window_.take_questions()) print("question: " + question);
}

bool ScriptRunner::click_pending_button() {
  if (button_to_click_.isEmpty()) return false;
  const QString label = std::exchange(button_to_click_, QString());
  // The sidebar's buttons, then the Topology window's.
  const auto& sidebar = window_.panels().buttons.rects;
  const auto& topology = window_.panels().topology.buttons.rects;
  const std::array<float, 4>* rect = nullptr;
  for (const auto* rects : {&sidebar, &topology})
    if (auto it = rects->find(label.toStdString()); !rect && it != rects->end()) rect = &it->second;
  if (!rect) {
    failure_ = "no button '" + label + "' is shown (is its section open?)";
    return true;
  }
  const auto& [x0, y0, x1, y1] = *rect;
  click_viewport(window_, QPointF((x0 + x1) / 2, (y0 + y1) / 2));
  click_seen_frame_ = window_.viewport().frames_drawn() + 2;
  wait_for_work_ = true;
  return true;
}

void ScriptRunner::fail(const QString& message) {
  timer_.stop();
  std::fprintf(stderr, "script line %d: %s\n", next_, message.toUtf8().constData());
  QApplication::exit(1);
}

void ScriptRunner::run_line(const QString& line) {
  if (line.startsWith("nowait ")) {  // the command's work goes on while the script does
    run_line(line.mid(7).trimmed());
    wait_for_work_ = false;
    return;
  }
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
    if (session_.in_lab())
      app::lab_run(session_);  // the Lab section's Run
    else
      session_.request_run();
  } else if (cmd == "wait") {
    // waiting is what every command does
  } else if (cmd == "sweep") {
    if (session_.in_lab())
      app::lab_sweep(session_);  // the Lab section's Sweep sizes
    else
      session_.start_sweep();
  } else if (cmd == "lab-size") {
    need_arg();
    app::lab_set_size(session_, arg.toStdString());
  } else if (cmd == "print-lab") {
    print(QString::fromStdString(app::lab_status_line(session_)));
  } else if (cmd == "fit") {
    window_.viewport().fit();
  } else if (cmd == "zoom") {
    need_arg();
    bool ok = false;
    const double factor = arg.toDouble(&ok);
    if (!ok || factor <= 0) throw_usage("zoom needs a positive factor, not '" + arg.toStdString() + "'");
    window_.viewport().zoom_by(factor);
  } else if (cmd == "colormap") {
    need_arg();
    window_.viewport().view().colormap = colormap_from_name(arg.toStdString());
  } else if (cmd == "click") {
    if (w.size() != 3) throw_usage("click needs X Y (the viewport's logical pixels)");
    click_viewport(window_, QPointF(w[1].toDouble(), w[2].toDouble()));
  } else if (cmd == "mouse") {
    if (w.size() != 4) throw_usage("mouse needs down|move|up X Y (the viewport's logical pixels)");
    const QPointF at(w[2].toDouble(), w[3].toDouble());
    if (arg != "down" && arg != "move" && arg != "up")
      throw_usage("mouse needs down, move or up, not '" + arg.toStdString() + "'");
    const QEvent::Type type =
        arg == "down" ? QEvent::MouseButtonPress : arg == "up" ? QEvent::MouseButtonRelease : QEvent::MouseMove;
    mouse_down_ = arg == "move" ? mouse_down_ : arg == "down";
    mouse_on_viewport(window_, type, at, mouse_down_);
  } else if (cmd == "drop") {
    need_arg();
    drop_file(window_, arg);
  } else if (cmd == "menu") {
    need_arg();
    trigger_menu_entry(window_, line.mid(line.indexOf(' ') + 1).trimmed());
  } else if (cmd == "save-as") {
    need_arg();
    window_.set_dialog_answer(line.mid(line.indexOf(' ') + 1).trimmed());
  } else if (cmd == "click-button") {
    need_arg();
    button_to_click_ = line.mid(line.indexOf(' ') + 1).trimmed();
    window_.panels().buttons.scroll_to = window_.panels().topology.buttons.scroll_to = button_to_click_.toStdString();
    window_.viewport().update();
  } else if (cmd == "overwrite") {
    need_arg();
    window_.set_overwrite_answer(arg == "yes" ? true : arg == "no" ? false : throw_usage_bool(arg));
  } else if (cmd == "split") {
    window_.viewport().set_split(on_off(arg));
  } else if (cmd == "text-size") {
    need_arg();
    bool ok = false;
    const float points = arg.toFloat(&ok);
    if (!ok) throw_usage("text-size needs a number of points, not '" + arg.toStdString() + "'");
    window_.set_text_size(points);
  } else if (cmd == "high-contrast") {
    window_.set_high_contrast(on_off(arg));
  } else if (cmd == "presenter") {
    window_.set_presenter_view(on_off(arg));
  } else if (cmd == "panels") {
    window_.set_panels_visible(on_off(arg));
  } else if (cmd == "window-shot") {
    need_arg();
    const bool written = window_.save_window(arg);
    print_questions();
    const qreal r = window_.devicePixelRatioF();
    if (written)
      print(QString("window-shot %1 %2x%3").arg(arg).arg(qRound(window_.width() * r)).arg(qRound(window_.height() * r)));
  } else if (cmd == "viewport-shot") {
    need_arg();
    const bool panels = !(w.size() > 2 && w[2] == "no-panels");
    const bool written = window_.save_viewport(arg, panels);
    print_questions();
    const auto& v = window_.viewport();
    const qreal r = v.devicePixelRatioF();
    if (written)
      print(QString("viewport-shot %1 %2x%3").arg(arg).arg(qRound(v.width() * r)).arg(qRound(v.height() * r)));
  } else if (cmd == "export") {
    need_arg();
    window_.export_result(arg, w.size() > 2 ? w[2].toInt() : 0);
    print_questions();
  } else if (cmd == "export-timings") {
    need_arg();
    window_.export_timings(arg);
    print_questions();
  } else if (cmd == "playlist") {
    need_arg();
    window_.open_playlist(arg);
    print_playlist(window_);
  } else if (cmd == "next" || cmd == "previous") {
    if (!window_.playlist()) throw_usage("no playlist is open", "playlist FILE first");
    const bool moved = cmd == "next" ? window_.playlist_next() : window_.playlist_previous();
    if (!moved) print("playlist: no " + cmd + " step");
    print_playlist(window_);
  } else if (cmd == "key") {
    need_arg();
    press_key(window_, arg);
  } else if (cmd == "close-playlist") {
    window_.close_playlist();
  } else if (cmd == "print-playlist") {
    print_playlist(window_);
  } else if (cmd == "print-status") {
    print(status_line(window_, session_));
  } else if (cmd == "print-menus") {
    for (const QString& entry : menu_entries(window_)) print("menu " + entry);
  } else if (cmd == "print-about") {
    print("about " + about_plain_text(window_));
  } else if (cmd == "sleep") {
    need_arg();
    bool ok = false;
    const int ms = arg.toInt(&ok);
    if (!ok || ms < 0) throw_usage("sleep needs milliseconds, not '" + arg.toStdString() + "'");
    sleep_until_ = QDeadlineTimer(ms);
  } else if (cmd == "quit") {
    since_quit_.start();
    timer_.stop();
    window_.close();
    QApplication::exit(0);
  } else if (run_topology_command(w, session_, wait_for_topology_)) {
    // the Topology window: gui/topology_script.hpp
  } else if (run_sim_command(w, session_, sim_wait_generation_)) {
    // life, heat and grayscott in the window: gui/sim_script.hpp
  } else {
    throw_usage("unknown script command '" + cmd.toStdString() + "'");
  }
}

}  // namespace ks::gui
