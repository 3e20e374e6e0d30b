// The dialogs: File > Open, File > Record, the progress of a recording, and
// an error box.
#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
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
    app.startRecording(app.recordFen, app.recordMoves, app.recordNodes, path.string(), true);
    app.showRecord = false;
  }
  ImGui::End();
}

void drawRecordingProgress(Recording& job) {
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x / 2, 200), ImGuiCond_Always, ImVec2(0.5f, 0));
  ImGui::Begin("Recording", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
  ImGui::Text("Recording a search into %s", job.path.c_str());
  const uint64_t nodes = job.nodes.load();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - job.started).count();
  struct stat info {};
  const double megabytes = ::stat(job.path.c_str(), &info) == 0 ? double(info.st_size) / 1e6 : 0.0;
  ImGui::Text("iteration %d, %llu nodes, %.1f MB written, %.1f s", job.draft.load(),
              static_cast<unsigned long long>(nodes), megabytes, seconds);
  // The budget only stops new iterations: past it, the bar says so instead of a share. A budget of 0:
  // a think to a depth (the web edition's depth=), which has none.
  const bool past = nodes >= static_cast<uint64_t>(std::max(1L, job.budget));
  char overlay[96];
  if (job.budget <= 0)
    std::snprintf(overlay, sizeof overlay, "a think to a depth (no budget): iteration %d", job.draft.load());
  else if (past)
    std::snprintf(overlay, sizeof overlay, "budget of %ld passed: iteration %d runs to its end", job.budget,
                  job.draft.load());
  else
    std::snprintf(overlay, sizeof overlay, "%.0f%% of the budget of %ld nodes",
                  100.0 * double(nodes) / double(job.budget), job.budget);
  ImGui::ProgressBar(job.budget <= 0 ? 0.0f
                     : past          ? 1.0f
                                     : float(nodes) / float(job.budget),
                     ImVec2(420, 0), overlay);
  // The think ends at its next node; the trace keeps what was searched and opens.
  if (job.stop) {
    ImGui::TextDisabled("stopping...");
  } else {
    if (ImGui::Button("Stop")) job.stop = true;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("end the search now and open the trace of what it searched");
  }
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
  if (Recording* job = app.recording()) drawRecordingProgress(*job);
  if (!app.error().empty() && !app.showOpen) drawErrorBox(app);
}

}  // namespace umax::viz
