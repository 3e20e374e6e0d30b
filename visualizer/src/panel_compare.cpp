// Compare panel (umax-viz A.trc --compare B.trc): a second search beside the one stepped, say the
// Lab's without one idea beside micro-Max's own. Both searches' root iterations side by side
// (nodes, calls, effective branching, best move, score), where their trees first part, and each
// tree at the root in the root iteration the cursor is in: the stepped trace moves with the keys,
// the other is shown at the same iteration. "Step B instead" swaps the two.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "colours.h"
#include "panels.h"

namespace umax::viz {

namespace {

/// One reply of the root: its move, the score it gave the root, and the calls below it.
struct RootReply {
  int from = 0;
  int to = 0;
  int score = 0;       ///< minus the reply's return value (before the delayed-gain point)
  uint64_t calls = 0;  ///< calls in its subtree, itself included
  bool bestFirst = false;
  bool hashCut = false;
};

/// The root's replies in root iteration `draft`, in the order searched: in the call tree's
/// pre-order a reply's subtree runs up to the next reply of the root.
std::vector<RootReply> rootReplies(const trace::CallTree& tree, int draft) {
  const std::vector<trace::TreeNode>& nodes = tree.nodes();
  std::vector<RootReply> replies;
  if (nodes.empty()) return replies;
  for (uint32_t child = nodes[0].firstChild; child != 0; child = nodes[child].nextSibling) {
    const trace::TreeNode& node = nodes[child];
    if (node.iteration != draft || (node.flags & trace::kTreeMateProbe)) continue;
    const uint32_t end = node.nextSibling ? node.nextSibling : static_cast<uint32_t>(nodes.size());
    replies.push_back({node.from, node.to, -node.score, end - child,
                       (node.flags & trace::kTreeBestFirst) != 0, (node.flags & trace::kTreeHashCut) != 0});
  }
  return replies;
}

/// The root iteration the cursor of `replay` is in (0 before the first).
int rootIterationAt(const trace::Replay& replay, const trace::TraceStats& stats) {
  const auto& stack = replay.state().stack();
  if (!stack.empty()) return stack.front().draft;
  if (replay.cursor() == 0 || stats.iterations.empty()) return 0;
  return stats.iterations.back().draft;  // after the root's return: its last iteration
}

void iterationRow(const trace::IterationStats* iteration) {
  ImGui::TableNextColumn();
  if (!iteration) {
    for (int column = 0; column < 5; ++column) {
      ImGui::TextDisabled("-");
      if (column < 4) ImGui::TableNextColumn();
    }
    return;
  }
  ImGui::Text("%llu", static_cast<unsigned long long>(iteration->nodes));
  ImGui::TableNextColumn();
  ImGui::Text("%llu", static_cast<unsigned long long>(iteration->calls));
  ImGui::TableNextColumn();
  if (iteration->branching > 0)
    ImGui::Text("%.2f", iteration->branching);
  else
    ImGui::TextDisabled("-");
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(!iteration->completed ? "(cut)"
                         : iteration->bestFrom == iteration->bestTo
                             ? "none"
                             : moveName(iteration->bestFrom, iteration->bestTo).c_str());
  ImGui::TableNextColumn();
  if (iteration->completed)
    ImGui::TextUnformatted(scoreText(iteration->best).c_str());
  else
    ImGui::TextDisabled("-");
}

const trace::IterationStats* iterationOf(const trace::TraceStats& stats, int draft) {
  for (const trace::IterationStats& iteration : stats.iterations)
    if (iteration.draft == draft) return &iteration;
  return nullptr;
}

void repliesTable(const char* id, const std::vector<RootReply>& replies) {
  if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("move");
  ImGui::TableSetupColumn("score");
  ImGui::TableSetupColumn("calls");
  ImGui::TableHeadersRow();
  for (const RootReply& reply : replies) {
    ImGui::TableNextColumn();
    ImGui::Text("%s%s", moveName(reply.from, reply.to).c_str(), reply.bestFirst ? " (first)" : "");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(scoreText(reply.score).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%llu%s", static_cast<unsigned long long>(reply.calls), reply.hashCut ? " (hash)" : "");
  }
  ImGui::EndTable();
}

void divergenceText(const char* title, const std::optional<trace::Divergence>& divergence, App& app) {
  if (!divergence) {
    ImGui::Text("%s: none", title);
    return;
  }
  std::string path;
  for (const std::string& move : divergence->path) path += (path.empty() ? "" : " ") + move;
  ImGui::Text("%s: event %llu of A, %llu of B, ply %d, path %s", title,
              static_cast<unsigned long long>(divergence->eventA),
              static_cast<unsigned long long>(divergence->eventB), divergence->ply,
              path.empty() ? "(the root)" : path.c_str());
  ImGui::TextWrapped("  A: %s", divergence->whatA.value_or("(A ends here)").c_str());
  ImGui::TextWrapped("  B: %s", divergence->whatB.value_or("(B ends here)").c_str());
  ImGui::PushID(title);
  if (ImGui::SmallButton("go there in A")) app.seek(trace::cursorAfterEvent(divergence->eventA));
  ImGui::PopID();
}

}  // namespace

void drawComparePanel(App& app) {
  ComparedTrace* compared = app.compared();
  if (!compared) return;
  const PanelWindow panel(app, "Compare", {360, 420, 560, 360}, {nullptr, true});
  if (!panel.showsTrace()) return;
  if (!compared->error.empty()) {
    ImGui::TextWrapped("cannot compare: %s", compared->error.c_str());
    return;
  }
  const trace::TraceComparison& comparison = compared->comparison;
  const LoadedTrace& stepped = *app.trace();
  ImGui::Text("A (stepped): %s - %s", stepped.path.c_str(),
              trace::searchName(stepped.reader->header()).c_str());
  ImGui::Text("B (shown):   %s - %s", compared->path.c_str(),
              trace::searchName(compared->reader->header()).c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("step B instead")) {
    app.swapCompared();
    return;
  }
  const int current = rootIterationAt(app.replay(), comparison.statsA);
  if (ImGui::BeginTable("iterations", 11,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("d");
    for (const char* side : {"A", "B"})
      for (const char* column : {"nodes", "calls", "branch", "best", "score"})
        ImGui::TableSetupColumn((std::string(side) + " " + column).c_str());
    ImGui::TableHeadersRow();
    int last = 0;
    for (const auto* stats : {&comparison.statsA, &comparison.statsB})
      for (const trace::IterationStats& iteration : stats->iterations) last = std::max(last, iteration.draft);
    for (int draft = 1; draft <= last; ++draft) {
      const trace::IterationStats* a = iterationOf(comparison.statsA, draft);
      const trace::IterationStats* b = iterationOf(comparison.statsB, draft);
      if (!a && !b) continue;
      ImGui::TableNextRow();
      if (draft == current) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, colours::kCompareRow);
      ImGui::TableNextColumn();
      ImGui::Text("%d", draft);
      iterationRow(a);
      iterationRow(b);
    }
    ImGui::EndTable();
  }
  divergenceText("first difference", comparison.firstEvent, app);
  divergenceText("first different move", comparison.firstMove, app);
  ImGui::Separator();
  if (current == 0) {
    ImGui::TextDisabled("step into a root iteration to see both trees at the root");
    return;
  }
  ImGui::Text("root iteration %d: the root's replies in the order searched", current);
  const trace::CallTree* treeA = stepped.readyTree();
  if (ImGui::BeginTable("trees", 2, ImGuiTableFlags_SizingStretchSame)) {
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("A");
    if (treeA)
      repliesTable("treeA", rootReplies(*treeA, current));
    else
      ImGui::TextDisabled("(the call tree is being built)");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("B");
    repliesTable("treeB", rootReplies(*compared->tree, current));
    ImGui::EndTable();
  }
}

}  // namespace umax::viz
