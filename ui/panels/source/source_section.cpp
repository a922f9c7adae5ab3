// Source: the code of the kernel's variant as this binary was built from it (ui/source: embedded at build
// time), with line numbers and syntax colours, scrolled to the function the variant runs; "compare with"
// shows the lines another variant's file has and this one has not (red) and the other way round (green).
#include "panels/source/source_section.hpp"

#include <imgui.h>

#include <algorithm>
#include <optional>
#include <cfloat>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "copies/kernel_copy.hpp"
#include "core/error.hpp"
#include "imgui/imgui_layer.hpp"
#include "panels/panel_sections.hpp"
#include "session/session.hpp"
#include "source/embedded_sources.hpp"
#include "source/token_colours.hpp"

namespace ks::ui::panels {

namespace {

constexpr float kSourceMargin = 10.0f;
constexpr float kSourceMinWidth = 320.0f, kSourceMinHeight = 240.0f;
constexpr float kCodeColumns = 110;  // the widest lines of the project's sources, and a little more
constexpr float kBottomLines = 9;    // text lines left free under the window: the job indicator and inspector

using source::DiffLine;
using source::Token;

// The first line of `lines` holding `anchor`, or -1.
int line_of(const std::vector<std::string_view>& lines, std::string_view anchor) {
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find(anchor) != std::string_view::npos) return int(i);
  return -1;
}

// Fills the derived part of `st` for the chosen kernel, variant, file and comparison, when that choice
// changed. The files are the variant's own, from its registration (VariantSpec::sources).
void prepare(SourcePanelState& st, const KernelSpec& kernel, const std::string& variant) {
  const std::span<const SourceFile> refs = kernel.sources_of(variant);
  if (st.file >= int(refs.size())) st.file = 0;
  const std::string key = kernel.id + "/" + variant + "/" + std::to_string(st.file) + "/" + st.compare;
  if (key == st.shown_key) return;
  SourcePanelState fresh;  // the choice stays, everything derived from the last one goes
  fresh.variant = st.variant;
  fresh.compare = st.compare;
  fresh.file = st.file;
  fresh.shown_key = key;
  st = std::move(fresh);
  if (refs.empty()) return;
  const SourceFile& ref = refs[std::size_t(st.file)];
  const embedded::EmbeddedFile* file = source::find_embedded(ref.path);
  if (!file) return;
  st.path = ref.path;
  st.lines = source::split_lines(source::text_of(*file));
  st.tokens = source::tokenize_lines(st.lines);
  const int anchor_line = line_of(st.lines, ref.entry);
  st.anchor_row = anchor_line;

  const std::span<const SourceFile> others =
      st.compare.empty() ? std::span<const SourceFile>() : kernel.sources_of(st.compare);
  const embedded::EmbeddedFile* other = others.empty() ? nullptr : source::find_embedded(others[0].path);
  if (other) {
    st.compare_path = others[0].path;
    if (st.compare_path != st.path) {
      st.compare_lines = source::split_lines(source::text_of(*other));
      st.compare_tokens = source::tokenize_lines(st.compare_lines);
      st.diff = source::diff_lines(st.compare_lines, st.lines);
      const auto at = std::find_if(st.diff.begin(), st.diff.end(),
                                   [&](const DiffLine& d) { return d.after == anchor_line; });
      st.anchor_row = at == st.diff.end() ? -1 : int(at - st.diff.begin());
    }
  }
  st.scroll_frames = 3;
}

// One line of code: a marker (' ', '-', '+'), its 1-based number, then its tokens in their colours, on a
// tinted background for removed and added lines.
void draw_code_line(char marker, int number, int digits, std::string_view line,
                    const std::vector<Token>& tokens, ImU32 background) {
  if (background != 0) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float right = p.x + ImGui::GetScrollX() + ImGui::GetWindowWidth() + ImGui::GetScrollMaxX() + 4000;
    ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(right, p.y + ImGui::GetTextLineHeight()), background);
  }
  ImGui::TextDisabled("%c%*d ", marker, digits, number);
  for (const Token& t : tokens) {
    ImGui::SameLine(0, 0);
    ImGui::PushStyleColor(ImGuiCol_Text, source_token_colour(t.kind));
    const std::string_view text = line.substr(t.begin, t.length);
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
    ImGui::PopStyleColor();
  }
}

