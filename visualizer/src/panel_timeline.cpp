// Timeline panel: a scrubber over all events with the root's iterations and
// the density of cutoffs and hash hits, the stepping buttons, playback, and
// finding a node by number or by a line of moves.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "colours.h"
#include "panels.h"

namespace umax::viz {

namespace {

/// Starts a new line unless an item `width` pixels wide still fits on this one (after SameLine):
/// in a narrow window the buttons wrap instead of running off its edge.
void wrapUnlessFits(float width) {
  if (ImGui::GetCursorPosX() + width > ImGui::GetWindowContentRegionMax().x) ImGui::NewLine();
}

/// The least width of a button (in the compact layout, where a finger presses them: 44 pixels).
float buttonMinWidth = 0;

bool button(const char* label, const char* tip) {
  const float width =
      std::max(buttonMinWidth, ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2);
  wrapUnlessFits(width);
  const bool pressed = ImGui::Button(label, ImVec2(width, 0));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
  ImGui::SameLine();
  return pressed;
}

/// The marks of the timeline index in the bar at `origin`: cutoff and hash-hit density and the
/// root's iterations. The bars, the iteration lines and the cursor share one event-to-x mapping
/// (trace::timelineColumn).
void drawMarks(ImDrawList* draw, const trace::TimelineIndex& index, ImVec2 origin, float width, float height,
               float band, uint64_t total) {
  // One column per pixel: the largest bucket count under it, scaled to the densest column.
  const int columns = std::max(1, static_cast<int>(width));
  const auto bars = trace::timelineColumns(index, total, columns);
  uint32_t peak = 1;
  for (const trace::TimelineColumn& bar : bars) peak = std::max({peak, bar.cutoffs, bar.hashHits});
  for (int column = 0; column < columns; ++column) {
    const uint32_t cut = bars[static_cast<std::size_t>(column)].cutoffs;
    const uint32_t hit = bars[static_cast<std::size_t>(column)].hashHits;
    const float x = origin.x + static_cast<float>(column);
    const float half = (height - band) / 2;
    if (cut)
      draw->AddLine(ImVec2(x, origin.y + band + half),
                    ImVec2(x, origin.y + band + half - half * float(cut) / float(peak)),
                    colours::kCutoffMark);
    if (hit)
      draw->AddLine(ImVec2(x, origin.y + band + half),
                    ImVec2(x, origin.y + band + half + half * float(hit) / float(peak)),
                    colours::kHashHitMark);
  }
  // Iteration lines. Labels that would run into each other are merged: "d1-3" for the first
  // three iterations when they lie a few pixels apart. Each label sits on a box of the bar's
  // colour: the lines it merges ran through its digits ("d1-5" read "d1-$").
  const auto& iterations = index.rootIterations();
  const auto xOf = [&](std::size_t i) {
    return origin.x + static_cast<float>(trace::timelineColumn(iterations[i].event, total, columns));
  };
  for (std::size_t i = 0; i < iterations.size(); ++i)
    draw->AddLine(ImVec2(xOf(i), origin.y), ImVec2(xOf(i), origin.y + height), colours::kIterationMark, 1.5f);
  for (std::size_t first = 0; first < iterations.size();) {
    std::size_t last = first;
    char label[32];
    // Take in the next iteration while the label so far would reach its line.
    for (;;) {
      if (last == first)
        std::snprintf(label, sizeof label, "d%d", iterations[first].draft);
      else
        std::snprintf(label, sizeof label, "d%d-%d", iterations[first].draft, iterations[last].draft);
      const float end = xOf(first) + 2 + ImGui::CalcTextSize(label).x + 4;
      if (last + 1 < iterations.size() && xOf(last + 1) < end)
        ++last;
      else
        break;
    }
    const ImVec2 at(xOf(first) + 2, origin.y);
    const ImVec2 size = ImGui::CalcTextSize(label);
    draw->AddRectFilled(ImVec2(at.x, at.y), ImVec2(at.x + size.x + 2, at.y + std::min(size.y, band)),
                        colours::kTimelineBar);
    draw->AddText(at, colours::kIterationLabel, label);
    first = last + 1;
  }
}

/// The scrubber: a bar as wide as the panel. Cutoff density is drawn as red
/// columns, hash hits as green, root iterations as labelled lines.
void drawScrubber(App& app) {
  LoadedTrace& loaded = *app.trace();
  const uint64_t total = std::max<uint64_t>(1, app.eventCount());
  const float width = ImGui::GetContentRegionAvail().x;
  // The labels' band above the marks is a line of text high (13 pixels on the desktop, more in
  // the compact layout's larger text); the marks get 20 pixels below it.
  const float band = std::ceil(ImGui::GetFontSize()) + 1;
  const float height = band + 20;  // on the desktop 34: room for two lines of narration below the buttons
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("scrubber", ImVec2(std::max(width, 10.0f), height));
  const bool active = ImGui::IsItemActive();
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), colours::kTimelineBar);

