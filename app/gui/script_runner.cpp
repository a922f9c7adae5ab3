#include "gui/script_runner.hpp"

#include <QApplication>
#include <QTextStream>
#include <cstdio>
#include <span>

#include "core/error.hpp"
#include "core/launch_shape.hpp"
#include "gui/editor_script.hpp"
#include "gui/playlist_script.hpp"
#include "gui/script_inspect.hpp"
#include "gui/sim_script.hpp"
#include "gui/topology_script.hpp"
#include "io/image_io.hpp"
#include "qt/main_window.hpp"
#include "qt/qimage_convert.hpp"
#include "qt/viewport_widget.hpp"
#include "session/display_frame.hpp"
#include "session/lab/lab_commands.hpp"
#include "session/session.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::gui {

namespace {

constexpr int kStepMs = 20;
constexpr int kSettleFrames = 3;  // ImGui lays new windows out over its first frames
// idle-shot: longer than the viewport's own frames after a change (half a second), so that only a frame it
// decided to draw is seen.
constexpr int kIdleShotQuietMs = 800;

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

constexpr bool kArgument = true, kNoArgument = false;  // whether a command needs an argument

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
  const bool topology = wait_for_topology_ && session_.topology().busy();
  // Asked for by a panel, not served yet.
  const bool requests = !window_.panels().save_requests.empty() || window_.panels().edit_copy.has_value();
  return session_.busy() || window_.opening() || behind || topology || requests || window_.kernel_editor_busy();
}

