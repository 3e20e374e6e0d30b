// One frame of the user interface, the style and fonts it is drawn with,
// and where each panel goes in the default layout.
#include <imgui.h>

#include <cstdio>
#include <filesystem>

#include "panels.h"
#include "ui.h"

namespace umax::viz {

namespace {

/// The layout is designed for this window size and scaled to the real one.
constexpr float kLayoutWidth = 1280;
constexpr float kLayoutHeight = 800;

/// Places the next window at `place`, scaled to the display, the first time it appears.
void placeWindow(const PanelPlace& place) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float sx = display.x / kLayoutWidth, sy = display.y / kLayoutHeight;
  ImGui::SetNextWindowPos(ImVec2(place.x * sx, place.y * sy), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(place.width * sx, place.height * sy), ImGuiCond_FirstUseEver);
}

}  // namespace

void applyStyle() {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 0;
  style.WindowPadding = ImVec2(6, 5);
  style.ItemSpacing = ImVec2(6, 3);
}

void loadFonts(App& app) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->AddFontDefault();
  static const ImWchar kChessRange[] = {0x2654, 0x265F, 0};
  const char* fontPath = UMAX_FONT_PATH;
  if (!std::filesystem::exists(fontPath)) {
    std::fprintf(stderr, "umax-viz: %s not found (Debian: fonts-dejavu-core); pieces drawn as text\n",
                 fontPath);
    return;
  }
  // The chess glyphs merged into the default font (for text), and a large copy for the board.
  ImFontConfig merge;
  merge.MergeMode = true;
  io.Fonts->AddFontFromFileTTF(fontPath, 13.0f, &merge, kChessRange);
  app.pieceFont = io.Fonts->AddFontFromFileTTF(fontPath, 64.0f, nullptr, kChessRange);
}

void drawFrame(App& app, double seconds) {
  app.layout.clear();
  handleKeys(app);
  app.update(seconds);
  drawMenu(app);
  drawBoardPanel(app);
  drawVariablesPanel(app);
  drawSourcePanel(app);
  drawTreePanel(app);
  drawHashPanel(app);
  drawTimelinePanel(app);
  drawGamePanel(app);
  drawComparePanel(app);
  drawLegend(app);
  drawDialogs(app);
  drawHelp(app);
}

PanelWindow::PanelWindow(App& app, const char* title, PanelPlace place, const PanelStyle& style) : app_(app) {
  placeWindow(place);
  if (style.opaque) ImGui::SetNextWindowBgAlpha(1.0f);
  visible_ = ImGui::Begin(title, style.open, style.flags);
  app.recordPanel(style.layoutName ? style.layoutName : title);
}

PanelWindow::~PanelWindow() { ImGui::End(); }

bool PanelWindow::showsTrace(const char* noTrace) const {
  if (!visible_) return false;
  if (app_.hasTrace()) return true;
  ImGui::TextWrapped("%s", noTrace);
  return false;
}

}  // namespace umax::viz