  if (const trace::TimelineIndex* index = loaded.readyTimeline()) {
    drawMarks(draw, *index, origin, width, height, band, total);
  } else {
    char text[96];
    std::snprintf(text, sizeof text, "indexing events for markers... %.0f%%",
                  100.0 * loaded.indexBuild.progress.load());
    draw->AddText(ImVec2(origin.x + 6, origin.y + 16), IM_COL32(180, 180, 180, 255), text);
  }
  // The cursor stands on the column of the event just applied (at the left edge before event 0).
  const int columns = std::max(1, static_cast<int>(width));
  const float cursorX =
      origin.x + (app.cursor() == 0
                      ? 0.0f
                      : static_cast<float>(trace::timelineColumn(app.cursor() - 1, total, columns)));
  draw->AddLine(ImVec2(cursorX, origin.y - 2), ImVec2(cursorX, origin.y + height + 2), colours::kCursor, 3);

  // The event under the mouse: the inverse of timelineColumn, so a click lands on the event whose
  // column it is, and the cursor is then drawn there.
  const auto eventUnderMouse = [&]() {
    const float share =
        std::clamp((ImGui::GetIO().MousePos.x - origin.x) / std::max(width, 1.0f), 0.0f, 1.0f);
    const auto event = static_cast<uint64_t>(double(share) * double(app.eventCount()));
    return std::min(event, app.eventCount() - 1);
  };
  if (active && app.eventCount() > 0) {
    app.seek(eventUnderMouse() + 1);
  } else if (hovered && app.eventCount() > 0) {
    // Clicking here moves the cursor to just after event N (events are numbered from 0).
    ImGui::SetTooltip(
        "event %llu\nred, up: cutoffs; green, down: hash hits; yellow dN: the root's iteration N starts\n"
        "(d1-5: iterations 1 to 5 start too close together to be labelled one by one)",
        static_cast<unsigned long long>(eventUnderMouse()));
  }
}

/// The event just applied, as the trace names it; a return also says the draft it completed,
/// since the d it carries is the loop counter, one higher (see trace::completedDraft()).
std::string lastEventText(App& app) {
  if (!app.replay().lastEvent()) return "(before the first event)";
  // A copy: app.view() may decode another chunk, which moves what lastEvent() points to.
  const trace::Event event = *app.replay().lastEvent();
  std::string text = trace::toString(event);
  if (event.kind != trace::EventKind::kReturn) return text;
  // A call answered by the hash table returns at the probe's site (the view model's).
  const bool answeredByHash = app.view().site == static_cast<int>(SearchSite::kHashCutoff);
  const int draft = trace::completedDraft(event.draft, answeredByHash);
  return text + (answeredByHash
                     ? "  (answered by the hash table: its entry's draft " + std::to_string(draft) + ")"
                     : "  (draft " + std::to_string(draft) + " completed; d is the loop counter)");
}

