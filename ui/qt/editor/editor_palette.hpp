#pragma once
// The kernel editor's colours: a dark surface like the panels' (the token colours of source/token_colours.hpp
// are chosen against one), and the colours of errors and warnings, shared by the gutter, the lines and the list.
#include <QColor>
#include <QPalette>

#include "usercode/diagnostics.hpp"

namespace ks::ui::qt {

inline QColor editor_background() { return {30, 31, 36}; }
inline QColor editor_text() { return {220, 221, 225}; }
inline QColor gutter_background() { return {40, 41, 47}; }
inline QColor gutter_numbers() { return {125, 128, 140}; }
inline QColor current_line_background() { return {44, 46, 54}; }
inline QColor find_match_background() { return {120, 100, 30}; }
inline QColor unclosed_brace_background() { return {200, 50, 50}; }

inline QColor severity_colour(usercode::Severity s) {
  switch (s) {
    case usercode::Severity::Error:
      return {235, 75, 70};
    case usercode::Severity::Warning:
      return {235, 180, 50};
    case usercode::Severity::Note:
      break;
  }
  return {110, 160, 235};
}

// The tint of a line with an error or a warning: the marker's colour, faint enough to read the code through.
inline QColor severity_line_tint(usercode::Severity s) {
  QColor c = severity_colour(s);
  c.setAlpha(55);
  return c;
}

// The editor's text surface: dark, light text, a visible selection.
inline QPalette editor_palette(QPalette p) {
  p.setColor(QPalette::Base, editor_background());
  p.setColor(QPalette::Text, editor_text());
  p.setColor(QPalette::Highlight, QColor(60, 90, 150));
  p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
  return p;
}

}  // namespace ks::ui::qt
