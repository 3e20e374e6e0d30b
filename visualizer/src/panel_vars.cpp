// Variables panel: the current call's variables under their one-letter
// names with the readable names beside them, and the stack of open calls.
#include <imgui.h>

#include <string>

#include "panels.h"
#include "umax/engine.h"

namespace umax::viz {

namespace {

/// One variable: original name, readable name (from the line map), value.
void row(App& app, const char* name, const std::string& value, const char* fallback) {
  ImGui::TableNextColumn();
  ImGui::TextColored(ImVec4(1.0f, 0.82f, 0.35f, 1), "%s", name);
  ImGui::TableNextColumn();
  std::string readable = app.lineMap().searchVariable(name);
  if (readable.empty()) readable = fallback;
  // "score (stored)": the line map notes other uses in brackets; keep the first word.
  if (auto space = readable.find(" ("); space != std::string::npos) readable.resize(space);
  ImGui::TextDisabled("%s", readable.c_str());
  if (ImGui::IsItemHovered()) {
    const Variable* inSearch = nullptr;  // the meaning of the name in D(), if the line map has one
    for (const Variable* variable : app.lineMap().variables(name))
      if (variable->where.rfind("D()", 0) == 0) inSearch = variable;
    if (inSearch)
      ImGui::SetTooltip("%s (%s): %s", name, readable.c_str(), inSearch->meaning.c_str());
    else
      ImGui::SetTooltip("%s: %s", name, readable.c_str());
  }
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(value.c_str());
}

std::string bestToText(int bestTo) {
  std::string text = squareName(bestTo & 0x77);
  if (bestTo & kNotCastlingBit) text += "+nc";
  if (bestTo & kSneakBit) text += "+sn";
  return text;
}

}  // namespace

void drawVariablesPanel(App& app) {
  placePanel(0, 359, 300, 315, false);
  ImGui::Begin("Variables");
  app.recordPanel("Variables");
  if (!app.hasTrace()) {
    ImGui::TextUnformatted("No trace open.");
    ImGui::End();
    return;
  }
  const auto& stack = app.replay().state().stack();
  if (stack.empty()) {
    ImGui::TextUnformatted(app.replay().state().finished() ? "The root call has returned."
                                                           : "No call is open yet.");
    ImGui::End();
    return;
  }
  const trace::Frame& f = stack.back();
  ImGui::Text("D() at ply %d, node #%llu%s%s", f.ply, static_cast<unsigned long long>(f.nodeNumber),
              f.nodeNumber == 0 ? " (not counted yet)" : "", f.cutoff ? "  CUTOFF" : "");
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
  if (ImGui::BeginTable("vars", 6, flags)) {
    // The values keep their width; the readable names share what is left and
    // are cut when the panel is narrow (the tooltip names the variable in full).
    for (int pair = 0; pair < 2; ++pair) {
      ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed);
    }
    const trace::MoveRecord& mv = f.move;
    // Before the first move of the call, the move variables hold nothing yet.
    const bool moved = f.movesMade > 0;
    auto sq = [moved](int s) { return moved ? squareName(s) : std::string("-"); };
    auto num = [moved](int n) { return moved ? std::to_string(n) : std::string("-"); };
    const std::pair<const char*, std::pair<std::string, const char*>> cells[] = {
        {"k", {sideName(f.call.side), "side"}},
        {"q", {std::to_string(f.call.alpha), "alpha"}},
        {"l", {std::to_string(f.call.beta), "beta"}},
        {"e", {std::to_string(f.call.eval), "eval"}},
        {"n", {std::to_string(f.call.depth), "depth"}},
        {"d", {std::to_string(f.draft), "draft"}},
        {"m", {f.best <= -kInfinity ? "-I" : std::to_string(f.best), "best"}},
        {"v", {std::to_string(f.lastScore), "score"}},
        {"X", {squareName(f.bestFrom), "bestFrom"}},
        {"Y", {bestToText(f.bestTo), "bestTo"}},
        {"x", {sq(mv.from), "from"}},
        {"y", {sq(mv.to), "to"}},
        {"u", {num(mv.piece), "piece"}},
        {"t", {num(mv.victim), "victim"}},
        {"h", {num(mv.remaining), "remaining"}},
        {"H", {sq(mv.captureSquare), "captureSquare"}},
        {"G", {sq(mv.rookFrom), "rookFrom"}},
        {"F", {sq(mv.rookTo), "passedSquare"}},
        {"E", {squareName(f.call.epSquare), "passedSquare"}},
        {"z", {squareName(f.call.lastTo), "lastTo"}},
    };
    for (const auto& [name, rest] : cells) row(app, name, rest.first, rest.second);
    ImGui::EndTable();
  }
  ImGui::TextUnformatted("Stack of open calls (root first; J, Z, a: Hash table panel)");
  if (ImGui::BeginTable("stack", 6, flags | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* title : {"ply", "trying", "q..l", "n/d", "m", "node"}) ImGui::TableSetupColumn(title);
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < stack.size(); ++i) {
      const trace::Frame& frame = stack[i];
      ImGui::TableNextRow();
      if (i + 1 == stack.size())
        ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(40, 80, 140, 160));
      ImGui::TableNextColumn();
      ImGui::Text("%d", frame.ply);
      ImGui::TableNextColumn();
      ImGui::Text("%s%s", frame.moveOnBoard ? moveName(frame.move.from, frame.move.to).c_str() : "-",
                  frame.mateProbe ? " (mate probe)" : "");
      ImGui::TableNextColumn();
      ImGui::Text("%d..%d", frame.call.alpha, frame.call.beta);
      ImGui::TableNextColumn();
      ImGui::Text("%d/%d", frame.call.depth, frame.draft);
      ImGui::TableNextColumn();
      ImGui::Text("%s", frame.best <= -kInfinity ? "-I" : std::to_string(frame.best).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(frame.nodeNumber));
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace umax::viz
