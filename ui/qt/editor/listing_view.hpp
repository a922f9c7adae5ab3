#pragma once
// What the compiler made of the kernel, instruction by instruction: the PTX (from NVRTC) or the SASS (the
// toolkit's nvdisasm on the CUBIN, PTX with a note where there is none), each instruction under the line of the
// user's file it came from (report/listing_text.hpp, as `kernelscope-cli compile --ptx/--sass` prints it). Made
// off the GUI thread when the tab is shown, for the kernel last compiled.
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QWidget>
#include <cstdint>
#include <memory>

#include "usercode/user_kernel.hpp"

namespace ks::ui::qt {

class ListingView : public QWidget {
  Q_OBJECT

 public:
  explicit ListingView(QWidget* parent = nullptr);
  // The kernel to list (null: nothing compiled); listed at once if the view is visible, else when it shows.
  void set_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel, const QString& source);
  QPlainTextEdit& text() noexcept { return *text_; }
  QString note() const { return note_->text(); }

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void refresh();
  void show_listing(std::uint64_t request, const QString& text, const QString& note);

  QComboBox* kind_;
  QLabel* note_;
  QPlainTextEdit* text_;
  std::shared_ptr<const usercode::CompiledKernel> kernel_;
  QString source_;
  bool listed_ = false;        // the text shows the current kernel and kind
  std::uint64_t requests_ = 0;  // the newest request's number: older answers are dropped
};

}  // namespace ks::ui::qt
