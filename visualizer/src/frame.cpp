// One frame of the user interface, the style and fonts it is drawn with,
// and where each panel goes: the default layout (1280x800, scaled to the
// window), or in a window narrower than kCompactWidth (a phone) the compact
// one, one panel at a time under a row of tabs with the Timeline below.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "panels.h"
#include "ui.h"

namespace umax::viz {

namespace {

/// The layout is designed for this window size and scaled to the real one.
constexpr float kLayoutWidth = 1280;
constexpr float kLayoutHeight = 800;
/// The Timeline's height in that layout (at the bottom: its place's y is 800 - 126), and the menu
/// bar's above the panels (neither scales with the window's height).
constexpr float kTimelineHeight = 126;
constexpr float kMenuHeight = 19;
/// The compact layout's text size (the desktop's: 13 pixels).
constexpr float kCompactFontSize = 19.5f;

/// Where the panels go in the compact layout (this frame's): the chosen panel's space under
/// the tabs, and the Timeline's at the bottom.
struct CompactLayout {
  ImVec2 tabsPos, tabsSize, bodyPos, bodySize, timelinePos, timelineSize;
  int columns = 1;
};
CompactLayout compactLayout;

/// Places the next window at `place`, scaled to the display, the first time it appears (every
/// time when the layout has changed); in the compact layout, in its space there.
void placeWindow(const App& app, const PanelPlace& place, bool timeline) {
  if (app.compact) {
    const CompactLayout& c = compactLayout;
    ImGui::SetNextWindowPos(timeline ? c.timelinePos : c.bodyPos, ImGuiCond_Always);
    ImGui::SetNextWindowSize(timeline ? c.timelineSize : c.bodySize, ImGuiCond_Always);
    return;
  }
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float sx = display.x / kLayoutWidth;
  // The Timeline's height is chooseLayout's; the panels above it share the rest.
  const float timelineHeight = app.timelineHeight;
  const float above =
      (display.y - timelineHeight - kMenuHeight) / (kLayoutHeight - kTimelineHeight - kMenuHeight);
  const ImGuiCond when = app.relayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  if (timeline) {
    ImGui::SetNextWindowPos(ImVec2(place.x * sx, display.y - timelineHeight), when);
    ImGui::SetNextWindowSize(ImVec2(place.width * sx, timelineHeight), when);
    return;
  }
  ImGui::SetNextWindowPos(ImVec2(place.x * sx, kMenuHeight + (place.y - kMenuHeight) * above), when);
  ImGui::SetNextWindowSize(ImVec2(place.width * sx, place.height * above), when);
}

/// A panel's name on its tab.
const char* tabLabel(const std::string& panel) {
  if (panel == "Variables") return "Vars";
  if (panel == "Search tree") return "Tree";
  if (panel == "Hash table") return "Hash";
  return panel.c_str();
}

/// Decides the layout of this frame (compact below kCompactWidth) and, compact, the places of
/// the tabs, the chosen panel and the Timeline.
void chooseLayout(App& app) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const bool compact = display.x < kCompactWidth;
  app.relayout = compact != app.compact;
  app.compact = compact;
  if (!compact) {
    // The Timeline never gets less than its designed height (the scrubber, a row of buttons and two
    // lines of narration), nor less than its buttons and narration need when they wrap in a narrow
    // window: in a course page's live view at 1280x800 its narration was cut. From 800 pixels up
    // all panels scale alike. It only grows for a window of one size (its buttons do not move as it
    // grows: no back and forth); when it grows, the panels go to their places again.
    static ImVec2 sizedFor;
    const float designed = std::max(kTimelineHeight, kTimelineHeight * display.y / kLayoutHeight);
    if (display.x != sizedFor.x || display.y != sizedFor.y) {
      sizedFor = display;
      app.timelineHeight = designed;
    }
    const float wanted = std::min(std::max(designed, std::ceil(app.timelineNeeds)), display.y * 0.45f);
    if (wanted > app.timelineHeight) {
      app.timelineHeight = wanted;
      app.relayout = true;
    }
    return;
  }
  CompactLayout& c = compactLayout;
  const float menu = ImGui::GetFrameHeight();  // the main menu bar's height
  const int tabs = std::max<int>(1, static_cast<int>(app.compactOffered.size()));
  c.columns = std::clamp(static_cast<int>(display.x / 72), 1, tabs);
  const int rows = (tabs + c.columns - 1) / c.columns;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float tabsHeight =
      rows * ImGui::GetFrameHeightWithSpacing() - style.ItemSpacing.y + style.WindowPadding.y * 2;
  const float timelineHeight = std::clamp(display.y * 0.32f, 180.0f, 300.0f);
  c.tabsPos = ImVec2(0, menu);
  c.tabsSize = ImVec2(display.x, tabsHeight);
  c.bodyPos = ImVec2(0, menu + tabsHeight);
  c.bodySize = ImVec2(display.x, std::max(120.0f, display.y - menu - tabsHeight - timelineHeight));
  c.timelinePos = ImVec2(0, c.bodyPos.y + c.bodySize.y);
  c.timelineSize = ImVec2(display.x, std::max(80.0f, display.y - c.timelinePos.y));
}

/// The compact layout's tabs: one per panel drawn in the last frame (the Timeline is always
/// shown), in rows as wide as the window. A panel that has just appeared (the legend, a game)
/// gets the tab; a panel that went away leaves the Board.
void drawTabs(App& app, const std::vector<std::string>& before) {
  const std::vector<std::string>& offered = app.compactOffered;
  for (const std::string& name : offered)
    if (!before.empty() && std::find(before.begin(), before.end(), name) == before.end())
      app.compactPanel = name;
  if (std::find(offered.begin(), offered.end(), app.compactPanel) == offered.end())
    app.compactPanel = "Board";
  const CompactLayout& c = compactLayout;
  ImGui::SetNextWindowPos(c.tabsPos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(c.tabsSize, ImGuiCond_Always);
  ImGui::Begin("##tabs", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  app.recordPanel("Tabs");
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(3, ImGui::GetStyle().FramePadding.y));
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float width = (ImGui::GetContentRegionAvail().x - spacing * static_cast<float>(c.columns - 1)) /
                      static_cast<float>(c.columns);
  for (std::size_t i = 0; i < offered.size(); ++i) {
    if (i % static_cast<std::size_t>(c.columns) != 0) ImGui::SameLine();
    const bool chosen = offered[i] == app.compactPanel;
    if (chosen) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(tabLabel(offered[i]), ImVec2(width, 0))) app.compactPanel = offered[i];
    app.recordItem("Tabs / " + offered[i]);
    if (chosen) ImGui::PopStyleColor();
  }
  ImGui::PopStyleVar();
  ImGui::End();
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
  if (!std::filesystem::exists(UMAX_FONT_PATH)) {
    ImFontConfig large;
    large.SizePixels = kCompactFontSize;
    app.largeFont = io.Fonts->AddFontDefault(&large);
  }
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
  // The compact layout's text: the default font half as large again, the glyphs merged too.
  ImFontConfig large;
  large.SizePixels = kCompactFontSize;
  app.largeFont = io.Fonts->AddFontDefault(&large);
  io.Fonts->AddFontFromFileTTF(fontPath, kCompactFontSize, &merge, kChessRange);
}

void drawFrame(App& app, double seconds) {
  app.layout.clear();
  handleKeys(app);
  app.update(seconds);
  // The compact layout: larger text, and buttons a finger can hit (at least 40 pixels high).
  const bool compact = ImGui::GetIO().DisplaySize.x < kCompactWidth;
  if (compact) {
    if (app.largeFont) ImGui::PushFont(app.largeFont);
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(8, 10.5f));
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(8, 6));
    ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, 20.0f);
    ImGui::PushStyleVar(ImGuiStyleVar_GrabMinSize, 20.0f);
  }
  app.fontSize = ImGui::GetFontSize();
  chooseLayout(app);
  drawMenu(app);
  // The panels drawn in the frame before the last (to see which one has just appeared).
  static std::vector<std::string> older;
  if (compact) {
    drawTabs(app, older);
    older = app.compactOffered;
  } else {
    older.clear();
  }
  app.compactOffered.clear();
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
  if (compact) {
    ImGui::PopStyleVar(4);
    if (app.largeFont) ImGui::PopFont();
  }
}

