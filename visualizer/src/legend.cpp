// The legend: what each arrow, colour, mark and abbreviation on screen
// means, with a sample of each drawn beside its explanation. Hidden at start
// (it covers part of the Source panel; the menu bar's "L: legend" and
// --legend show it); L or View > Legend shows and hides it.
#include <imgui.h>

#include <cmath>

#include "colours.h"
#include "panels.h"
#include "ui.h"

namespace umax::viz {

namespace {

constexpr float kSwatch = 30;  // width of the sample column

enum class Sample { kArrow, kSquare, kFrame, kRing, kLineUp, kLineDown, kVertical, kText, kBox };

/// Draws a sample of a mark in a kSwatch-wide cell at the cursor, then the text beside it.
void entry(Sample sample, ImU32 colour, const char* text, const char* label = nullptr) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 mid(at.x + kSwatch / 2, at.y + line / 2);
  switch (sample) {
    case Sample::kArrow:
      draw->AddLine(ImVec2(at.x + 2, mid.y), ImVec2(at.x + kSwatch - 9, mid.y), colour, 3);
      draw->AddTriangleFilled(ImVec2(at.x + kSwatch - 2, mid.y), ImVec2(at.x + kSwatch - 10, mid.y - 5),
                              ImVec2(at.x + kSwatch - 10, mid.y + 5), colour);
      break;
    case Sample::kSquare:
      draw->AddRectFilled(ImVec2(mid.x - 7, at.y), ImVec2(mid.x + 7, at.y + line), colour);
      break;
    case Sample::kFrame:
      draw->AddRect(ImVec2(mid.x - 7, at.y), ImVec2(mid.x + 7, at.y + line), colour, 0, 0, 2.5f);
      break;
    case Sample::kRing:
      draw->AddCircle(mid, 5.5f, colour, 16, 2.5f);
      break;
    case Sample::kLineUp:
      for (int x = 0; x < 12; x += 2)
        draw->AddLine(ImVec2(at.x + 7 + x, mid.y + 5),
                      ImVec2(at.x + 7 + x, mid.y + 5 - float(3 + (x * 7) % 9)), colour);
      break;
    case Sample::kLineDown:
      for (int x = 0; x < 12; x += 2)
        draw->AddLine(ImVec2(at.x + 7 + x, mid.y - 5),
                      ImVec2(at.x + 7 + x, mid.y - 5 + float(3 + (x * 5) % 9)), colour);
      break;
    case Sample::kVertical:
      draw->AddLine(ImVec2(mid.x, at.y), ImVec2(mid.x, at.y + line), colour, 2.5f);
      break;
    case Sample::kBox:
      draw->AddRect(ImVec2(mid.x - 6, at.y + 1), ImVec2(mid.x + 6, at.y + line - 1), colour, 0, 0, 2);
      break;
    case Sample::kText:
      break;
  }
  if (sample == Sample::kText) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(label ? label : "abc");
    ImGui::PopStyleColor();
    ImGui::SameLine(at.x - ImGui::GetWindowPos().x + kSwatch + ImGui::GetStyle().ItemSpacing.x);
  } else {
    ImGui::Dummy(ImVec2(kSwatch, line));
    ImGui::SameLine();
  }
  ImGui::TextWrapped("%s", text);
}

ImU32 packed(const ImVec4& colour) { return ImGui::ColorConvertFloat4ToU32(colour); }

void heading(const char* text) { ImGui::TextColored(ImVec4(1, 0.85f, 0.4f, 1), "%s", text); }

}  // namespace