void ScriptRunner::step() {
  if (!idle_shot_.isEmpty()) return idle_shot_step();
  if (!sleep_until_.hasExpired()) return;  // `nowait sleep MS` too: time passes while work goes on
  if (window_.viewport().frames_drawn() < click_seen_frame_) {  // `nowait click-button` too
    window_.viewport().update();
    return;
  }
  if (wait_for_work_) {
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

void ScriptRunner::idle_shot_step() {
  // No frame is asked for here: the viewport draws on its own or not at all, as it does for a person's hands off
  // the mouse.
  if (waiting()) {
    idle_shot_quiet_ = QDeadlineTimer(kIdleShotQuietMs);
    return;
  }
  if (!idle_shot_quiet_.hasExpired()) return;
  const QString path = std::exchange(idle_shot_, QString());
  const QImage frame = window_.viewport().last_frame();
  try {
    save_image(ui::qt::rgb_image_from(frame), path.toStdString());
    print(QString("idle-shot %1 %2x%3").arg(path).arg(frame.width()).arg(frame.height()));
  } catch (const Error& e) {
    failure_ = QString::fromStdString(e.full_message());
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
  wait_for_work_ = !std::exchange(click_nowait_, false);
  return true;
}

void ScriptRunner::fail(const QString& message) {
  timer_.stop();
  std::fprintf(stderr, "script line %d: %s\n", next_, message.toUtf8().constData());
  QApplication::exit(1);
}

// One script line, split into words: the command, its first argument (empty when none) and the text after the
// command (for arguments with spaces: menu entries, paths, button labels).
struct ScriptRunner::Line {
  QStringList words;
  QString cmd, arg, rest;
};

void ScriptRunner::run_line(const QString& line) {
  if (line.startsWith("nowait menu ")) {
    // Triggered from the event loop, as a click on the menu would be: an entry that opens a dialog runs the
    // dialog's loop there, and this runner's timer (which Qt does not fire again while step() is still on the
    // stack) goes on to the next command, `close-dialog` say.
    const QString entry = line.mid(12).trimmed();
    QTimer::singleShot(0, this, [this, entry] {
      try {
        trigger_menu_entry(window_, entry);
      } catch (const Error& e) {
        failure_ = QString::fromStdString(e.full_message());
      }
    });
    wait_for_work_ = false;
    return;
  }
  if (line.startsWith("nowait ")) {  // the command's work goes on while the script does
    run_line(line.mid(7).trimmed());
    wait_for_work_ = false;
    click_nowait_ = !button_to_click_.isEmpty();  // the click comes at the next step: not waited on either
    return;
  }
  Line l;
  l.words = line.split(' ', Qt::SkipEmptyParts);
  l.cmd = l.words[0];
  l.arg = l.words.size() > 1 ? l.words[1] : QString();
  l.rest = line.mid(line.indexOf(' ') + 1).trimmed();
  wait_for_work_ = true;
  if (const Command* c = find_command(l.cmd)) {
    if (c->needs_argument && l.arg.isEmpty()) throw_usage("'" + l.cmd.toStdString() + "' needs an argument");
    return c->run(*this, l);
  }
  // The Topology window (gui/topology_script.hpp), then life, heat and grayscott (gui/sim_script.hpp).
  if (run_topology_command(l.words, session_, wait_for_topology_)) return;
  if (run_sim_command(l.words, session_, sim_wait_generation_)) return;
  if (run_editor_command(l.words, l.rest, window_)) return;
  throw_usage("unknown script command '" + l.cmd.toStdString() + "'");
}

const ScriptRunner::Command* ScriptRunner::find_command(const QString& name) {
  for (const auto group : {session_commands(), view_commands(), input_commands(), output_commands()})
    for (const Command& c : group)
      if (name == QLatin1String(c.name)) return &c;
  return nullptr;
}

// The image, the kernel and its settings, runs, the lab, waiting.
std::span<const ScriptRunner::Command> ScriptRunner::session_commands() {
  static constexpr Command kCommands[] = {
      {"open", kArgument,
       [](ScriptRunner& r, const Line& l) {
         if (l.arg == "sample")
           r.session_.open_sample();
         else
           r.window_.open_file(l.arg);
       }},
      {"kernel", kArgument,
       [](ScriptRunner& r, const Line& l) { r.session_.select_kernel(l.arg.toStdString()); }},
      {"param", kArgument,
       [](ScriptRunner& r, const Line& l) {
         const qsizetype eq = l.arg.indexOf('=');
         if (eq <= 0) throw_usage("param needs NAME=VALUE");
         r.session_.set_param(l.arg.left(eq).toStdString(), l.arg.mid(eq + 1).toStdString());
       }},
      {"backend", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.session_.set_backend(backend_from_string(l.arg.toStdString()));
       }},
      {"variant", kArgument,
       [](ScriptRunner& r, const Line& l) { r.session_.set_variant(l.arg.toStdString()); }},
      {"device-model", kArgument,
       [](ScriptRunner& r, const Line& l) { r.session_.set_device_model(l.arg == "none" ? "" : l.arg.toStdString()); }},
      {"block", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.session_.set_block(l.arg == "default" ? std::nullopt
                                                 : std::optional(parse_block_shape(l.arg.toStdString())));
       }},
      {"type", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.session_.set_element_type(elem_type_from_string(l.arg.toStdString()));
       }},
      {"run", kNoArgument,
       [](ScriptRunner& r, const Line&) {
         if (r.session_.in_lab())
           app::lab_run(r.session_);  // the Lab section's Run
         else
           r.session_.request_run();
       }},
      {"wait", kNoArgument, [](ScriptRunner&, const Line&) {}},  // waiting is what every command does
      {"sweep", kNoArgument,
       [](ScriptRunner& r, const Line&) {
         if (r.session_.in_lab())
           app::lab_sweep(r.session_);  // the Lab section's Sweep sizes
         else
           r.session_.start_sweep();
       }},
      {"lab-size", kArgument,
       [](ScriptRunner& r, const Line& l) { app::lab_set_size(r.session_, l.arg.toStdString()); }},
      {"print-lab", kNoArgument,
       [](ScriptRunner& r, const Line&) { print(QString::fromStdString(app::lab_status_line(r.session_))); }},
      {"sleep", kArgument,
       [](ScriptRunner& r, const Line& l) {
         bool ok = false;
         const int ms = l.arg.toInt(&ok);
         if (!ok || ms < 0) throw_usage("sleep needs milliseconds, not '" + l.arg.toStdString() + "'");
         r.sleep_until_ = QDeadlineTimer(ms);
       }},
      {"quit", kNoArgument,
       [](ScriptRunner& r, const Line&) {
         r.since_quit_.start();
         r.timer_.stop();
         r.window_.close();
         QApplication::exit(0);
       }},
  };
  return kCommands;
}