float tooltipWrap(float ems) {
  return std::min(ImGui::GetFontSize() * ems, ImGui::GetIO().DisplaySize.x - 3 * ImGui::GetFontSize());
}

void tooltip(const std::string& text) {
  if (ImGui::GetIO().DisplaySize.x >= kCompactWidth) {
    ImGui::SetTooltip("%s", text.c_str());
    return;
  }
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(tooltipWrap(36));
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

PanelWindow::PanelWindow(App& app, const char* title, PanelPlace place, const PanelStyle& style) : app_(app) {
  const std::string name = style.layoutName ? style.layoutName : title;
  const bool timeline = name == "Timeline";
  int flags = style.flags;
  if (app.compact) {
    if (!timeline) app.compactOffered.push_back(name);
    if (!timeline && name != app.compactPanel) return;  // behind its tab
    flags |= ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;
    if (!style.open) flags |= ImGuiWindowFlags_NoTitleBar;  // its tab names it (a legend keeps its close box)
  }
  placeWindow(app, place, timeline);
  if (style.opaque) ImGui::SetNextWindowBgAlpha(1.0f);
  begun_ = true;
  visible_ = ImGui::Begin(title, style.open, flags);
  app.recordPanel(name.c_str());
}

PanelWindow::~PanelWindow() {
  if (begun_) ImGui::End();
}

bool PanelWindow::showsTrace(const char* noTrace) const {
  if (!visible_) return false;
  if (app_.hasTrace()) return true;
  ImGui::TextWrapped("%s", noTrace);
  return false;
}

}  // namespace umax::viz
