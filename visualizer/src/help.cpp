// F1: what each panel shows and how to read it, then the keyboard.
#include <imgui.h>

#include "ui.h"

namespace umax::viz {

namespace {

const ImVec4 kHeading(1, 0.85f, 0.4f, 1);

/// Two columns of rows: a name (coloured) and what it means (wrapped).
void drawRows(const char* id, const char* const (*rows)[2], int count, float nameWidth) {
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

constexpr const char* kPanels[][2] = {
    {"Board",
     "The position as the search has it at this event: a move being searched is on the board. "
     "Arrows and coloured squares: see the legend (L). The caption under the board says what the "
     "event did; hover it for why each arrow is drawn."},
    {"Variables",
     "The current call of D(), the search function: its variables under micro-Max's one-letter "
     "names with readable names beside them (hover a name for its meaning). Below: the stack of "
     "open calls, root first; the last row is the current call."},
    {"Source",
     "The 133-line original (top) and the readable rewrite (below). The lines that produced the "
     "event just applied are lit and kept in view; above them, what that step does. Hover a "
     "one-letter variable of the original for its meaning."},
    {"Search tree",
     "Every call of the search, in the order it was made, as a tree: a row is one call, "
     "indented by ply. The open calls are expanded and lit. Click a row to jump to that call; "
     "hover it for its event numbers."},
    {"Hash table",
     "The 16M-slot transposition table as a heatmap, the probe slots of the current call with "
     "what each slot holds at this event, and what the event just applied did to the table."},
    {"Legend",
     "What the arrows, colours, timeline marks and tree rows mean. Hidden at start (the menu bar says "
     "\"L: legend\", a button): L or View > Legend shows it over the right of the source panel."},
    {"Timeline",
     "All events of the search from left to right: drag to scrub. Buttons step like the keys "
     "below; 'Find node' jumps to a counted node by number, 'Find line' to the first call a line "
     "of moves reaches. Under the buttons: the event just applied (numbered from 0, as umax-trace "
     "jsonl's \"i\") and what it did and why; hover it for the event's record."},
};

constexpr const char* kKeys[][2] = {
    {"Right", "step one event forward (into calls)"},
    {"Left", "step one event back"},
    {"Down", "step over: the next move with its whole reply, or the next call"},
    {"Up", "step out: to just after the current call returns"},
    {"Space", "play / pause"},
    {"+ / -", "play faster / slower"},
    {"C", "next beta cutoff"},
    {"H", "next hash hit"},
    {"I / Shift+I", "next / previous iteration of the root"},
    {"Home / End", "first / last event"},
    {"PgUp / PgDn", "1% of the trace back / forward"},
    {"F", "follow the cursor in the tree and source (on/off)"},
    {"L", "the legend: what arrows, colours and marks mean (on/off)"},
    {"Ctrl+O", "open a trace file"},
    {"Ctrl+R", "record a new search (its dialog's Stop button keeps what was searched)"},
    {"Ctrl+Q", "quit"},
    {"F1 or ?", "this help (Esc closes it)"},
};

}  // namespace

void drawHelp(App& app) {
  if (!app.showHelp) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x / 2, display.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(760.0f, display.x - 40), std::min(680.0f, display.y - 60)),
                           ImGuiCond_Always);
  // Opaque: the panels behind it must not show through its text.
  ImVec4 background = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  background.w = 1.0f;
  ImGui::PushStyleColor(ImGuiCol_WindowBg, background);
  ImGui::SetNextWindowBgAlpha(1.0f);
  ImGui::Begin("Help: the panels and the keys", &app.showHelp, ImGuiWindowFlags_NoCollapse);
  ImGui::PopStyleColor();
  ImGui::TextWrapped(
      "umax-viz replays a recorded search of micro-Max one event at a time: a call of D(), a hash probe, a "
      "move made, a score, a cutoff, a store, a return. Every panel shows the state after the event under "
      "the timeline's cursor. The call tree and the timeline's marks are built in the background (the "
      "menu bar shows how far); on a long trace the keys that need them say \"indexing... N%%\" until "
      "they are ready.");
  ImGui::Spacing();
  ImGui::TextColored(kHeading, "The panels");
  drawRows("panels", kPanels, static_cast<int>(std::size(kPanels)), 90);
  ImGui::Spacing();
  ImGui::TextColored(kHeading, "The keys");
  drawRows("keys", kKeys, static_cast<int>(std::size(kKeys)), 90);
  ImGui::End();
}

}  // namespace umax::viz
