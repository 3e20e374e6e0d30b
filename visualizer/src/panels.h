// One function per panel; each draws one ImGui window from the App's state.
#pragma once

#include "app.h"

namespace umax::viz {

void drawBoardPanel(App& app);
void drawTreePanel(App& app);
void drawSourcePanel(App& app);
void drawVariablesPanel(App& app);
void drawHashPanel(App& app);
void drawTimelinePanel(App& app);

/// Places a panel at its place in the 1280x800 layout (scaled to the
/// display) the first time it appears; afterwards the user may move it.
void placePanel(float x, float y, float width, float height, bool force);

}  // namespace umax::viz
