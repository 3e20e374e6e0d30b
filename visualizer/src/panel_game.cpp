// Game panel: a folder of traces written by umax-readable --trace-dir, shown
// as the game's move list. Each move our engine thought about is a button
// that opens its think; the opponent's moves are listed greyed. The folder
// is read by the tracer library (umax/trace/game_dir.h), so this file only
// draws and opens.
#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "panels.h"
#include "umax/trace/game_dir.h"
#include "umax/view/stats.h"

namespace umax::viz {

namespace {

/// The open game folder, if any, and its move lists (one per game).
struct GameView {
  std::unique_ptr<trace::GameDir> dir;
  std::vector<std::vector<trace::GamePly>> plies;
  bool show = true;
  uint64_t scrolledGeneration = UINT64_MAX;  ///< the trace the list last scrolled to
};

GameView& gameView() {
  static GameView view;
  return view;
}

/// True if `path` names a game folder rather than one trace: a directory, or
/// a PGN saved in one (the traces lie beside it).
bool isGameFolder(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_directory(path, error) || std::filesystem::path(path).extension() == ".pgn";
}

/// One of our moves: a selectable label that opens its think, with the
/// think's figures in a tooltip.
void thinkButton(App& app, const trace::GameThink& think, const std::string& text, bool scroll) {
  const bool open = app.trace() && app.trace()->path == think.path;
  ImGui::PushID(think.path.c_str());
  // On failure openTrace keeps the old trace and the error dialog says why.
  if (ImGui::Selectable(text.c_str(), open) && !open) app.openTrace(think.path);
  if (open && scroll) ImGui::SetScrollHereY(0.5f);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s\nscore %d, %llu nodes, budget %lld\n%llu events%s", think.path.c_str(), think.score,
                      static_cast<unsigned long long>(think.nodes), static_cast<long long>(think.budget),
                      static_cast<unsigned long long>(think.events), think.finished ? "" : " (cut short)");
  ImGui::PopID();
}

/// One game's moves as a table: move number, white's move, black's move.
void drawMoveList(App& app, const trace::GameRecord& game, const std::vector<trace::GamePly>& plies,
                  bool scroll) {
  if (!ImGui::BeginTable("moves", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 34);
  ImGui::TableSetupColumn("white", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("black", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (std::size_t index = 0; index < plies.size(); ++index) {
    const trace::GamePly& ply = plies[index];
    if (ply.white || index == 0) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%d.", ply.moveNumber);
      if (!ply.white) ImGui::TableNextColumn();  // a game starting with black: white's cell empty
    }
    ImGui::TableNextColumn();
    if (ply.think < 0) {
      ImGui::TextDisabled("%s", ply.move.c_str());
      continue;
    }
    const trace::GameThink& think = game.thinks[static_cast<std::size_t>(ply.think)];
    thinkButton(app, think, ply.move + "  " + scoreText(think.score), scroll);
  }
  ImGui::EndTable();
  // Thinks whose move was never played (game.txt's "unplayed"): below the moves, with the reason.
  for (const trace::GameThink& think : game.thinks)
    if (!think.notPlayed.empty()) thinkButton(app, think, thinkLabel(think) + ": " + think.notPlayed, scroll);
}

}  // namespace

bool openTraceOrGame(App& app, const std::string& path, int ply) {
  if (!isGameFolder(path)) return app.openTrace(path);
  auto dir = std::make_unique<trace::GameDir>();
  try {
    *dir = trace::readGameDir(path);
  } catch (const std::exception& failure) {
    app.setError("cannot open the game folder " + path + ": " + failure.what());
    return false;
  }
  // The think at `ply` in the first game that has one, else the game's first.
  const trace::GameThink* chosen = &dir->games.front().thinks.front();
  if (ply > 0) {
    chosen = nullptr;
    for (const trace::GameRecord& game : dir->games)
      for (const trace::GameThink& think : game.thinks)
        if (!chosen && think.ply == ply) chosen = &think;
    if (!chosen) {
      app.setError("no think at ply " + std::to_string(ply) + " in " + path);
      return false;
    }
  }
  const std::string first = chosen->path;
  GameView& view = gameView();
  view.plies.clear();
  for (const trace::GameRecord& game : dir->games) view.plies.push_back(trace::gamePlies(game));
  view.dir = std::move(dir);
  view.show = true;
  return app.openTrace(first);
}

void drawGamePanel(App& app) {
  GameView& view = gameView();
  if (!view.dir) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantTextInput && !io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_G, false)) view.show = !view.show;
  if (!view.show) return;
  // Over the hash table's place: in a game the move list matters more, and
  // G (or the close button) uncovers the hash table again. Opaque: the hash table lies underneath.
  const PanelWindow panel(app, "Game", {940, 329, 340, 345}, {.open = &view.show, .opaque = true});
  if (!panel.visible()) return;
  const bool scroll = view.scrolledGeneration != app.traceGeneration;
  view.scrolledGeneration = app.traceGeneration;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%zu thinks in %s. Click one of our moves to open its think; G hides this panel.",
                      view.dir->thinkCount(), view.dir->path.c_str());
  ImGui::PopTextWrapPos();
  for (std::size_t index = 0; index < view.dir->games.size(); ++index) {
    const trace::GameRecord& game = view.dir->games[index];
    ImGui::PushID(static_cast<int>(index));
    const std::string title = "Game " + std::to_string(index + 1) + " from " + startText(game);
    if (ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
      drawMoveList(app, game, view.plies[index], scroll);
      if (!game.result.empty()) ImGui::TextUnformatted(game.result.c_str());
    }
    ImGui::PopID();
  }
  for (const std::string& refusal : view.dir->refusals)
    ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "not read: %s", refusal.c_str());
}

}  // namespace umax::viz
