#include "qt/editor/kernel_editor.hpp"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <QHBoxLayout>
#include <QLabel>
#include <QMetaMethod>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include "core/device_models.hpp"
#include "qt/editor/code_editor.hpp"
#include "qt/editor/compile_facts_view.hpp"
#include "qt/editor/compile_worker.hpp"
#include "qt/editor/cuda_highlighter.hpp"
#include "qt/editor/diagnostics_list.hpp"
#include "qt/editor/find_bar.hpp"
#include "qt/editor/listing_view.hpp"
#include "qt/editor/parameters_view.hpp"

namespace ks::ui::qt {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString plural(int n, const char* word) { return QString("%1 %2%3").arg(n).arg(word).arg(n == 1 ? "" : "s"); }

int count_of(const std::vector<editor::EditorDiagnostic>& ds, usercode::Severity s) {
  int n = 0;
  for (const auto& d : ds) n += d.severity == s;
  return n;
}

}  // namespace

KernelEditor::KernelEditor(QWidget* parent, editor::CompileFunction compile)
    : QWidget(parent),
      code_(new CodeEditor(this)),
      find_bar_(new FindBar(*code_, this)),
      problems_(new DiagnosticsList(this)),
      facts_(new CompileFactsView(this)),
      parameters_(new ParametersView(this)),
      listing_(new ListingView(this)),
      tabs_(new QTabWidget(this)),
      status_(new QLabel(this)),
      run_(new QPushButton("Run", this)),
      worker_(new CompileWorker(std::move(compile), this)) {
  new CudaHighlighter(code_->document());  // owned by the document
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(find_bar_);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(code_);
  problems_->setToolTip("The compiler's errors and warnings: click one to go to its line");
  splitter->addWidget(problems_);
  auto* bottom = new QWidget(this);
  auto* bottom_layout = new QVBoxLayout(bottom);
  bottom_layout->setContentsMargins(0, 0, 0, 0);
  auto* status_row = new QHBoxLayout;
  status_->setWordWrap(true);
  status_row->addWidget(status_, 1);
  status_row->addWidget(run_);
  bottom_layout->addLayout(status_row);
  // In a scroll area, so that the facts never take the code's height on a small screen.
  auto* facts_scroll = new QScrollArea(this);
  facts_scroll->setWidget(facts_);
  facts_scroll->setWidgetResizable(true);
  facts_scroll->setFrameShape(QFrame::NoFrame);
  tabs_->addTab(facts_scroll, "Compiled");
  tabs_->setTabToolTip(0, "What the compiler made of the entry, and its occupancy at a block you choose");
  tabs_->addTab(parameters_, "Parameters");
  tabs_->setTabToolTip(1, "The parameters the kernel declares with // @param");
  tabs_->addTab(listing_, "PTX / SASS");
  tabs_->setTabToolTip(2, "The instructions the compiler made, each under the line of your file it came from");
  bottom_layout->addWidget(tabs_, 1);
  splitter->addWidget(bottom);
  // Most of the height for the code; the shares hold at any size (the splitter scales them).
  splitter->setSizes({600, 110, 290});
  splitter->setStretchFactor(0, 6);
  splitter->setStretchFactor(1, 1);
  splitter->setStretchFactor(2, 3);
  layout->addWidget(splitter, 1);

  connect(code_, &QPlainTextEdit::textChanged, this, &KernelEditor::text_edited);
  connect(code_, &CodeEditor::save_shortcut, this, &KernelEditor::save_shortcut);
  connect(code_->document(), &QTextDocument::modificationChanged, this, [this] { emit title_changed(title()); });
  connect(problems_, &DiagnosticsList::go_to, code_, &CodeEditor::go_to);
  // Emitted on the GUI thread (the worker queues it there), so direct: the outcome shows as the worker counts
  // it done.
  connect(worker_, &CompileWorker::compiled, this, &KernelEditor::show_outcome);
  connect(run_, &QPushButton::clicked, this, [this] {
    if (shown_ && shown_->runnable() && !compiling()) emit runRequested(shown_->kernel, compiled_text_, name_);
  });
  facts_->set_device({device_model("h100").limits, true});  // until the window says which GPU
  update_run_button();
}

KernelEditor::~KernelEditor() = default;

void KernelEditor::set_untitled(const QString& text, const QString& name) { set_document(text, name, QString()); }

void KernelEditor::set_file(const QString& text, const QString& path) {
  set_document(text, QFileInfo(path).fileName(), path);
}

void KernelEditor::set_document(const QString& text, const QString& name, const QString& path) {
  path_ = path;
  name_ = name;
  shown_.reset();
  code_->set_diagnostics({});
  problems_->show_diagnostics({});
  compiled_text_.clear();     // the same text again (a file opened anew) compiles too
  code_->setPlainText(text);  // a new undo history; text_edited schedules the compile
  code_->document()->setModified(false);
  worker_->compile_now();  // a new document compiles at once
  emit title_changed(title());
}