// How the image is shown: the viewport and the window's view settings.
std::span<const ScriptRunner::Command> ScriptRunner::view_commands() {
  static constexpr Command kCommands[] = {
      {"fit", kNoArgument, [](ScriptRunner& r, const Line&) { r.window_.viewport().fit(); }},
      {"zoom", kArgument,
       [](ScriptRunner& r, const Line& l) {
         bool ok = false;
         const double factor = l.arg.toDouble(&ok);
         if (!ok || factor <= 0)
           throw_usage("zoom needs a positive factor, not '" + l.arg.toStdString() + "'");
         r.window_.viewport().zoom_by(factor);
       }},
      {"colormap", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.window_.viewport().view().colormap = colormap_from_name(l.arg.toStdString());
       }},
      {"split", kNoArgument,
       [](ScriptRunner& r, const Line& l) { r.window_.viewport().set_split(on_off(l.arg)); }},
      {"text-size", kArgument,
       [](ScriptRunner& r, const Line& l) {
         bool ok = false;
         const float points = l.arg.toFloat(&ok);
         if (!ok) throw_usage("text-size needs a number of points, not '" + l.arg.toStdString() + "'");
         r.window_.set_text_size(points);
       }},
      {"high-contrast", kNoArgument,
       [](ScriptRunner& r, const Line& l) { r.window_.set_high_contrast(on_off(l.arg)); }},
      {"presenter", kNoArgument,
       [](ScriptRunner& r, const Line& l) { r.window_.set_presenter_view(on_off(l.arg)); }},
      {"panels", kNoArgument,
       [](ScriptRunner& r, const Line& l) { r.window_.set_panels_visible(on_off(l.arg)); }},
      // The Source window on a variant's code (without one: the running variant's), as its header opens it;
      // its Edit a copy is then `click-button Edit a copy`.
      {"source", kNoArgument,
       [](ScriptRunner& r, const Line& l) {
         const std::string variant = l.arg.toStdString();
         const KernelSpec& kernel = r.session_.kernel();
         if (!variant.empty() && !kernel.find_variant(variant))
           throw_usage("source: " + kernel.id + " has no variant '" + variant + "'",
                       "`kernelscope-cli list " + kernel.id + "` lists its variants");
         r.window_.panels().source_open = true;
         r.window_.panels().source.variant = variant;
       }},
      {"window-size", kArgument,
       [](ScriptRunner& r, const Line& l) {
         const QStringList wh = l.arg.split('x');
         bool ok_w = false, ok_h = false;
         const int w = wh.value(0).toInt(&ok_w), h = wh.value(1).toInt(&ok_h);
         if (wh.size() != 2 || !ok_w || !ok_h || w < 1 || h < 1)
           throw_usage("window-size needs WIDTHxHEIGHT in pixels, not '" + l.arg.toStdString() + "'");
         r.window_.resize(w, h);
       }},
  };
  return kCommands;
}

// What a person's hands do: clicks, the mouse, keys, drops, menus, and the answers to dialogs.
std::span<const ScriptRunner::Command> ScriptRunner::input_commands() {
  static constexpr Command kCommands[] = {
      {"click", kNoArgument,
       [](ScriptRunner& r, const Line& l) {
         if (l.words.size() != 3) throw_usage("click needs X Y (the viewport's logical pixels)");
         click_viewport(r.window_, QPointF(l.words[1].toDouble(), l.words[2].toDouble()));
       }},
      {"mouse", kNoArgument,
       [](ScriptRunner& r, const Line& l) {
         if (l.words.size() != 4) throw_usage("mouse needs down|move|up X Y (the viewport's logical pixels)");
         const QPointF at(l.words[2].toDouble(), l.words[3].toDouble());
         const QString& how = l.arg;
         if (how != "down" && how != "move" && how != "up")
           throw_usage("mouse needs down, move or up, not '" + how.toStdString() + "'");
         const QEvent::Type type = how == "down" ? QEvent::MouseButtonPress
                                   : how == "up" ? QEvent::MouseButtonRelease
                                                 : QEvent::MouseMove;
         r.mouse_down_ = how == "move" ? r.mouse_down_ : how == "down";
         mouse_on_viewport(r.window_, type, at, r.mouse_down_);
       }},
      {"key", kArgument, [](ScriptRunner& r, const Line& l) { press_key(r.window_, l.arg); }},
      {"drop", kArgument, [](ScriptRunner& r, const Line& l) { drop_file(r.window_, l.arg); }},
      {"menu", kArgument, [](ScriptRunner& r, const Line& l) { trigger_menu_entry(r.window_, l.rest); }},
      {"click-button", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.button_to_click_ = l.rest;
         r.window_.panels().buttons.scroll_to = r.window_.panels().topology.buttons.scroll_to =
             r.button_to_click_.toStdString();
         // the click goes where a frame scrolled it to
         r.click_seen_frame_ = r.window_.viewport().frames_drawn() + 2;
         r.window_.viewport().update();
       }},
      {"close-dialog", kNoArgument,
       [](ScriptRunner&, const Line&) {
         QWidget* dialog = QApplication::activeModalWidget();
         if (!dialog)
           throw_usage("no dialog is open", "open one with a menu entry first: nowait menu File/Open image...");
         dialog->close();
       }},
      {"save-as", kArgument, [](ScriptRunner& r, const Line& l) { r.window_.set_dialog_answer(l.rest); }},
      {"overwrite", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.window_.set_overwrite_answer(l.arg == "yes"  ? true
                                        : l.arg == "no" ? false
                                                        : throw_usage_bool(l.arg));
       }},
  };
  return kCommands;
}

