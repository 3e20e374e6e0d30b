// Variables panel: the current call's variables under their one-letter
// names with the readable names beside them, and the stack of open calls.
#include <imgui.h>

#include <string>
#include <string_view>

#include "panels.h"
#include "umax/engine.h"

namespace umax::viz {

namespace {

/// One variable: original name, readable name, value (the view model's); the tooltip gives the
/// line map's meaning.
void row(App& app, const char* name, const std::string& value, const char* readable) {
  ImGui::TableNextColumn();
  ImGui::TextColored(ImVec4(1.0f, 0.82f, 0.35f, 1), "%s", name);
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", readable);
  // The first row's readable name, where the browser tests tap for a tooltip on a phone.
  if (std::string_view(name) == "k") app.recordItem("Variables / k");
  if (ImGui::IsItemHovered()) {
    if (const Variable* inSearch = app.lineMap().searchVariable(name))  // its meaning in D()
      tooltip(std::string(name) + " (" + readable + "): " + inSearch->meaning);
    else
      tooltip(std::string(name) + ": " + readable);
  }
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(value.c_str());
}

/// The window [q, l], and the alpha the replies are searched with once m is set and while moves
/// are still searched (not at a cutoff or a return: no reply follows).
void drawWindow(const trace::Frame& f, const trace::ViewState& view) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  const bool searching =
      f.nodeNumber != 0 && view.kind != "node" && view.kind != "cutoff" && view.kind != "return" && !f.cutoff;
  if (searching)
    ImGui::TextWrapped("window [%s, %s], replies searched with alpha %s",
                       trace::scoreName(f.call.alpha).c_str(), trace::scoreName(f.call.beta).c_str(),
                       trace::scoreName(view.searchAlpha).c_str());
  else
    ImGui::TextWrapped("window [%s, %s]", trace::scoreName(f.call.alpha).c_str(),
                       trace::scoreName(f.call.beta).c_str());
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered())
    tooltip(
        "q (alpha) and l (beta) of this call; once a move scored m > q, the replies are searched "
        "with alpha m (Step 12: -(m > q ? m : q))");
}

constexpr ImGuiTableFlags kTableFlags =
    ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;

/// The variables, two to a row: the values and the readable names come from the view model
/// (umax::trace::viewState).
void drawVariables(App& app, const std::vector<trace::VariableView>& variables) {
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(3, 1));  // the readable names fit at 360 px
  const bool table = ImGui::BeginTable("vars", 6, kTableFlags);
  ImGui::PopStyleVar();
  if (!table) return;
  // The values keep their width; the readable names share what is left and
  // are cut when the panel is narrow (the tooltip names the variable in full).
  for (int pair = 0; pair < 2; ++pair) {
    ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed);
  }
  // The long readable names share the left column, the short ones the right, so that both fit.
  static constexpr std::pair<const char*, const char*> kRows[] = {
      {"k", "q"}, {"m", "l"}, {"n", "e"}, {"X", "d"}, {"u", "v"},     {"h", "i"},
      {"H", "Y"}, {"G", "x"}, {"F", "y"}, {"E", "t"}, {nullptr, "z"},
  };
  const auto cell = [&](const char* name) {
    if (!name) {  // an empty cell
      for (int column = 0; column < 3; ++column) ImGui::TableNextColumn();
      return;
    }
    for (const trace::VariableView& variable : variables)
      if (variable.name == name)
        return row(app, variable.name.c_str(), variable.value, variable.readable.c_str());
    row(app, name, "?", "");
  };
  for (const auto& [left, right] : kRows) {
    cell(left);
    cell(right);
  }
  ImGui::EndTable();
}

/// The open calls, root first, the current one highlighted.
void drawStack(const std::vector<trace::FrameView>& rows) {
  ImGui::TextUnformatted("Stack of open calls (root first)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("n/d: depth asked for / draft reached; J, Z, a: Hash table panel");
  if (!ImGui::BeginTable("stack", 6, kTableFlags | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* title : {"ply", "trying", "q..l", "n/d", "m", "node"}) ImGui::TableSetupColumn(title);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const trace::FrameView& frame = rows[i];
    ImGui::TableNextRow();
    if (i + 1 == rows.size()) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(40, 80, 140, 160));
    ImGui::TableNextColumn();
    ImGui::Text("%d", frame.ply);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(frame.trying.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%s..%s", trace::scoreName(frame.alpha).c_str(), trace::scoreName(frame.beta).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%d/%d", frame.depth, frame.draft);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(frame.best.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%llu", static_cast<unsigned long long>(frame.node));
  }
  ImGui::EndTable();
}

}  // namespace

void drawVariablesPanel(App& app) {
  const PanelWindow panel(app, "Variables", {0, 359, 360, 315});
  if (!panel.showsTrace()) return;
  const auto& stack = app.replay().state().stack();
  if (stack.empty()) {
    ImGui::TextUnformatted(app.replay().state().finished() ? "The root call has returned."
                                                           : "No call is open yet.");
    return;
  }
  const trace::Frame& f = stack.back();
  ImGui::Text("D() at ply %d, node #%llu%s%s", f.ply, static_cast<unsigned long long>(f.nodeNumber),
              f.nodeNumber == 0 ? " (not counted yet)" : "", f.cutoff ? "  CUTOFF" : "");
  const trace::ViewState& view = app.view();
  drawWindow(f, view);
  drawVariables(app, view.variables);
  drawStack(view.stack);
}

}  // namespace umax::viz
