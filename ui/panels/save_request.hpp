#pragma once
// How a panel's export button asks for a file. The panels are Qt-free, so a button cannot open a file dialog: it
// queues a SaveRequest on PanelState::save_requests, and the window services the queue after the frame
// (MainWindow::serve_save_request) with the save dialog and the replace question of the menus' exports. One
// mechanism for every panel button: a new export fills in a request, nothing else. Headless frames service
// nothing (there is no one to ask), and the queue is dropped there.
#include <functional>
#include <string>
#include <vector>

namespace ks::ui {

struct SaveRequest {
  enum class Target { File, Folder };
  Target target = Target::File;
  std::string title;      // the dialog's title; also the title of an error about this export
  std::string suggested;  // Target::File: the file name offered in the last folder
  std::string filters;    // Target::File: the dialog's filters, as Qt writes them: "Animated GIF (*.gif)"
  // The files that writing to `path` would replace if they exist; the window asks before replacing those that
  // do. Empty function: none.
  std::function<std::vector<std::string>(const std::string& path)> replaces;
  // Writes to (or starts writing to) the chosen path and returns what the status bar says; throws ks::Error,
  // which the window shows. The session it uses outlives the request (both belong to the window's lifetime).
  std::function<std::string(const std::string& path)> write;
};

}  // namespace ks::ui
