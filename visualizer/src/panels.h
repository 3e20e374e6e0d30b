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

/// Opens a trace file, or a game folder written by umax-readable --trace-dir
/// (or a file in one, such as the game's PGN): the Game panel lists its moves
/// and the think of ply `ply` opens (0: the first think). On failure sets the
/// app's error and returns false (panel_game.cpp).
bool openTraceOrGame(App& app, const std::string& path, int ply = 0);

/// Places a panel at its place in the 1280x800 layout (scaled to the
/// display) the first time it appears; afterwards the user may move it.
void placePanel(float x, float y, float width, float height, bool force);

}  // namespace umax::viz
