// The main menu bar: File, View and Help, then what is open (file,
// position, budget, events) and the progress of the background builds.
#include <imgui.h>

#include "ui.h"

namespace umax::viz {

namespace {

const ImVec4 kWarning(1, 0.8f, 0.3f, 1);
const ImVec4 kFailure(1, 0.4f, 0.4f, 1);

/// The open trace and the state of its background builds, after the menus.
void drawTraceStatus(const LoadedTrace& loaded) {
  const trace::TraceHeader& header = loaded.reader->header();
  // A think of the Lab names its variant, in the colour of a warning: its figures are not micro-Max's own.
  const std::string budget = header.variant.depth ? "to depth " + std::to_string(header.variant.depth)
                                                  : "budget " + std::to_string(header.budget);
  ImGui::TextDisabled("  %s  |  %s%s%s  |  %s  |  %llu events", loaded.path.c_str(),
                      header.fen.empty() ? "start position" : header.fen.c_str(),
                      header.moves.empty() ? "" : " + ", header.moves.c_str(), budget.c_str(),
                      static_cast<unsigned long long>(loaded.reader->eventCount()));
  if (header.variant.without)
    ImGui::TextColored(kWarning, "  the Lab: %s", header.variant.description().c_str());
  if (loaded.reader->truncated())
    ImGui::TextColored(kFailure, "  TRUNCATED: %s", loaded.reader->truncationNote().c_str());
  const IndexBuild& tree = loaded.treeBuild;
  const IndexBuild& index = loaded.indexBuild;
  if (tree.building()) ImGui::TextColored(kWarning, "  call tree %.0f%%", 100 * tree.progress.load());
  if (index.building()) ImGui::TextColored(kWarning, "  hash index %.0f%%", 100 * index.progress.load());
  if (tree.failed) ImGui::TextColored(kFailure, "  call tree failed: %s", tree.error.c_str());
  if (index.failed) ImGui::TextColored(kFailure, "  hash index failed: %s", index.error.c_str());
}

}  // namespace

void drawMenu(App& app) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open trace...", "Ctrl+O")) app.showOpen = true;
    if (ImGui::MenuItem("Record a search...", "Ctrl+R")) app.showRecord = true;
    platform::fileMenuItems(app);
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) app.quitRequested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    ImGui::MenuItem("Legend: what the marks mean", "L", &app.showLegend);
    ImGui::MenuItem("Follow the cursor", "F", &app.followCursor);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Stepping, the panels, the keys", "F1")) app.showHelp = true;
    ImGui::MenuItem("Legend", "L", &app.showLegend);
    ImGui::EndMenu();
  }
  // The legend starts hidden (it would cover the Source panel): say where it is, as a button.
  if (!app.showLegend) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarning);
    if (ImGui::MenuItem("L: legend")) app.showLegend = true;
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("click, or press L (or View > Legend), for what the marks mean");
  }
  if (const LoadedTrace* loaded = app.trace()) drawTraceStatus(*loaded);
  ImGui::EndMainMenuBar();
}

}  // namespace umax::viz