void drawLegend(App& app) {
  if (!app.showLegend) return;
  // Over the right of the source panel (the listings' right margins), leaving the
  // hash table, the game panel of a game folder and the search tree in view.
  const PanelWindow panel(app, "Legend (L or View > Legend hides it)", {560, 40, 380, 634},
                          {.open = &app.showLegend,
                           .opaque = true,
                           .flags = ImGuiWindowFlags_NoCollapse,
                           .layoutName = "Legend"});
  if (!panel.visible()) return;
  heading("Board");
  entry(Sample::kArrow, colours::kSearched, "blue: move on the board, being searched");
  entry(Sample::kSquare, colours::kFrom, "yellow, orange squares: its from, to");
  entry(Sample::kArrow, colours::kScored, "orange: move just scored (v), undone");
  entry(Sample::kArrow, colours::kBest, "green: best move so far here (m; X, Y)");
  entry(Sample::kFrame, colours::kVictim, "red frame: the piece it captures");
  entry(Sample::kRing, colours::kEpSquare, "purple ring: E, the e.p. square");
  entry(Sample::kArrow, colours::kRook, "teal: the rook in a castling");
  entry(Sample::kArrow, colours::kVictim, "red: a move that takes the king (never made)");
  heading("Timeline");
  entry(Sample::kVertical, colours::kIterationMark, "yellow dN: root's iteration N starts;");
  ImGui::Indent(kSwatch + ImGui::GetStyle().ItemSpacing.x);
  ImGui::TextWrapped("d1-5: iterations 1 to 5, too close together to label one by one");
  ImGui::Unindent(kSwatch + ImGui::GetStyle().ItemSpacing.x);
  entry(Sample::kLineUp, colours::kCutoffMark, "red up: cutoffs; green down: hash hits");
  entry(Sample::kVertical, colours::kCursor, "blue line: the cursor (drag it)");
  heading("Search tree: a row is a call");
  entry(Sample::kText, packed(colours::kRowText), "-> score returned, its type, dN: draft completed;",
        "move");
  ImGui::Indent(kSwatch + ImGui::GetStyle().ItemSpacing.x);
  ImGui::TextWrapped("then [q, l]: window; e=: eval; n=: depth");
  ImGui::Unindent(kSwatch + ImGui::GetStyle().ItemSpacing.x);
  entry(Sample::kText, packed(colours::kIterationRow), "the root's replies of iteration d (click: its start)",
        "iter");
  entry(Sample::kText, packed(colours::kRowCutoff), "cutoff;", "red");
  ImGui::SameLine();
  ImGui::TextColored(colours::kRowHashCut, "green");
  ImGui::SameLine();
  ImGui::TextUnformatted("from hash; dim: later");
  entry(Sample::kSquare, packed(colours::kRowCurrent), "current call; lighter: open calls");
  entry(Sample::kText, packed(colours::kRowText),
        "PV: score inside [q, l]; CUT: >= l (a refutation); ALL: <= q", "PV");
  ImVec4 grey = colours::kRowText;
  grey.w = colours::kRowNotReachedAlpha;
  entry(Sample::kText, packed(grey), "grey row: a CUT call's moves never tried", "...");
  heading("Scores");
  entry(Sample::kText, packed(colours::kRowText), "I = 80000, micro-Max's infinity: +I a king capture;", "I");
  ImGui::Indent(kSwatch + ImGui::GetStyle().ItemSpacing.x);
  ImGui::TextWrapped("-I-1 = -80001, +I+1 = 80001; a mate scores near I (79999)");
  ImGui::Unindent(kSwatch + ImGui::GetStyle().ItemSpacing.x);
  heading("Variables");
  entry(Sample::kText, packed(colours::kRowText), "stack: depth asked for / draft reached", "n/d");
  entry(Sample::kText, packed(colours::kRowText), "Y: not a castling; +sn: tried first next", "+nc");
  heading("Hash table");
  entry(Sample::kSquare, colours::kHashFilled, "filled slots; red: stored lately;");
  entry(Sample::kBox, colours::kHashWindow, "white box: the probe slots");
  entry(Sample::kText, packed(colours::kRowText), "lower bound (at least its score); up: upper; lo up: exact",
        "lo");
  ImGui::TextWrapped(
      "Every flag bit (the 8 and 128 of X and Y, the piece codes' 8, 16 and 32): the course's "
      "page \"Flag bits at a glance\".");
}

}  // namespace umax::viz
