// Source panel: the 133-line original above the readable build, each as
// wide as the panel so that whole lines show at 1280x800. The event just
// applied names a search site; the line map turns the site into lines of
// both, which are highlighted and scrolled into view (at column 0: the
// scrollbar reaches the end of a long line). Above, the annotation of the highlighted
// original line; hovering a one-letter variable of the original shows its
// readable name and meaning.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "colours.h"
#include "panels.h"

namespace umax::viz {

namespace {

constexpr const char* kDefaultReadable = "readable/src/search.cpp";

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The one-letter identifier at `column` of `text`, or 0.
char letterAt(const std::string& text, int column) {
  if (column < 0 || column >= static_cast<int>(text.size())) return 0;
  const auto at = static_cast<std::size_t>(column);
  const char c = text[at];
  if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_') return 0;
  if (at > 0 && isIdentifierChar(text[at - 1])) return 0;
  if (at + 1 < text.size() && isIdentifierChar(text[at + 1])) return 0;
  return c;
}

void variableTooltip(App& app, char letter) {
  const auto variables = app.lineMap().variables(std::string(1, letter));
  if (variables.empty()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(tooltipWrap(36));
  for (const Variable* variable : variables) {
    ImGui::TextColored(ImVec4(1, 0.82f, 0.35f, 1), "%c  %s  (%s)", letter, variable->readable.c_str(),
                       variable->where.c_str());
    ImGui::TextUnformatted(variable->meaning.c_str());
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

/// Draws a line's number again at the pane's left edge, over whatever text a
/// sideways scroll moved there, so that a scrolled listing still shows whole
/// line numbers. `width` is the number's column, up to where the text starts.
void pinLineNumber(int number, bool lit, float y, float width) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float left = ImGui::GetWindowPos().x + ImGui::GetStyle().WindowPadding.x;
  const float lineHeight = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 from(left - 4, y), to(left + width - ImGui::GetStyle().ItemSpacing.x / 2, y + lineHeight);
  draw->AddRectFilled(from, to, ImGui::GetColorU32(ImGuiCol_WindowBg, 1.0f));
  if (lit) draw->AddRectFilled(from, to, colours::kSourceLit);
  char text[16];
  std::snprintf(text, sizeof text, "%3d", number);
  draw->AddText(ImVec2(left, y), ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
}

/// Draws a source file with `marked` lines highlighted; scrolls the first
/// marked line into view when `scroll` is set. `original` turns on the
/// annotation and variable tooltips.
void drawListing(App& app, const char* id, const SourceFile& file, const std::set<int>& marked, bool scroll,
                 bool original) {
  ImGui::BeginChild(id, ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
  const float lineHeight = ImGui::GetTextLineHeightWithSpacing();
  const float charWidth = ImGui::CalcTextSize("M").x;
  if (scroll && !marked.empty()) {
    const float y = float(*marked.begin() - 1) * lineHeight;
    if (y < ImGui::GetScrollY() + lineHeight ||
        y > ImGui::GetScrollY() + ImGui::GetWindowHeight() - 3 * lineHeight)
      ImGui::SetScrollY(std::max(0.0f, y - ImGui::GetWindowHeight() / 3));
    ImGui::SetScrollX(0);  // column 0: a sideways scroll cut the first characters of every line
  }
  ImDrawList* draw = ImGui::GetWindowDrawList();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(file.lines.size()), lineHeight);
  while (clipper.Step()) {
    for (int index = clipper.DisplayStart; index < clipper.DisplayEnd; ++index) {
      const int number = index + 1;
      const std::string& text = file.lines[static_cast<std::size_t>(index)];
      const ImVec2 start = ImGui::GetCursorScreenPos();
      if (marked.count(number))
        draw->AddRectFilled(
            ImVec2(start.x - 4, start.y),
            ImVec2(start.x + std::max(ImGui::GetWindowWidth(), charWidth * float(text.size() + 6)),
                   start.y + lineHeight),
            colours::kSourceLit);
      ImGui::TextDisabled("%3d", number);
      ImGui::SameLine();
      const float textX = ImGui::GetCursorScreenPos().x;
      ImGui::TextUnformatted(text.c_str());
      if (ImGui::GetScrollX() > 0) pinLineNumber(number, marked.count(number) != 0, start.y, textX - start.x);
      if (original && ImGui::IsItemHovered()) {
        const int column = static_cast<int>((ImGui::GetIO().MousePos.x - textX) / charWidth);
        if (const char letter = letterAt(text, column)) {
          variableTooltip(app, letter);
        } else if (const OriginalLine* line = app.lineMap().original(number)) {
          ImGui::BeginTooltip();
          ImGui::PushTextWrapPos(tooltipWrap(36));
          ImGui::TextColored(ImVec4(0.6f, 0.8f, 1, 1), "line %d - %s", number, line->topic.c_str());
          ImGui::TextUnformatted(line->note.c_str());
          ImGui::PopTextWrapPos();
          ImGui::EndTooltip();
        }
      }
    }
  }
  clipper.End();
  ImGui::EndChild();
}

}  // namespace

void drawSourcePanel(App& app) {
  static int lastSite = -1;
  const PanelWindow panel(app, "Source", {360, 19, 580, 655});
  if (!panel.visible()) return;
  LineMap& map = app.lineMap();
  const int siteId = app.currentSite();
  const Site* site = map.site(siteId);

  std::set<int> minimalLines;
  std::set<int> readableLines;
  std::string readablePath = kDefaultReadable;
  // A return below the root runs only the site's last lines (`return m;`), not the root's hand-over
  // of its move to main(); a return settled by the hash table is the probe's `return v`.
  const bool lastOnly = site && app.view().innerReturn;
  if (site) {
    if (lastOnly && !site->minimalLines.empty())
      minimalLines.insert(site->minimalLines.back());
    else
      minimalLines.insert(site->minimalLines.begin(), site->minimalLines.end());
    for (const ReadableLine& ref : site->readable)
      if (ref.line > 0 && (readableLines.empty() || ref.file == readablePath)) {
        readablePath = ref.file;
        if (lastOnly) readableLines.clear();
        readableLines.insert(ref.line);
      }
  }
  const bool scroll = app.followCursor && siteId != lastSite;
  lastSite = siteId;

  // The site and the annotation of its note line (the king capture's: line 70, which sets m = I for a
  // king capture and a castling refused alike; line 69 only prices the victim), above the listings.
  const float noteHeight = ImGui::GetTextLineHeightWithSpacing() * 4.6f;
  ImGui::BeginChild("note", ImVec2(0, noteHeight), true);
  if (site) {
    ImGui::TextColored(ImVec4(1, 0.82f, 0.35f, 1), "site %d: %s", site->id, site->name.c_str());
    if (!minimalLines.empty())
      if (const OriginalLine* line = map.original(
              lastOnly || !minimalLines.count(site->noteLine) ? *minimalLines.begin() : site->noteLine)) {
        ImGui::SameLine();
        ImGui::TextDisabled("  original line %d, topic %s", line->line, line->topic.c_str());
        ImGui::TextWrapped("%s", line->note.c_str());
      }
  } else if (!map.hasSites()) {
    ImGui::TextWrapped(
        "The line map has no \"sites\" yet, so no line can be highlighted. Hover a line of the "
        "original for its annotation, a one-letter variable for its meaning.");
  } else {
    ImGui::TextWrapped(siteId == 0 ? "Before the first event. Step forward (Right) to enter the search."
                                   : "This event's site is not in the line map.");
  }
  ImGui::EndChild();

  // The two listings one above the other, each as wide as the panel.
  const float half = (ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y) / 2;
  const float caption = ImGui::GetTextLineHeightWithSpacing();
  ImGui::Text("original: %s", map.minimal().path.c_str());
  ImGui::PushID("minimal");
  ImGui::BeginChild("minimal-pane", ImVec2(0, half - caption));
  drawListing(app, "minimal", map.minimal(), minimalLines, scroll, true);
  ImGui::EndChild();
  ImGui::PopID();
  ImGui::Text("readable: %s", readablePath.c_str());
  ImGui::BeginChild("readable-pane", ImVec2(0, 0));
  drawListing(app, "readable", map.readableFile(readablePath), readableLines, scroll, false);
  ImGui::EndChild();
}

}  // namespace umax::viz