// What the script writes or prints: shots, exports, playlists, the window's state.
std::span<const ScriptRunner::Command> ScriptRunner::output_commands() {
  static constexpr Command kCommands[] = {
      {"idle-shot", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.idle_shot_ = l.arg;
         r.idle_shot_quiet_ = QDeadlineTimer(kIdleShotQuietMs);
       }},
      {"window-shot", kArgument,
       [](ScriptRunner& r, const Line& l) {
         const bool written = r.window_.save_window(l.arg);
         r.print_questions();
         const qreal ratio = r.window_.devicePixelRatioF();
         if (written)
           print(QString("window-shot %1 %2x%3")
                     .arg(l.arg)
                     .arg(qRound(r.window_.width() * ratio))
                     .arg(qRound(r.window_.height() * ratio)));
       }},
      {"viewport-shot", kArgument,
       [](ScriptRunner& r, const Line& l) {
         const bool panels = !(l.words.size() > 2 && l.words[2] == "no-panels");
         const bool written = r.window_.save_viewport(l.arg, panels);
         r.print_questions();
         const auto& v = r.window_.viewport();
         const qreal ratio = v.devicePixelRatioF();
         if (written)
           print(QString("viewport-shot %1 %2x%3")
                     .arg(l.arg)
                     .arg(qRound(v.width() * ratio))
                     .arg(qRound(v.height() * ratio)));
       }},
      {"export", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.window_.export_result(l.arg, l.words.size() > 2 ? l.words[2].toInt() : 0);
         r.print_questions();
       }},
      {"export-timings", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.window_.export_timings(l.arg);
         r.print_questions();
       }},
      {"playlist", kArgument,
       [](ScriptRunner& r, const Line& l) {
         r.window_.open_playlist(l.arg);
         print_playlist(r.window_);
       }},
      {"next", kNoArgument, [](ScriptRunner& r, const Line&) { r.step_playlist(true); }},
      {"previous", kNoArgument, [](ScriptRunner& r, const Line&) { r.step_playlist(false); }},
      {"close-playlist", kNoArgument, [](ScriptRunner& r, const Line&) { r.window_.close_playlist(); }},
      {"print-playlist", kNoArgument, [](ScriptRunner& r, const Line&) { print_playlist(r.window_); }},
      {"print-status", kNoArgument,
       [](ScriptRunner& r, const Line&) { print(status_line(r.window_, r.session_)); }},
      {"print-menus", kNoArgument,
       [](ScriptRunner& r, const Line&) {
         for (const QString& entry : menu_entries(r.window_)) print("menu " + entry);
       }},
      {"print-about", kNoArgument,
       [](ScriptRunner& r, const Line&) { print("about " + about_plain_text(r.window_)); }},
  };
  return kCommands;
}

// `next` and `previous`: the open playlist's next or previous step.
void ScriptRunner::step_playlist(bool forward) {
  if (!window_.playlist()) throw_usage("no playlist is open", "playlist FILE first");
  const bool moved = forward ? window_.playlist_next() : window_.playlist_previous();
  if (!moved) print(QString("playlist: no ") + (forward ? "next" : "previous") + " step");
  print_playlist(window_);
}

}  // namespace ks::gui
