// The dialogs: File > Open, File > Record, the progress of a recording, and
// an error box.
#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "ui.h"

namespace umax::viz {

namespace {

const ImVec4 kFailure(1, 0.4f, 0.4f, 1);

void drawOpenDialog(App& app) {
  ImGui::SetNextWindowPos(ImVec2(300, 120), ImGuiCond_Appearing);
  ImGui::Begin("Open trace", &app.showOpen, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::TextUnformatted("Path of a trace file (umax-trace record ... -o FILE):");
  ImGui::SetNextItemWidth(520);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  const bool enter =
      ImGui::InputText("##path", app.openPath, sizeof app.openPath, ImGuiInputTextFlags_EnterReturnsTrue);
  if ((ImGui::Button("Open") || enter) && app.openTrace(app.openPath)) app.showOpen = false;
  if (!app.error().empty()) ImGui::TextColored(kFailure, "%s", app.error().c_str());
  ImGui::End();
}

void drawRecordDialog(App& app) {
  ImGui::SetNextWindowPos(ImVec2(300, 120), ImGuiCond_Appearing);
  ImGui::Begin("Record a search", &app.showRecord, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::SetNextItemWidth(420);
  ImGui::InputTextWithHint("FEN", "empty: the start position", app.recordFen, sizeof app.recordFen);
  ImGui::SetNextItemWidth(420);
  ImGui::InputTextWithHint("moves", "moves played first, e.g. e2e4 e7e5", app.recordMoves,
                           sizeof app.recordMoves);
  ImGui::SetNextItemWidth(160);
  ImGui::InputInt("node budget", &app.recordNodes, 1000, 10000);
  app.recordNodes = std::clamp(app.recordNodes, 1, 10000000);
  if (ImGui::Button("Record and open")) {
    const auto path = std::filesystem::temp_directory_path() / ("umax-viz-" + std::to_string(getpid()) + "-" +
                                                                std::to_string(app.recordNodes) + ".trc");
    app.startRecording(app.recordFen, app.recordMoves, app.recordNodes, path.string());
    app.showRecord = false;
  }
  ImGui::End();
}

void drawRecordingProgress(const Recording& job) {
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x / 2, 200), ImGuiCond_Always, ImVec2(0.5f, 0));
  ImGui::Begin("Recording", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
  ImGui::Text("Recording a search into %s", job.path.c_str());
  ImGui::Text("iteration %d, %llu nodes (budget %ld; the last iteration runs past it)", job.draft.load(),
              static_cast<unsigned long long>(job.nodes.load()), job.budget);
  ImGui::ProgressBar(std::min(1.0f, float(job.nodes.load()) / float(std::max(1L, job.budget))),
                     ImVec2(420, 0));
  ImGui::End();
}

void drawErrorBox(App& app) {
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x / 2, 80), ImGuiCond_Always, ImVec2(0.5f, 0));
  ImGui::Begin("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::TextColored(kFailure, "%s", app.error().c_str());
  if (ImGui::Button("OK")) app.setError("");
  ImGui::End();
}

}  // namespace

void drawDialogs(App& app) {
  if (app.showOpen) drawOpenDialog(app);
  if (app.showRecord) drawRecordDialog(app);
  if (const Recording* job = app.recording()) drawRecordingProgress(*job);
  if (!app.error().empty() && !app.showOpen) drawErrorBox(app);
}

}  // namespace umax::viz
