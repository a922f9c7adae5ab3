#include "qt/editor/listing_view.hpp"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QMetaObject>
#include <QPointer>
#include <QVBoxLayout>
#include <thread>

#include "core/error.hpp"
#include "report/listing_text.hpp"
#include "usercode/disassembler.hpp"

namespace ks::ui::qt {

ListingView::ListingView(QWidget* parent)
    : QWidget(parent), kind_(new QComboBox(this)), note_(new QLabel(this)), text_(new QPlainTextEdit(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  kind_->addItem("PTX (NVRTC's virtual instructions)");
  kind_->addItem("SASS (the GPU's own instructions, through nvdisasm)");
  layout->addWidget(kind_);
  note_->setWordWrap(true);
  layout->addWidget(note_);
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  layout->addWidget(text_, 1);
  connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
    listed_ = false;
    refresh();
  });
}

void ListingView::set_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel, const QString& source) {
  kernel_ = std::move(kernel);
  source_ = source;
  listed_ = false;
  if (isVisible()) refresh();
}

void ListingView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  refresh();
}

void ListingView::refresh() {
  if (listed_) return;
  listed_ = true;
  const std::uint64_t request = ++requests_;
  if (!kernel_ || !kernel_->ok()) {
    show_listing(request, {}, "Nothing compiled yet: the listing shows once the kernel compiles.");
    return;
  }
  note_->setText("Listing...");
  const usercode::ListingKind kind = kind_->currentIndex() == 1 ? usercode::ListingKind::Sass : usercode::ListingKind::Ptx;
  // nvdisasm is a child process (up to its time limit): never on the GUI thread.
  std::thread([self = QPointer<ListingView>(this), request, kind, module = kernel_->module,
               source = source_.toStdString()] {
    QString text, note;
    try {
      const usercode::Listing listing =
          usercode::compiler_listing(*module, kind, {usercode::find_nvdisasm(), std::chrono::milliseconds(30000)});
      text = QString::fromStdString(report::listing_text(listing, source));
      note = QString::fromStdString(listing.note);
    } catch (const Error& e) {
      note = QString::fromStdString(e.full_message());
    }
    QMetaObject::invokeMethod(qApp, [self, request, text, note] {
      if (self) self->show_listing(request, text, note);
    });
  }).detach();
}

void ListingView::show_listing(std::uint64_t request, const QString& text, const QString& note) {
  if (request != requests_) return;  // a newer kernel or kind was asked for meanwhile
  text_->setPlainText(text);
  note_->setText(note);
  note_->setVisible(!note.isEmpty());
}

}  // namespace ks::ui::qt