/// The jumps (next cutoff, hash hit, iteration), the playback speed and the finders (node, line).
void drawJumpsAndFinders(App& app) {
  if (!app.compact) {  // after the stepping buttons on the same line
    ImGui::TextUnformatted("|");
    ImGui::SameLine();
  }
  if (button("Cutoff", "next beta cutoff (C)")) app.nextCutoff();
  if (button("Hash hit", "next hash hit (H)")) app.nextHashHit();
  if (button("<Iter", "previous root iteration (Shift+I)")) app.previousIteration();
  if (button("Iter>", "next root iteration (I)")) app.nextIteration();
  wrapUnlessFits(150 + ImGui::CalcTextSize("events/s").x + ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::SetNextItemWidth(150);
  ImGui::SliderFloat("events/s", &app.speed, 1.0f, 200000.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  ImGui::TextUnformatted(" |");
  ImGui::SameLine();

  wrapUnlessFits(110);
  ImGui::SetNextItemWidth(110);
  if (ImGui::InputTextWithHint("##node", "node number", app.findNodeText, sizeof app.findNodeText,
                               ImGuiInputTextFlags_EnterReturnsTrue))
    app.findNode(app.findNodeText);
  ImGui::SameLine();
  if (button("Find node", "jump to just after this counted node (N++)")) app.findNode(app.findNodeText);
  wrapUnlessFits(220);
  ImGui::SetNextItemWidth(220);
  if (ImGui::InputTextWithHint("##line", "moves from the root, e.g. e7e5 g1f3", app.findLineText,
                               sizeof app.findLineText, ImGuiInputTextFlags_EnterReturnsTrue))
    app.findLine(app.findLineText);
  ImGui::SameLine();
  if (button("Find line", "jump to the first call reached by these moves")) app.findLine(app.findLineText);
}

/// The event just applied and what it does, in words, and the last jump's or find's message.
void drawNarration(App& app) {
  // Events are numbered from 0, as umax-trace jsonl's "i" and umax-trace state --event: the
  // event shown is the one just applied (the view model's event).
  const trace::ViewState& view = app.view();
  // On a phone under the Board's tab the narration is under the board, with its caption (the Board
  // panel's textUnderBoard): said once on the small screen.
  const bool narrated = !app.compact || app.compactPanel != "Board";
  const char* colon = narrated ? ":" : "";
  if (view.event)
    ImGui::Text("event %llu of 0..%llu%s", static_cast<unsigned long long>(*view.event),
                static_cast<unsigned long long>(app.eventCount() - 1), colon);
  else
    ImGui::Text("before event 0 of 0..%llu%s", static_cast<unsigned long long>(app.eventCount() - 1), colon);
  if (ImGui::IsItemHovered()) tooltip(lastEventText(app));
  if (narrated) {
    if (!app.compact) ImGui::SameLine();  // on a phone the narration takes a line of its own, all its width
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.9f, 1, 1));
    ImGui::TextWrapped("%s", view.narration.c_str());
    ImGui::PopStyleColor();
    app.recordItem("Timeline / narration");
    if (ImGui::IsItemHovered()) tooltip(view.narration + "\n\nthe event's record: " + lastEventText(app));
  }
  if (!app.message.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "   %s", app.message.c_str());
  }
}

}  // namespace

void drawTimelinePanel(App& app) {
  const PanelWindow panel(app, "Timeline", {0, 674, 1280, 126});
  if (!panel.showsTrace()) return;
  buttonMinWidth = app.compact ? 44.0f : 0.0f;
  drawScrubber(app);

  if (button("|<", "to the start (Home)")) app.seek(0);
  if (button("<", "step back one event (Left)")) app.stepBack();
  app.recordItem("Timeline / step back");
  if (button(app.playing ? "Pause" : "Play", "play / pause (Space)")) app.playing = !app.playing;
  if (button(">", "step one event, into calls (Right)")) app.stepForward();
  app.recordItem("Timeline / step");
  if (button("Over", "step over the next move or call (Down)")) app.stepOver();
  if (button("Out", "step out of the current call (Up)")) app.stepOut();
  if (button(">|", "to the end (End)")) app.seek(app.eventCount());
  // In the compact layout (a phone) the narration comes right under the stepping buttons, and the
  // jumps and finders below it.
  if (app.compact) {
    ImGui::NewLine();
    drawNarration(app);
    drawJumpsAndFinders(app);
  } else {
    drawJumpsAndFinders(app);
    ImGui::NewLine();
    // What the panel needs: the rows so far and the lines of some 300 characters of narration
    // beside "event N of 0..M:" (two at 1280 pixels; a narrow window wraps the finders into a second
    // row and the narration into more lines; the layout then gives the Timeline that much more).
    const float narrationWidth =
        ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("event 00000 of 0..000000: ").x;
    const float perLine = std::max(1.0f, narrationWidth / ImGui::CalcTextSize("x").x);
    const float lines = std::clamp(std::ceil(300 / perLine), 2.0f, 4.0f);
    app.timelineNeeds = ImGui::GetCursorPosY() + ImGui::GetTextLineHeightWithSpacing() * lines +
                        ImGui::GetStyle().WindowPadding.y;
    drawNarration(app);
  }
}

}  // namespace umax::viz