void draw_code(SourcePanelState& st) {
  // The rest of the sidebar (less the section's spacing below, so the sidebar itself need not scroll), or 24
  // lines when other open sections leave less.
  const float rest = ImGui::GetContentRegionAvail().y - 2 * ImGui::GetStyle().ItemSpacing.y;
  const float height = std::max(rest, ImGui::GetTextLineHeight() * 24);
  ImGui::BeginChild("##code", ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PushFont(code_font());  // monospaced: columns of code line up
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));
  const float line_height = ImGui::GetTextLineHeight();
  if (st.scroll_frames > 0 && st.anchor_row >= 0) {
    --st.scroll_frames;
    ImGui::SetScrollY(std::max(0.0f, (float(st.anchor_row) - 2) * line_height));
  }
  const bool comparing = !st.diff.empty();
  const int rows = int(comparing ? st.diff.size() : st.lines.size());
  const int digits = int(std::to_string(std::max(st.lines.size(), st.compare_lines.size())).size());
  ImGuiListClipper clipper;
  clipper.Begin(rows, line_height);
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      if (!comparing) {
        draw_code_line(' ', r + 1, digits, st.lines[std::size_t(r)], st.tokens[std::size_t(r)], 0);
        continue;
      }
      const DiffLine& d = st.diff[std::size_t(r)];
      if (d.kind == DiffLine::Kind::Removed) {
        const auto i = std::size_t(d.before);
        draw_code_line('-', d.before + 1, digits, st.compare_lines[i], st.compare_tokens[i],
                       kSourceRemovedBackground);
      } else {
        const auto i = std::size_t(d.after);
        draw_code_line(d.kind == DiffLine::Kind::Added ? '+' : ' ', d.after + 1, digits, st.lines[i],
                       st.tokens[i], d.kind == DiffLine::Kind::Added ? kSourceAddedBackground : 0);
      }
    }
  }
  ImGui::PopStyleVar();
  ImGui::PopFont();
  ImGui::EndChild();
}

// A combo of the kernel's variants; `none` (when given) is the empty choice. Returns whether `choice`
// changed.
bool variant_combo(const char* label, const KernelSpec& kernel, std::string& choice, const char* none,
                   const std::string& skip) {
  const std::string shown = choice.empty() ? std::string(none) : choice;
  bool changed = false;
  if (ImGui::BeginCombo(label, shown.c_str())) {
    if (ImGui::Selectable(none, choice.empty())) changed = !choice.empty(), choice.clear();
    for (const VariantSpec& v : kernel.variants) {
      if (v.name == skip) continue;
      if (ImGui::Selectable(v.name.c_str(), choice == v.name)) changed = choice != v.name, choice = v.name;
      if (ImGui::IsItemHovered() && !v.help.empty()) ImGui::SetTooltip("%s", v.help.c_str());
    }
    ImGui::EndCombo();
  }
  return changed;
}

// The copy of `variant` at the session's parameters and element type, made when that choice changed.
const copies::EditCopy& copy_of(SourcePanelState& st, app::Session& s, const std::string& variant) {
  const KernelSpec& kernel = s.kernel();
  const ElemType type = kernel.category == "stencil" ? s.element_type() : ElemType::F32;
  std::string key = kernel.id + "/" + variant + "/" + to_string(type);
  for (const auto& [name, value] : s.params().as_text()) key += "/" + name + "=" + value;
  if (key == st.copy_key) return st.copy;
  st.copy_key = key;
  try {
    st.copy = copies::edit_copy(kernel, variant, s.params(), type);
  } catch (const Error& e) {  // parameters the built-in refuses too (its own error says so where it runs)
    st.copy = {std::nullopt, "No copy at these parameters: " + e.full_message()};
  }
  return st.copy;
}

// Edit a copy: the button, or why this variant has none.
void draw_edit_copy(app::Session& s, PanelState& state, const std::string& variant) {
  const copies::EditCopy& copy = copy_of(state.source, s, variant);
  if (!copy.copy) {
    note_text(copy.reason);
    return;
  }
  if (named_button(state.buttons, "Edit a copy"))
    state.edit_copy = EditCopyRequest{copy.copy->file_name, copy.copy->text};
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Opens %s in the kernel editor: this variant written as your own kernel, with the current\n"
                      "parameters filled in, so that Run gives the built-in's result. Yours to change.",
                      copy.copy->file_name.c_str());
}

