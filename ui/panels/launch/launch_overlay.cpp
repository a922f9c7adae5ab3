#include "panels/launch/launch_overlay.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "panels/panels.hpp"
#include "render/overlay_rows.hpp"
#include "render/view_math.hpp"
#include "session/launch/launch_words.hpp"
#include "session/session.hpp"

namespace ks::ui {

namespace {

constexpr ImU32 kOutline = IM_COL32(255, 214, 0, 170);  // block outlines
constexpr ImU32 kIdle = IM_COL32(230, 40, 40, 90);      // idle threads past the image
constexpr ImU32 kIdleEdge = IM_COL32(230, 40, 40, 200);
constexpr ImU32 kChosen = IM_COL32(255, 255, 255, 255);  // the chosen block: white over a dark edge
constexpr ImU32 kChosenEdge = IM_COL32(0, 0, 0, 200);
constexpr ImU32 kHalo = IM_COL32(255, 0, 200, 60);     // its halo
constexpr ImU32 kTile = IM_COL32(255, 0, 200, 230);    // its shared tile
constexpr ImU32 kWindow = IM_COL32(60, 255, 60, 255);  // the window the pixel reads
constexpr ImU32 kBox = IM_COL32(20, 20, 24, 215);
constexpr ImU32 kText = IM_COL32(235, 235, 235, 255);

// Image coordinates to ImGui's logical screen coordinates.
struct Mapper {
  const ViewState& view;
  Size2 framebuffer;
  float scale;
  ImVec2 operator()(double x, double y) const {
    const Vec2 s = image_to_screen(view, framebuffer, {x, y});
    return ImVec2(float(s.x) / scale, float(s.y) / scale);
  }
  ImVec2 min(const PixelRect& r) const { return (*this)(r.x0, r.y0); }
  ImVec2 max(const PixelRect& r) const { return (*this)(r.x1, r.y1); }
};

// `lines` broken at spaces where wider than `width` (a single word wider than it stays whole).
std::vector<std::string> wrapped(const std::vector<std::string>& lines, float width) {
  std::vector<std::string> out;
  for (const std::string& line : lines) {
    std::string current;
    std::size_t start = 0;
    while (start <= line.size()) {
      const std::size_t end = std::min(line.find(' ', start), line.size());
      const std::string word = line.substr(start, end - start);
      const std::string longer = current.empty() ? word : current + ' ' + word;
      if (!current.empty() && ImGui::CalcTextSize(longer.c_str()).x > width) {
        out.push_back(current);
        current = word;
      } else {
        current = longer;
      }
      start = end + 1;
    }
    out.push_back(current);
  }
  return out;
}

// Lines of text in a box, and where the box stands.
struct TextBox {
  std::vector<std::string> lines;
  std::array<float, 4> rect{};  // min x, min y, max x, max y
};

// A box of text placed at `at`, inside the area (0, 0)-`keep_inside` that the sidebar leaves free: its lines
// wrapped to that width, moved left and up to fit, but never above `min_top` (a box too tall runs past the bottom
// rather than over what stands above it).
TextBox place_text_box(ImVec2 at, const std::vector<std::string>& text, ImVec2 keep_inside, float min_top = 0) {
  const float pad = 6, line_h = ImGui::GetTextLineHeight();
  TextBox box{wrapped(text, std::max(keep_inside.x - 2 * pad, 8 * line_h)), {}};
  float w = 0;
  for (const std::string& l : box.lines) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
  const ImVec2 size(w + 2 * pad, float(box.lines.size()) * line_h + 2 * pad);
  at.x = std::clamp(at.x, 0.0f, std::max(0.0f, keep_inside.x - size.x));
  at.y = std::max(min_top, std::clamp(at.y, 0.0f, std::max(0.0f, keep_inside.y - size.y)));
  box.rect = {at.x, at.y, at.x + size.x, at.y + size.y};
  return box;
}

void draw_text_box(ImDrawList* draw, const TextBox& box) {
  const float pad = 6, line_h = ImGui::GetTextLineHeight();
  const auto& r = box.rect;
  draw->AddRectFilled(ImVec2(r[0], r[1]), ImVec2(r[2], r[3]), kBox, 4.0f);
  for (std::size_t i = 0; i < box.lines.size(); ++i)
    draw->AddText(ImVec2(r[0] + pad, r[1] + pad + float(i) * line_h), kText, box.lines[i].c_str());
}

bool overlap(const std::array<float, 4>& a, const std::array<float, 4>& b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

// The lines between blocks, over the visible part of the grid only.
void block_outlines(ImDrawList* draw, const Mapper& map, const LaunchGeometry& g, ImVec2 display) {
  const int bw = g.block.x * g.cells_x, bh = g.block.y * g.cells_y;
  const ImVec2 grid_min = map(0, 0), grid_max = map(double(g.grid_x()) * bw, double(g.grid_y()) * bh);
  const float step_x = (map(bw, 0).x - grid_min.x), step_y = (map(0, bh).y - grid_min.y);
  const int first_x = std::max(0, int(std::floor(-grid_min.x / step_x)));
  const int last_x = std::min(g.grid_x(), int(std::ceil((display.x - grid_min.x) / step_x)));
  const int first_y = std::max(0, int(std::floor(-grid_min.y / step_y)));
  const int last_y = std::min(g.grid_y(), int(std::ceil((display.y - grid_min.y) / step_y)));
  const float top = std::max(grid_min.y, 0.0f), bottom = std::min(grid_max.y, display.y);
  const float left = std::max(grid_min.x, 0.0f), right = std::min(grid_max.x, display.x);
  for (int bx = first_x; bx <= last_x; ++bx) {
    // On a whole pixel: ImGui's AddLine adds the half pixel itself, so the line covers one column crisply.
    const float x = std::floor(grid_min.x + float(bx) * step_x);
    draw->AddLine(ImVec2(x, top), ImVec2(x, bottom), kOutline, 1.0f);
  }
  for (int by = first_y; by <= last_y; ++by) {
    const float y = std::floor(grid_min.y + float(by) * step_y);
    draw->AddLine(ImVec2(left, y), ImVec2(right, y), kOutline, 1.0f);
  }
}

// The parts of the last column and row of blocks past the image: threads that return at the bounds check.
void idle_regions(ImDrawList* draw, const Mapper& map, const LaunchGeometry& g) {
  const double grid_w = double(g.grid_x()) * g.block.x * g.cells_x;
  const double grid_h = double(g.grid_y()) * g.block.y * g.cells_y;
  // A thread is idle only when all its cells are past the edge: round the image up to whole threads.
  const double busy_w = std::ceil(double(g.width) / g.cells_x) * g.cells_x;
  const double busy_h = std::ceil(double(g.height) / g.cells_y) * g.cells_y;
  if (grid_w > busy_w) {
    draw->AddRectFilled(map(busy_w, 0), map(grid_w, grid_h), kIdle);
    draw->AddRect(map(busy_w, 0), map(grid_w, grid_h), kIdleEdge);
  }
  if (grid_h > busy_h) {
    draw->AddRectFilled(map(0, busy_h), map(std::min(busy_w, grid_w), grid_h), kIdle);
    draw->AddRect(map(0, busy_h), map(grid_w, grid_h), kIdleEdge);
  }
}

// The block computing (x, y): its outline, its shared tile and halo, and the window (x, y) reads.
void chosen_block(ImDrawList* draw, const Mapper& map, const LaunchGeometry& g, int x, int y) {
  const PixelThread t = thread_of_pixel(g, x, y);
  const PixelRect block = block_rect(g, t.block_x, t.block_y);
  if (g.shared_tile) {
    const PixelRect tile = tile_rect(g, t.block_x, t.block_y);
    // The halo: the tile less the block, as four bands.
    draw->AddRectFilled(map.min(tile), map(tile.x1, block.y0), kHalo);
    draw->AddRectFilled(map(tile.x0, block.y1), map.max(tile), kHalo);
    draw->AddRectFilled(map(tile.x0, block.y0), map(block.x0, block.y1), kHalo);
    draw->AddRectFilled(map(block.x1, block.y0), map(tile.x1, block.y1), kHalo);
    draw->AddRect(map.min(tile), map.max(tile), kTile, 0.0f, 0, 2.0f);
  }
  draw->AddRect(map.min(block), map.max(block), kChosenEdge, 0.0f, 0, 4.0f);  // seen on light images too
  draw->AddRect(map.min(block), map.max(block), kChosen, 0.0f, 0, 2.0f);
  const PixelRect window = input_window(g, x, y);
  if (g.cross) {  // the 5-point cross: a row and a column of 3
    draw->AddRect(map(window.x0, y), map(window.x1, y + 1), kWindow, 0.0f, 0, 2.0f);
    draw->AddRect(map(x, window.y0), map(x + 1, window.y1), kWindow, 0.0f, 0, 2.0f);
  } else {
    draw->AddRect(map.min(window), map.max(window), kWindow, 0.0f, 0, 2.0f);
  }
  draw->AddRectFilled(map(x, y), map(x + 1, y + 1), IM_COL32(60, 255, 60, 120));
}

}  // namespace

void draw_launch_overlay(const app::Session& session, PanelState& state) {
  state.launch_header_rect = {};
  state.launch_hover_rect = {};
  if (!state.view || !state.view->show_launch_grid) return;
  const ViewState& view = *state.view;
  const ImGuiIO& io = ImGui::GetIO();
  const float scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0f;
  const Mapper map{view, {int(io.DisplaySize.x * scale + 0.5f), int(io.DisplaySize.y * scale + 0.5f)}, scale};
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  // Text boxes stay in the part of the viewport the sidebar leaves free (the hover text ran under it).
  const ImVec2 free_area(io.DisplaySize.x - panels_width(state, io.DisplaySize.x), io.DisplaySize.y);

  const app::LaunchPicture picture = session.launch_picture();
  std::vector<std::string> header = app::describe_launch(picture);
  std::optional<ImVec2> hover_at;  // below right of the probed pixel
  std::vector<std::string> hover;
  if (picture.geometry) {
    const LaunchGeometry& g = *picture.geometry;
    idle_regions(draw, map, g);
    const float block_px =
        std::min(float(g.block.x * g.cells_x), float(g.block.y * g.cells_y)) * view.zoom / scale;
    if (block_px >= kMinBlockOutlinePx)
      block_outlines(draw, map, g, io.DisplaySize);
    else
      header.push_back(
          fmt::format("blocks are {:.1f} px on screen: zoom in to see their outlines", block_px));
    if (state.probe && state.probe->inside && state.probe->x < g.width && state.probe->y < g.height) {
      chosen_block(draw, map, g, state.probe->x, state.probe->y);
      const ImVec2 at = map(state.probe->x + 1, state.probe->y + 1);
      hover_at = ImVec2(at.x + 12, at.y + 12);
      hover = app::describe_pixel(g, state.probe->x, state.probe->y);
    }
  }
  // Top left, below where the legend stands, and below the split's labels when they are drawn.
  const DisplayFrame frame = session.display_frame();
  const bool split_labels = view.split && frame.input && (frame.output || frame.output_device);
  const float top = launch_header_top(ImGui::GetTextLineHeight(), split_labels);
  const TextBox header_box = place_text_box(ImVec2(12, top), header, free_area, top);
  draw_text_box(draw, header_box);
  state.launch_header_rect = header_box.rect;
  if (hover_at) {
    // Where it would cover the header, below it: both stay readable.
    TextBox hover_box = place_text_box(*hover_at, hover, free_area);
    if (overlap(hover_box.rect, header_box.rect))
      hover_box = place_text_box(*hover_at, hover, free_area, header_box.rect[3] + 4);
    draw_text_box(draw, hover_box);
    state.launch_hover_rect = hover_box.rect;
  }
}

}  // namespace ks::ui
