#include "qt/editor/find_bar.hpp"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTextDocument>
#include <QToolButton>

#include "qt/editor/code_editor.hpp"

namespace ks::ui::qt {

namespace {

// Matches beyond this many are found by next/previous but not all highlighted (a one-letter search in a long
// file would otherwise colour the whole page).
constexpr int kHighlightLimit = 2000;

}  // namespace

FindBar::FindBar(CodeEditor& editor, QWidget* parent)
    : QWidget(parent), editor_(editor), field_(new QLineEdit(this)), status_(new QLabel(this)) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->addWidget(new QLabel("Find:", this));
  field_->setPlaceholderText("text in the kernel");
  field_->setClearButtonEnabled(true);
  field_->installEventFilter(this);
  layout->addWidget(field_, 1);
  auto button = [&](const QString& text, const QString& tip, auto slot) {
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setToolTip(tip);
    connect(b, &QToolButton::clicked, this, slot);
    layout->addWidget(b);
  };
  button("Previous", "Previous match (Shift+Enter, Shift+F3)", [this] { find_previous(); });
  button("Next", "Next match (Enter, F3)", [this] { find_next(); });
  layout->addWidget(status_);
  button("x", "Close (Escape)", [this] { close_bar(); });
  connect(field_, &QLineEdit::textChanged, this, [this] {
    update_matches();
    // As the text grows, the match under the cursor is kept: search from where the selection starts.
    QTextCursor c = editor_.textCursor();
    c.setPosition(c.selectionStart());
    editor_.setTextCursor(c);
    if (!field_->text().isEmpty()) find_next();
  });
  connect(editor_.document(), &QTextDocument::contentsChanged, this, [this] {
    if (isVisible()) update_matches();
  });
  hide();
}

void FindBar::open() {
  const QString selected = editor_.textCursor().selectedText();
  if (!selected.isEmpty() && !selected.contains(QChar::ParagraphSeparator)) field_->setText(selected);
  show();
  field_->setFocus(Qt::ShortcutFocusReason);
  field_->selectAll();
  update_matches();
}

void FindBar::close_bar() {
  hide();
  editor_.set_find_matches({});
  editor_.setFocus(Qt::OtherFocusReason);
}

void FindBar::set_text(const QString& text) { field_->setText(text); }
QString FindBar::text() const { return field_->text(); }
QString FindBar::status() const { return status_->text(); }

bool FindBar::find_next() { return find(false); }
bool FindBar::find_previous() { return find(true); }

bool FindBar::find(bool backward) {
  const QString needle = field_->text();
  if (needle.isEmpty()) return false;
  QTextDocument* doc = editor_.document();
  const QTextDocument::FindFlags flags = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
  QTextCursor found = doc->find(needle, editor_.textCursor(), flags);
  bool wrapped = false;
  if (found.isNull()) {  // past the end (or the start): go round
    QTextCursor from(doc);
    if (backward) from.movePosition(QTextCursor::End);
    found = doc->find(needle, from, flags);
    wrapped = !found.isNull();
  }
  if (found.isNull()) {
    status_->setText("no match");
    return false;
  }
  editor_.setTextCursor(found);
  editor_.centerCursor();
  // "k of n": the match's rank among all of them.
  int rank = 0, total = 0;
  for (QTextCursor c = doc->find(needle, QTextCursor(doc)); !c.isNull(); c = doc->find(needle, c)) {
    ++total;
    if (c.selectionStart() == found.selectionStart()) rank = total;
  }
  QString s = QString("%1 of %2").arg(rank).arg(total);
  if (wrapped) s += backward ? ", wrapped to the bottom" : ", wrapped to the top";
  status_->setText(s);
  return true;
}

void FindBar::update_matches() {
  QList<QTextCursor> matches;
  const QString needle = field_->text();
  if (!needle.isEmpty()) {
    QTextDocument* doc = editor_.document();
    for (QTextCursor c = doc->find(needle, QTextCursor(doc)); !c.isNull() && matches.size() < kHighlightLimit;
         c = doc->find(needle, c))
      matches << c;
  }
  editor_.set_find_matches(matches);
  status_->setText(needle.isEmpty() ? QString() : matches.isEmpty() ? QString("no match") : QString());
}

bool FindBar::eventFilter(QObject* watched, QEvent* event) {
  if (watched == field_ && event->type() == QEvent::KeyPress) {
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
      key->modifiers() & Qt::ShiftModifier ? find_previous() : find_next();
      return true;
    }
    if (key->key() == Qt::Key_Escape) {
      close_bar();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace ks::ui::qt
