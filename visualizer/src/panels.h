// One function per panel; each draws one ImGui window from the App's state.
#pragma once

#include <string>

#include "app.h"

namespace umax::viz {

void drawBoardPanel(App& app);
void drawTreePanel(App& app);
void drawSourcePanel(App& app);
void drawVariablesPanel(App& app);
void drawHashPanel(App& app);
void drawTimelinePanel(App& app);
void drawGamePanel(App& app);
/// The Compare panel: drawn only while a trace is compared (--compare).
void drawComparePanel(App& app);

/// Opens a trace file, or a game folder written by umax-readable --trace-dir
/// (or a file in one, such as the game's PGN): the Game panel lists its moves
/// and the think of ply `ply` opens (0: the first think). On failure sets the
/// app's error and returns false (panel_game.cpp).
bool openTraceOrGame(App& app, const std::string& path, int ply = 0);

/// The wrap position of a tooltip `ems` font sizes wide, at most the window's width (in the
/// compact layout of a phone a tooltip would otherwise run off the screen).
float tooltipWrap(float ems);
/// A tooltip of `text`: as ImGui::SetTooltip, wrapped to the window's width in the compact layout.
void tooltip(const std::string& text);

/// Where a panel goes in the 1280x800 layout (scaled to the display).
struct PanelPlace {
  float x, y, width, height;
};

/// What sets a panel's window apart from the plain one.
struct PanelStyle {
  bool* open = nullptr;              ///< gives it a close button that clears *open
  bool opaque = false;               ///< no see-through background: it lies over another panel
  int flags = 0;                     ///< ImGuiWindowFlags
  const char* layoutName = nullptr;  ///< its name in --layout-dump (default: the title)
};

/// A panel's window for the length of a scope: placed at its place the first
/// time it appears (afterwards the user may move it), begun, and recorded in
/// the app's layout (--layout-dump); ended with the scope. In the compact
/// layout it fills the space under the tabs (the Timeline: the bottom), and
/// a panel whose tab is not chosen is not begun (visible() is false). Every panel and
/// the legend open this way (frame.cpp):
///
///     const PanelWindow panel(app, "Variables", {0, 359, 360, 315});
///     if (!panel.showsTrace()) return;
class PanelWindow {
 public:
  PanelWindow(App& app, const char* title, PanelPlace place, const PanelStyle& style = {});
  ~PanelWindow();
  PanelWindow(const PanelWindow&) = delete;
  PanelWindow& operator=(const PanelWindow&) = delete;
  /// False while the window is collapsed: nothing in it is seen, so nothing need be drawn.
  bool visible() const { return visible_; }
  /// visible() with a trace open. Without a trace the panel says `noTrace`, and its caller
  /// draws nothing more.
  bool showsTrace(const char* noTrace = "No trace open.") const;

 private:
  App& app_;
  bool begun_ = false;  ///< ImGui::Begin was called (not for a panel hidden behind its tab)
  bool visible_ = false;
};

}  // namespace umax::viz
