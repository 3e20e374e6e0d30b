// F1 (Help > The panels and the keys): what umax-viz shows, how to step through a search (keys,
// buttons, a finger), and what each panel shows, in a few lines each; then the keys.
#include <imgui.h>

#include <algorithm>

#include "ui.h"

namespace umax::viz {

namespace {

const ImVec4 kHeading(1, 0.85f, 0.4f, 1);

/// Rows of a name (coloured) and what it means (wrapped): two columns on the desktop; in the
/// compact layout (a phone) the name leads its own wrapped line, which keeps the whole width.
void drawRows(const App& app, const char* id, const char* const (*rows)[2], int count, float nameWidth) {
  if (app.compact) {
    for (int row = 0; row < count; ++row) {
      ImGui::TextColored(kHeading, "%s", rows[row][0]);
      ImGui::SameLine();
      ImGui::TextWrapped("%s", rows[row][1]);
    }
    return;
  }
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, nameWidth);
  ImGui::TableSetupColumn("meaning", ImGuiTableColumnFlags_WidthStretch);
  for (int row = 0; row < count; ++row) {
    ImGui::TableNextColumn();
    ImGui::TextColored(kHeading, "%s", rows[row][0]);
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", rows[row][1]);
  }
  ImGui::EndTable();
}

constexpr const char* kStepping[][2] = {
    {"Step",
     "> (or Right) applies the next event; < (Left) takes one back. Over (Down) steps over a "
     "move and its whole reply; Out (Up) runs to the end of the current call; Play (Space) steps "
     "by itself."},
    {"Jump",
     "Drag along the timeline's bar; Cutoff, Hash hit, <Iter and Iter> go to the next such event; "
     "Find node and Find line go to a counted node or to where a line of moves is searched."},
    {"Read",
     "Under the board and under the timeline a sentence says what the event just applied did "
     "and why (on a phone once: under the board, or under the timeline when another tab is "
     "shown). Hover a name, a source line or a tree row for its meaning."},
};

/// On a phone (the compact layout) this row comes first; on the desktop, last.
constexpr const char* kPhone[][2] = {
    {"Phone",
     "One panel at a time: tap a tab (Board, Vars, Source, Tree, Hash) to switch; the timeline "
     "and its buttons stay below. A tap on a name, a line or a row shows its note, which closes "
     "at the next tap or step."},
};

constexpr const char* kPanels[][2] = {
    {"Board",
     "The position as the search has it now: the move being searched is on the board (blue "
     "arrow), the best so far green, the move just scored orange. L: the legend of the marks."},
    {"Variables",
     "The current call of D(), the search: micro-Max's one-letter variables with readable "
     "names; below, the stack of open calls, root first."},
    {"Source",
     "The 133-line original and the readable rewrite, the lines that produced the event lit, "
     "with a note on what that step does."},
    {"Search tree",
     "Every call in the order it was made, indented by ply, with its score, node type "
     "(PV, CUT, ALL) and window. Click a row to jump there."},
    {"Hash table",
     "The transposition table as a heatmap, and the slots the current call probes with "
     "what each holds now."},
    {"Timeline",
     "All events from left to right: red up cutoffs, green down hash hits, yellow lines the "
     "root's iterations (d4: iteration 4; d1-5: 1 to 5, too close to label apart); the blue "
     "line is the cursor."},
};

constexpr const char* kKeys[][2] = {
    {"Right / Left", "one event forward (into calls) / back"},
    {"Down / Up", "step over the next move or call / step out of the current call"},
    {"Space, + / -", "play or pause; faster / slower"},
    {"C / H", "next beta cutoff / next hash hit"},
    {"I / Shift+I", "next / previous iteration of the root"},
    {"Home / End", "first / last event; PgUp / PgDn: 1% of the trace"},
    {"F", "follow the cursor in the tree and source (on/off)"},
    {"L", "the legend: what arrows, colours and marks mean"},
    {"Ctrl+O / Ctrl+R", "open a trace / record a new search"},
    {"F1 or ?", "this help (Esc closes it); Ctrl+Q quits"},
};

}  // namespace

void drawHelp(App& app) {
  if (!app.showHelp) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  if (app.compact) {
    // A phone: the whole screen under the menu bar (the help is read, then closed with its x).
    const float menu = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(0, menu), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(display.x, display.y - menu), ImGuiCond_Always);
  } else {
    ImGui::SetNextWindowPos(ImVec2(display.x / 2, display.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(760.0f, display.x - 40), std::min(640.0f, display.y - 60)),
                             ImGuiCond_Always);
  }
  // Opaque: the panels behind it must not show through its text.
  ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  background.w = 1.0f;
  ImGui::PushStyleColor(ImGuiCol_WindowBg, background);
  ImGui::SetNextWindowBgAlpha(1.0f);
  ImGui::Begin("Help: stepping, panels, keys", &app.showHelp,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove);
  ImGui::PopStyleColor();
  app.recordPanel("Help");
  ImGui::TextWrapped(
      "umax-viz replays a recorded search of micro-Max one event at a time (a call of D(), a hash probe, "
      "a move made, a score, a cutoff, a store, a return); every panel shows the state just after the "
      "event under the timeline's cursor.");
  ImGui::Spacing();
  ImGui::TextColored(kHeading, "Stepping through the search");
  if (app.compact) drawRows(app, "phone", kPhone, 1, 60);
  drawRows(app, "stepping", kStepping, static_cast<int>(std::size(kStepping)), 60);
  if (!app.compact) drawRows(app, "phone", kPhone, 1, 60);
  ImGui::Spacing();
  ImGui::TextColored(kHeading, "The panels");
  drawRows(app, "panels", kPanels, static_cast<int>(std::size(kPanels)), 90);
  ImGui::Spacing();
  ImGui::TextColored(kHeading, "The keys");
  drawRows(app, "keys", kKeys, static_cast<int>(std::size(kKeys)), 120);
  ImGui::End();
}

}  // namespace umax::viz
