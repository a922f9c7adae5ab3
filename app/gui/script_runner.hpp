#pragma once
// A scripted session for tests and demos (`kernelscope --script FILE`): one command per line, each started when
// the previous one has finished (runs and loads included), with the window drawing all the while, as it does
// for a person. Blank lines and lines starting with '#' are skipped.
//
//   open PATH | open sample      kernel ID         param NAME=VALUE     backend cpu|cuda    variant NAME
//   block WxH | block default    type u8|f32       run                  wait                fit
//   split on|off                 panels on|off     sweep
//   window-shot PATH             (the whole window; prints "window-shot PATH WxH")
//   viewport-shot PATH [no-panels]  (prints "viewport-shot PATH WxH")
//   export PATH [8|16]           export-timings PATH                    print-status        quit
//   expect-error                 (the previous command failed as it should; without it a failure ends the script)
//
// A failing command ends the app with exit code 1 and "script line N: ..." on stderr; a script that does not
// finish within its time limit ends it with exit code 3.
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

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

 private:
  void step();
  bool waiting() const;  // the previous command's work is still going on
  void run_line(const QString& line);
  void fail(const QString& message);

  ui::qt::MainWindow& window_;
  app::Session& session_;
  QStringList lines_;
  int next_ = 0;
  QTimer timer_;
  QTimer deadline_;
  bool wait_for_work_ = false;
  QString failure_;        // of the last command, until expect-error takes it
  int settle_frames_ = 0;  // frames to draw after work ended, so that a shot shows the result
};

}  // namespace ks::gui
