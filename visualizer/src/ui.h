// The parts of the window that are not panels: input, the menu bar, the
// dialogs, the help and the legend overlays, and one whole frame.
#pragma once

#include "app.h"

struct GLFWwindow;

namespace umax::viz {

// ---- input.cpp ---------------------------------------------------------------
/// Counts every input event of `window` (call before the ImGui backend installs its callbacks,
/// which chain to these).
void countAllInput(GLFWwindow* window);
/// Waits for the next frame: polls at once while something moves by itself (`continuous`) or
/// input has just arrived, else sleeps until input comes (or a second passes).
void waitForNextFrame(bool continuous);
/// The keyboard shortcuts (not while a text field has the keyboard).
void handleKeys(App& app);

// ---- menu.cpp, dialogs.cpp, help.cpp, legend.cpp -----------------------------
/// The main menu bar with the open trace's header and the background builds' progress.
void drawMenu(App& app);
/// File > Open, File > Record, the recording's progress and errors.
void drawDialogs(App& app);
/// F1: what each panel shows, then the keys.
void drawHelp(App& app);
/// What the arrows, colours, timeline marks and tree rows mean (L).
void drawLegend(App& app);

// ---- frame.cpp ---------------------------------------------------------------
/// The colours and spacing of every window.
void applyStyle();
/// The default font with the chess glyphs merged in, and the board's large piece font.
void loadFonts(App& app);
/// One frame of the user interface (between NewFrame and Render).
void drawFrame(App& app, double seconds);

}  // namespace umax::viz