// The choice of variant, comparison and file, and the code.
void draw_source_controls(app::Session& s, PanelState& state) {
  SourcePanelState& st = state.source;
  const KernelSpec& kernel = s.kernel();
  // A variant kept from another kernel means nothing here: follow the running one again.
  if (!st.variant.empty() && !kernel.find_variant(st.variant)) st.variant.clear();
  if (!st.compare.empty() && !kernel.find_variant(st.compare)) st.compare.clear();
  const std::string running = s.effective_variant();
  const std::string variant = st.variant.empty() ? running : st.variant;
  if (st.compare == variant) st.compare.clear();  // the running variant became the one compared with

  const std::string follow = "running (" + running + ")";
  variant_combo("variant##source", kernel, st.variant, follow.c_str(), "");
  help_marker("Whose code to show. Any variant can be read, also one this machine cannot run.");
  variant_combo("compare with", kernel, st.compare, "(none)", variant);
  help_marker("Lines only in the other variant's file in red (-), lines only in this one in green (+).");

  const std::span<const SourceFile> refs = kernel.sources_of(variant);
  if (refs.size() > 1) {
    std::vector<const char*> names;
    for (const SourceFile& r : refs) names.push_back(r.path.c_str());
    ImGui::Combo("file", &st.file, names.data(), int(names.size()));
  }
  prepare(st, kernel, variant);
  if (st.lines.empty()) {
    note_text("No source is embedded for " + kernel.id + " " + variant + ".");
    return;
  }
  ImGui::TextDisabled("%s", st.path.c_str());
  draw_edit_copy(s, state, variant);
  if (!st.compare.empty() && st.diff.empty() && st.compare_path == st.path)
    note_text(st.compare + " is in the same file: its function is further up or down.");
  else if (!st.diff.empty())
    ImGui::TextDisabled("compared with %s", st.compare_path.c_str());
  draw_code(st);
}

}  // namespace

// The table is shared with the kernel editor (source/token_colours.hpp).
ImVec4 source_token_colour(source::TokenKind kind) {
  if (const std::optional<source::TokenColour> c = source::token_colour(kind)) return {c->r, c->g, c->b, 1.0f};
  return ImGui::GetStyleColorVec4(ImGuiCol_Text);
}

void draw_source_section(app::Session&, PanelState&) {
  note_text("The code shows in the Source window, left of this sidebar: drag its edges to make it wider or "
            "narrower, its title to move it; closing it (x) or this section hides it.");
}

void draw_source_window(app::Session& s, PanelState& state, float right_margin) {
  const ImGuiIO& io = ImGui::GetIO();
  // As wide as the free area beside the sidebar, up to kCodeColumns columns of code and the line numbers; the
  // full height. The size is set when the window appears; later the user's, within the free area.
  const float column = code_font()->CalcTextSizeA(code_font()->FontSize * io.FontGlobalScale, FLT_MAX, 0, "M").x;
  const float free_width = std::max(kSourceMinWidth, io.DisplaySize.x - right_margin - 2 * kSourceMargin);
  const float width = std::min(free_width, column * (kCodeColumns + 8) + 2 * ImGui::GetStyle().WindowPadding.x + 20);
  // Above the bottom left's job indicator and pixel inspector, which stay in view.
  const float height =
      std::max(kSourceMinHeight, io.DisplaySize.y - 2 * kSourceMargin - ImGui::GetFontSize() * kBottomLines);
  ImGui::SetNextWindowPos(ImVec2(kSourceMargin, kSourceMargin), ImGuiCond_Appearing);
  ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Appearing);
  ImGui::SetNextWindowSizeConstraints(ImVec2(kSourceMinWidth, kSourceMinHeight), ImVec2(free_width, height));
  ImGui::SetNextWindowBgAlpha(0.96f);
  if (!ImGui::Begin("Source", &state.source_open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  // A window moved, or a sidebar grown, so that it would cover the sidebar: back beside it.
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowWidth();
  if (right > io.DisplaySize.x - right_margin - kSourceMargin)
    ImGui::SetWindowPos(ImVec2(std::max(kSourceMargin, io.DisplaySize.x - right_margin - kSourceMargin -
                                                           ImGui::GetWindowWidth()),
                               ImGui::GetWindowPos().y));
  ImGui::PushItemWidth(ImGui::GetFontSize() * 16);
  draw_source_controls(s, state);
  ImGui::PopItemWidth();
  ImGui::End();
}

}  // namespace ks::ui::panels
