#pragma once
// The kernel editor in a --script (qt/editor): what a person does in it and what it shows, as lines a test can
// check. Each command waits, as every command does, until the editor has compiled the current text.
//   editor show                   Kernel > Edit kernel... (smooth3x3.cu the first time)
//   editor open PATH              File > Open kernel... with PATH chosen (a refused file is an expected error)
//   editor text PATH              the editor's whole text replaced by PATH's, as a paste (undoable)
//   editor type TEXT              keystrokes into the text at the cursor (\n is Enter); needs Qt Test
//   editor go-to LINE [COLUMN]    the cursor to a 1-based line and column
//   editor undo | redo
//   editor click-problem N        a click on the list's N-th message (1-based); needs Qt Test
//   editor find TEXT | find-next | find-previous   the find bar; each prints "editor found L:C STATUS"
//   editor save | save-as         (save-as takes the answer of `save-as PATH` before it)
//   editor answer save|discard|cancel   the answer to "save changes to the kernel?" (discard until set)
//   editor block WxH              the block the occupancy is worked out for
//   editor print                  prints the editor's state:
//       editor name=N file=PATH|none modified=yes|no visible=yes|no errors=E warnings=W cursor=L:C brace=L:C|none
//              stale=S status=TEXT
//       editor layout window=WxH dock=WxH floating=yes|no viewport=WxH
//       editor marker LINE error|warning          (every line with a gutter marker)
//       editor problem SEVERITY LINE[:COLUMN]|- MESSAGE   (the list, in order)
//       editor fact LABEL=VALUE                   (what the compiler made of the entry)
//       editor occupancy TEXT
//       editor param NAME TYPE RANGE = DEFAULT
//       editor run enabled|disabled TOOLTIP
#include <QString>
#include <QStringList>

namespace ks::ui::qt {
class MainWindow;
}

namespace ks::gui {

// Runs `editor ...` (false: not an editor command); a usage Error for bad arguments.
bool run_editor_command(const QStringList& words, const QString& rest, ui::qt::MainWindow& window);

}  // namespace ks::gui
