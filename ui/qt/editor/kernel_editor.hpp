#pragma once
// The kernel editor: the code (code_editor.hpp) with its find bar, compiled as you type (compile_worker.hpp);
// under it the list of errors and warnings, what the compiler made of the entry with its occupancy, and the
// declared parameters; a Run button for the kernel that compiles. It holds one document: a file, or an untitled
// text (a template), with a modified flag. Files and dialogs are the dock's (kernel_editor_dock.hpp).
#include <QString>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <optional>

#include "editor/compile_outcome.hpp"
#include "editor/compile_summary.hpp"

class QLabel;
class QPushButton;
class QTabWidget;

namespace ks::ui::qt {

class CodeEditor;
class CompileFactsView;
class CompileWorker;
class DiagnosticsList;
class FindBar;
class ParametersView;
class ListingView;

class KernelEditor : public QWidget {
  Q_OBJECT

 public:
  explicit KernelEditor(QWidget* parent = nullptr, editor::CompileFunction compile = usercode::compile_user_kernel);
  ~KernelEditor() override;

  // A new document: `text` with no file behind it (saving asks where), named `name` ("smooth3x3.cu").
  void set_untitled(const QString& text, const QString& name);
  // The document of a file already read; not modified.
  void set_file(const QString& text, const QString& path);
  void mark_saved(const QString& path);  // the text is now in `path`
  QString file_path() const { return path_; }  // empty: untitled
  QString display_name() const { return name_; }
  bool modified() const;
  QString text() const;
  // "smooth3x3.cu", with " *" while modified.
  QString title() const;

  // The code's size for the panels' text size (View > Text size, in points): a little smaller, as code is
  // denser than the panels' words, and never below 11 points.
  void set_text_size(float panel_points);

  // The GPU the occupancy is for and the architecture compiled for (sm_90 without a GPU).
  void set_device(const editor::OccupancyDevice& device, const std::string& arch);
  const std::string& arch() const noexcept { return arch_; }

  // The outcome shown (the last one for the current text); none before the first.
  const std::optional<editor::CompileOutcome>& shown_outcome() const noexcept { return shown_; }
  // The current text's compile is waiting for the pause in typing or running.
  bool compiling() const;
  void compile_now();  // without waiting for the pause
  std::uint64_t stale_outcomes_dropped() const noexcept { return stale_dropped_; }
  QString status_text() const;

  CodeEditor& code() noexcept { return *code_; }
  FindBar& find_bar() noexcept { return *find_bar_; }
  DiagnosticsList& problems() noexcept { return *problems_; }
  CompileFactsView& facts() noexcept { return *facts_; }
  ParametersView& parameters() noexcept { return *parameters_; }
  ListingView& listing() noexcept { return *listing_; }
  QPushButton& run_button() noexcept { return *run_; }

 signals:
  // The Run button: the compiled kernel with the text and file name it came from.
  void runRequested(std::shared_ptr<const ks::usercode::CompiledKernel> kernel, QString source, QString fileName);
  void title_changed(const QString& title);
  void save_shortcut();  // Ctrl+S in the text
  void outcome_shown();  // a compile's outcome for the current text is shown

 protected:
  void connectNotify(const QMetaMethod& signal) override;  // Run is enabled once something runs kernels

 private:
  void text_edited();
  void show_outcome(std::shared_ptr<const editor::CompileOutcome> outcome);
  void update_run_button();
  void set_document(const QString& text, const QString& name, const QString& path);

  CodeEditor* code_;
  FindBar* find_bar_;
  DiagnosticsList* problems_;
  CompileFactsView* facts_;
  ParametersView* parameters_;
  ListingView* listing_;
  QTabWidget* tabs_;
  QLabel* status_;
  QPushButton* run_;
  CompileWorker* worker_;
  QString path_, name_;
  std::string arch_ = "sm_90";
  std::uint64_t generation_ = 0;  // edits of the text so far
  QString compiled_text_;         // the text of generation_, as handed to the worker
  std::optional<editor::CompileOutcome> shown_;
  std::uint64_t stale_dropped_ = 0;
};

}  // namespace ks::ui::qt
