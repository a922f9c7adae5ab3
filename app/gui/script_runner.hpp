#pragma once
// A scripted session for tests and demos (`kernelscope --script FILE`): one command per line, each started when
// the previous one has finished (runs and loads included), with the window drawing all the while, as it does
// for a person. Blank lines and lines starting with '#' are skipped.
//
//   open PATH | open sample      kernel ID         param NAME=VALUE     backend cpu|cuda    variant NAME
//   block WxH | block default    type u8|f32       run                  wait                fit
//   split on|off                 panels on|off     sweep                colormap NAME       zoom FACTOR
//   text-size POINTS             high-contrast on|off   presenter on|off   (View > Text size, ..., Presenter view)
//   device-model ID|none         (the Launch section's device model, e.g. h100: the launch pictured without a GPU)
//   drop PATH                    (a file dropped on the window, as from a file manager)
//   click X Y                    (a left click at the viewport's logical pixel X, Y: panels included)
//   mouse down|move|up X Y       (one mouse event there: the left button pressed or released, or the pointer
//                                moved, dragging while the button is down; each waits for frames as a person's
//                                hand would)
//   menu MENU/ENTRY              (triggers a menu entry by its text, e.g. "menu View/1:1"; one that opens a real
//                                dialog only as `nowait menu ...` followed by close-dialog)
//   close-dialog                 (closes the modal dialog that is open, as Escape would)
//   window-shot PATH             (the whole window; prints "window-shot PATH WxH")
//   viewport-shot PATH [no-panels]  (prints "viewport-shot PATH WxH")
//   idle-shot PATH               (once the work is done and the window has had 0.8 s to itself, the viewport's
//                                last frame as it stands, no new one drawn: what a person who does not touch the
//                                mouse sees; prints "idle-shot PATH WxH")
//   export PATH [8|16]           export-timings PATH
//   overwrite yes|no             (the answer the commands that write give to "replace these files?"; each
//                                question asked is printed: "question: Replace files? a.png, a.png.json -> no")
//   save-as PATH                 (the answer of the next save or folder dialog; without one it is cancelled;
//                                a relative PATH is taken in the folder the dialog opens in, as a typed name;
//                                printed as "question: Dialog TITLE -> PATH")
//   click-button LABEL           (a left click on a panel's button by its label, e.g. "click-button Export GIF...",
//                                scrolled into view first; buttons drawn through panels::named_button)
//   print-status                 (prints "status input=... kernel=... backend=... runs=N panels=on split=off ...")
//   print-menus                  (prints "menu File/Open image... [Ctrl+O]" for every entry)
//   print-about                  (prints the About box's text)
//   nowait COMMAND               (COMMAND without waiting for the work it starts: e.g. quitting during it;
//                                `nowait click-button` clicks without waiting for work that runs, as a hand
//                                would, and does not wait for what the click starts)
//   sleep MS                     (lets MS milliseconds pass, the window drawing: work started before goes on;
//                                `nowait sleep MS` only lets the time pass, without waiting for that work after)
//   quit                         (when the window and the session are gone: "quit: closed in N ms")
//   lab-size TEXT                (the Lab section's size; `run` and `sweep` act on the lab while a lab kernel is
//                                chosen)
//   print-lab                    (prints "lab kernel=ID runs=N last=VARIANT@SIZE check=agrees|disagrees|unchecked
//                                image=WxH|none sweep=P/T complete|running|cancelled|none")
//   pattern NAME|FILE.rle, sim play|pause|step N|paint X Y|...  (live simulations: gui/sim_script.hpp)
//   topo generate|add|placements|time-limit|run|wait|cancel|print  (the Topology window: gui/topology_script.hpp)
//   playlist FILE|DEMO, next, previous, close-playlist, print-playlist  (demo playlists: gui/playlist_script.hpp;
//                                each but close prints the playlist's state)
//   editor show|open|text|type|find|save|print|...  (the kernel editor: gui/editor_script.hpp)
//   window-size WxH              (the window's size in logical pixels, as a person dragging its corner)
//   key space|pagedown|pageup|left|right|escape  (a key press on the viewport, window shortcuts included)
//   expect-error                 (the previous command failed as it should; without it a failure ends the script)
//
// A failing command ends the app with exit code 1 and "script line N: ..." on stderr; a script that does not
// finish within its time limit ends it with exit code 3.
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <cstdint>
#include <span>

namespace ks::app {
class Session;
}
namespace ks::ui::qt {
class MainWindow;
}

namespace ks::gui {

class ScriptRunner : public QObject {
  Q_OBJECT

 public:
  ScriptRunner(ui::qt::MainWindow& window, app::Session& session, QStringList lines, int time_limit_s);
  void start();
  // Since the script's `quit` (invalid before it): main() says how long closing took, the work it cancelled and
  // joined included, so a test can hold quitting to "at once".
  const QElapsedTimer& since_quit() const noexcept { return since_quit_; }

 private:
  void step();
  bool waiting() const;  // the previous command's work is still going on
  void run_line(const QString& line);
  void fail(const QString& message);
  void print_questions();  // the dialogs and overwrite questions since the last call, if any
  bool click_pending_button();  // click-button's second half, once the button was scrolled into view
  void idle_shot_step();        // idle-shot's wait, then its shot
  void step_playlist(bool forward);

  // The commands, in tables by what they act on (script_runner.cpp): adding a command is adding an entry.
  struct Line;
  struct Command {
    const char* name;
    bool needs_argument;
    void (*run)(ScriptRunner& runner, const Line& line);
  };
  static const Command* find_command(const QString& name);
  static std::span<const Command> session_commands();
  static std::span<const Command> view_commands();
  static std::span<const Command> input_commands();
  static std::span<const Command> output_commands();

  ui::qt::MainWindow& window_;
  app::Session& session_;
  QStringList lines_;
  int next_ = 0;
  QTimer timer_;
  QTimer deadline_;
  bool wait_for_work_ = false;
  long long sim_wait_generation_ = -1;  // `sim wait-generation N` (gui/sim_script.hpp)
  QString failure_;        // of the last command, until expect-error takes it
  bool wait_for_topology_ = false;  // `topo wait`: until the Topology document's worker is idle
  bool mouse_down_ = false;  // `mouse down` until `mouse up`: moves between them drag
  QDeadlineTimer sleep_until_;  // `sleep MS` (default: expired)
  QString idle_shot_;             // idle-shot's file, until written
  QDeadlineTimer idle_shot_quiet_;  // idle-shot: when the window has been left alone long enough
  QElapsedTimer since_quit_;
  QString button_to_click_;  // click-button's label, until clicked (after a frame that scrolled to it)
  bool click_nowait_ = false;  // `nowait click-button`: the work the click starts is not waited for
  // The viewport frame to wait for after work ended: ImGui settles over a few frames, and a shot or a click
  // must see the result.
  std::uint64_t settle_until_frame_ = 0;
  // After a click: the frame that sees it must be drawn before the work it asks for can be waited on (a panel
  // button queues its request in that frame, and the window serves it after the frame).
  std::uint64_t click_seen_frame_ = 0;
};

}  // namespace ks::gui