void KernelEditor::mark_saved(const QString& path) {
  path_ = path;
  const QString name = QFileInfo(path).fileName();
  const bool renamed = name != name_;
  name_ = name;
  code_->document()->setModified(false);
  emit title_changed(title());
  if (renamed) {  // messages name the file: compile again under the new name
    compiled_text_.clear();
    text_edited();
  }
}

bool KernelEditor::modified() const { return code_->document()->isModified(); }
QString KernelEditor::text() const { return code_->toPlainText(); }
QString KernelEditor::title() const { return name_ + (modified() ? " *" : ""); }

void KernelEditor::set_text_size(float panel_points) {
  QFont font = code_->font();
  font.setPointSizeF(std::max(11.0, std::round(panel_points * 0.85)));
  code_->setFont(font);
}

void KernelEditor::set_device(const editor::OccupancyDevice& device, const std::string& arch) {
  facts_->set_device(device);
  if (arch == arch_) return;
  arch_ = arch;
  usercode::CompileOptions options = worker_->options();
  options.arch = arch;
  worker_->set_options(options);
  if (!compiled_text_.isEmpty()) {  // compile the text again for that GPU
    compiled_text_.clear();
    text_edited();
  }
}

bool KernelEditor::compiling() const { return worker_->busy(); }
void KernelEditor::compile_now() { worker_->compile_now(); }

void KernelEditor::text_edited() {
  const QString text = code_->toPlainText();
  if (text == compiled_text_) return;  // a change of colours or selection, not of the text
  compiled_text_ = text;
  ++generation_;
  worker_->schedule(text.toStdString(), name_.toStdString(), generation_);
  status_->setText("Compiling...");
  update_run_button();
}

void KernelEditor::show_outcome(std::shared_ptr<const editor::CompileOutcome> outcome) {
  if (outcome->cancelled) {  // a newer edit stopped it; that edit's outcome follows
    update_run_button();
    return;
  }
  if (outcome->generation != generation_) {  // for a text that has changed since
    ++stale_dropped_;
    update_run_button();
    return;
  }
  shown_ = *outcome;
  code_->set_diagnostics(outcome->diagnostics);
  problems_->show_diagnostics(outcome->diagnostics);
  const int errors = count_of(outcome->diagnostics, usercode::Severity::Error);
  if (outcome->runnable()) {
    facts_->show_kernel(outcome->kernel, {});
  } else {
    facts_->show_kernel(nullptr, errors ? "Does not compile: " + plural(errors, "error") + " (listed above)."
                                        : QString("Nothing compiled."));
  }
  parameters_->show_parameters(outcome->kernel ? outcome->kernel->declarations.parameters
                                               : std::vector<usercode::DeclaredParameter>{});
  listing_->set_kernel(outcome->runnable() ? outcome->kernel : nullptr, compiled_text_);
  update_run_button();
  emit outcome_shown();
}

QString KernelEditor::status_text() const { return status_->text(); }

void KernelEditor::update_run_button() {
  if (!compiling() && shown_) {
    const auto& o = *shown_;
    const int errors = count_of(o.diagnostics, usercode::Severity::Error);
    const int warnings = count_of(o.diagnostics, usercode::Severity::Warning);
    if (o.runnable()) {
      const auto& k = *o.kernel;
      QString s = QString("Compiles for %1: %2").arg(q(arch_), q(k.entry_facts().name));
      if (k.family) s += QString(", %1 family").arg(usercode::to_string(*k.family));
      if (warnings) s += ", " + plural(warnings, "warning");
      status_->setText(s);
    } else {
      status_->setText(errors ? "Does not compile: " + plural(errors, "error") : QString("Does not compile"));
    }
  }
  const bool runner = isSignalConnected(QMetaMethod::fromSignal(&KernelEditor::runRequested));
  const bool ready = shown_ && shown_->runnable() && !compiling();
  run_->setEnabled(runner && ready);
  run_->setToolTip(!runner  ? "nothing here runs kernels"
                   : ready ? "Run the kernel on the image instead of the built-in kernel (stencil kernels), in "
                             "the Lab on a lab kernel's inputs (array kernels), or in the simulation instead of "
                             "its built-in steps (step kernels)"
                           : "The kernel must compile first");
}

void KernelEditor::connectNotify(const QMetaMethod& signal) {
  QWidget::connectNotify(signal);
  if (signal == QMetaMethod::fromSignal(&KernelEditor::runRequested))
    QMetaObject::invokeMethod(this, [this] { update_run_button(); }, Qt::QueuedConnection);
}

}  // namespace ks::ui::qt
