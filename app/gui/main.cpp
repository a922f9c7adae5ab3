// kernelscope: the desktop app. With no argument it opens the embedded sample image, with a file argument that
// file; `--playlist FILE` presents a demo playlist over it. `--screenshot OUT.png ...` renders one frame
// without a display (EGL) and exits, before any Qt object exists, so it runs on machines with no X server at all.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QSurfaceFormat>
#include <QTimer>
#include <cstdio>
#include <memory>

#include "core/error.hpp"
#include "gui/screenshot.hpp"
#include "gui/script_runner.hpp"
#include "qt/main_window.hpp"
#include "session/session.hpp"

namespace {

struct GuiOptions {
  QString file;
  QString backend;  // "", "cpu" or "cuda"
  unsigned threads = 0;
  QString script;
  QString playlist;  // a .json file or the name of a demo playlist
  QString kernel;    // a .cu file to open in the kernel editor
  QString settings_file;
  int script_time_limit_s = 300;
};

// Usage errors of the command line: printed like the CLI's, exit code 2.
GuiOptions parse(const QCoreApplication& app) {
  QCommandLineParser p;
  p.setApplicationDescription(
      "kernelscope: explore GPU image kernels. Opens FILE, or the embedded sample image without one.\n"
      "kernelscope --screenshot OUT.png [--kernel K] [--param k=v]... [FILE] renders one frame without a display\n"
      "(kernelscope --screenshot OUT.png --help lists its options: your own kernel, counters, sections, ...).");
  p.addHelpOption();
  p.addVersionOption();
  p.addPositionalArgument("FILE", "An image to open (PNG, JPEG, BMP, TGA, GIF, PSD, HDR, PNM)", "[FILE]");
  QCommandLineOption backend("backend", "cpu: never use CUDA; cuda: use it (the default when there is a GPU)",
                             "cpu|cuda");
  QCommandLineOption threads("threads", "Worker threads of the CPU backend (0: every core)", "N", "0");
  QCommandLineOption playlist("playlist",
                              "Present a demo playlist: a .json file, or naive-tiled-separable, "
                              "block-sizes-occupancy or life-naive-to-bitpacked (Space: next step, Page Up: back)",
                              "FILE");
  QCommandLineOption edit_kernel("edit-kernel", "Open a CUDA kernel (.cu) in the kernel editor", "FILE.cu");
  QCommandLineOption script("script", "Run the commands of FILE in the window (tests, demos)", "FILE");
  QCommandLineOption settings("settings", "Keep settings in this INI file instead of the user's", "FILE");
  QCommandLineOption limit("script-time-limit", "Seconds a --script may take", "S", "300");
  for (auto* o : {&script, &settings, &limit}) o->setFlags(QCommandLineOption::HiddenFromHelp);
  p.addOptions({backend, threads, playlist, edit_kernel, script, settings, limit});
  p.process(app);  // --help, --version and unknown options end the process here (exit 0 / 1)

  GuiOptions o;
  const QStringList files = p.positionalArguments();
  if (files.size() > 1) ks::throw_usage("give at most one file to open", "drop the extra arguments");
  if (!files.isEmpty()) o.file = files[0];
  o.backend = p.value(backend);
  if (!o.backend.isEmpty() && o.backend != "cpu" && o.backend != "cuda")
    ks::throw_usage("--backend must be cpu or cuda, not '" + o.backend.toStdString() + "'");
  bool ok = false;
  o.threads = p.value(threads).toUInt(&ok);
  if (!ok) ks::throw_usage("--threads must be a whole number, not '" + p.value(threads).toStdString() + "'");
  o.script = p.value(script);
  o.playlist = p.value(playlist);
  o.kernel = p.value(edit_kernel);
  o.settings_file = p.value(settings);
  o.script_time_limit_s = p.value(limit).toInt(&ok);
  if (!ok || o.script_time_limit_s < 1) ks::throw_usage("--script-time-limit must be a positive number of seconds");
  return o;
}

QStringList read_script(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
    ks::throw_io("cannot read the script '" + path.toStdString() + "': " + f.errorString().toStdString());
  return QString::fromUtf8(f.readAll()).split('\n');
}

// --help and --version need no window: answered through a QCoreApplication, which needs no display (a terminal
// over ssh, or help2man making the man page while the package builds).
bool wants_help_or_version(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const QString a = QString::fromLocal8Bit(argv[i]);
    if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version") return true;
  }
  return false;
}

void name_application() {
  QCoreApplication::setOrganizationName("kernelscope");
  QCoreApplication::setApplicationName("kernelscope");
  QCoreApplication::setApplicationVersion(KS_VERSION);
}

int print_help_or_version(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  name_application();
  parse(app);  // prints and exits
  return 0;
}

int run_gui(int argc, char** argv) {
  // GL 3.3 core everywhere: the renderer's shaders and ImGui's backend are written for it.
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  QSurfaceFormat::setDefaultFormat(format);
  QApplication app(argc, argv);
  name_application();

  const GuiOptions opt = parse(app);
  // What a script's quit must wait for is everything below: the window, the runner and the session (its workers
  // cancelled and joined) go at the end of this block, before the time is taken.
  QElapsedTimer since_quit;
  int code = 0;
  {
    ks::app::Session::Options so;
    so.cpu_threads = opt.threads;
    so.use_cuda = opt.backend != "cpu";
    ks::app::Session session(so);
    if (opt.backend == "cuda") session.set_backend(ks::Backend::Cuda);  // says why not, when there is no GPU

    std::unique_ptr<QSettings> settings = opt.settings_file.isEmpty()
                                              ? std::make_unique<QSettings>()
                                              : std::make_unique<QSettings>(opt.settings_file, QSettings::IniFormat);
    ks::ui::qt::MainWindow window(session, *settings);
    if (opt.file.isEmpty())
      session.open_sample();
    else
      window.open_file(opt.file);  // in the background; the sample stands in if it cannot be read
    window.show();

    std::unique_ptr<ks::gui::ScriptRunner> runner;
    if (!opt.script.isEmpty()) {
      runner = std::make_unique<ks::gui::ScriptRunner>(window, session, read_script(opt.script),
                                                       opt.script_time_limit_s);
      runner->start();
    }
    if (!opt.playlist.isEmpty()) {
      try {
        window.open_playlist(opt.playlist);
      } catch (const ks::Error& e) {  // the window stays, and says why (a dialog, or the script's failure)
        window.show_playlist_error(QString::fromStdString(e.full_message()));
      }
    }
    if (!opt.kernel.isEmpty()) window.edit_kernel(opt.kernel);  // a file it refuses: a dialog says why
    code = QApplication::exec();
    if (runner) since_quit = runner->since_quit();
  }
  if (since_quit.isValid()) std::printf("quit: closed in %lld ms\n", static_cast<long long>(since_quit.elapsed()));
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (ks::app::wants_screenshot(argc, argv)) return ks::app::screenshot_main(argc, argv);
    if (wants_help_or_version(argc, argv)) return print_help_or_version(argc, argv);
    return run_gui(argc, argv);
  } catch (const ks::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.full_message().c_str());
    return ks::exit_code_for(e.kind());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s. This is a bug of kernelscope; please report it\n", e.what());
    return 1;
  }
}
