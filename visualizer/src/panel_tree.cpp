// Search tree panel: every call of the search as a collapsible tree, with
// the path of open calls highlighted. The root's replies are grouped under a
// row per iteration of the root (iterative deepening: the same moves searched
// again, one draft deeper each time). Only expanded nodes are listed and
// only the rows on screen are drawn (ImGuiListClipper), so a tree of
// millions of calls stays fluid.
#include <imgui.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "colours.h"
#include "panels.h"
#include "umax/types.h"
#include "umax/view/navigator.h"

namespace umax::viz {

namespace {

/// A row that is not a call: the note under a cut-off call's children (the call's index | kCutNote).
constexpr uint32_t kCutNote = 0x80000000u;
/// A row that is not a call: the root's iteration group number g (kGroup | g).
constexpr uint32_t kGroup = 0x40000000u;
constexpr uint32_t kRowKind = kCutNote | kGroup;

/// Left indent of a call's row: by its ply, and one step more below the root, whose replies sit
/// under their iteration's row.
float indentOf(int ply) { return 10.0f * float(ply) + (ply > 0 ? 10.0f : 0.0f); }

struct TreeView {
  const trace::CallTree* tree = nullptr;
  uint64_t traceGeneration = UINT64_MAX;
  // What the user expanded (true) or collapsed: calls by number, iteration groups by kGroup | draft
  // (their row numbers change when the timeline index adds groups).
  std::unordered_map<uint32_t, bool> chosen;
  std::unordered_set<uint32_t> onPath;  // the open calls at the cursor
  std::vector<uint32_t> path;
  std::vector<uint32_t> rows;                 // visible nodes, in tree order (kCutNote: see below)
  std::unordered_map<uint32_t, int> evals;    // e of the rows drawn so far (the tree does not keep it)
  std::vector<trace::IterationGroup> groups;  // the root's replies by iteration
  bool groupsTimed = false;                   // groups made with the timeline index (empty ones too)
  std::optional<std::size_t> current;         // the group of the root's iteration at the cursor
  uint64_t cursorAt = 0;                      // the cursor the path was taken at
  bool dirty = true;
  bool follow = true;
  uint64_t generation = UINT64_MAX;

  bool expanded(uint32_t node) const {
    if (const auto choice = chosen.find(node); choice != chosen.end()) return choice->second;
    return follow && onPath.count(node);
  }
  bool hasChildren(uint32_t node) const { return tree->nodes()[node].firstChild != 0; }

  /// Iteration groups are open when the user opened them, or (following the cursor) when the
  /// path of open calls runs through them or, with only the root open, the root is in that
  /// iteration; draft is their key (numbers of rows change).
  bool groupExpanded(const trace::IterationGroup& group) const {
    if (const auto choice = chosen.find(kGroup | static_cast<uint32_t>(group.draft)); choice != chosen.end())
      return choice->second;
    if (!follow) return false;
    if (path.size() >= 2) return tree->nodes()[path[1]].iteration == group.draft;
    return current && groups[*current].draft == group.draft;
  }

  /// The row the tree keeps in view: the current call; with only the root open, the last reply
  /// called in the root's current iteration (or that iteration's row).
  uint32_t focusRow() const {
    if (path.size() != 1 || !current) return path.empty() ? 0 : path.back();
    const trace::IterationGroup& group = groups[*current];
    uint32_t row = kGroup | static_cast<uint32_t>(*current);
    for (uint32_t call : group.calls)
      if (tree->nodes()[call].callEvent < cursorAt) row = call;
    return row;
  }

  /// Groups the root's replies by iteration; again once the timeline index is ready (it adds the
  /// iterations that searched no reply). True if the groups changed.
  bool regroup(const trace::TimelineIndex* timeline) {
    if (!groups.empty() && (groupsTimed || !timeline)) return false;
    groups = trace::iterationGroups(*tree, timeline);
    groupsTimed = timeline != nullptr;
    current = trace::iterationAt(groups, cursorAt);
    dirty = true;
    return true;
  }

  void rebuild() {
    rows.clear();
    const auto& nodes = tree->nodes();
    if (nodes.empty()) return;
    // Depth-first over expanded nodes; the stack holds the next sibling to visit.
    std::vector<uint32_t> pending{0};
    while (!pending.empty()) {
      const uint32_t node = pending.back();
      pending.pop_back();
      rows.push_back(node);
      if (node & kCutNote) continue;
      if (node & kGroup) {
        const trace::IterationGroup& group = groups[node & ~kRowKind];
        if (groupExpanded(group)) pending.insert(pending.end(), group.calls.rbegin(), group.calls.rend());
        continue;
      }
      if (!expanded(node)) continue;
      if (node == 0 && !groups.empty()) {
        // The root: its replies come under their iteration's row.
        if (nodes[0].flags & trace::kTreeCutoff) pending.push_back(kCutNote);
        for (std::size_t g = groups.size(); g-- > 0;) pending.push_back(kGroup | static_cast<uint32_t>(g));
        continue;
      }
      std::vector<uint32_t> children;
      for (uint32_t child = nodes[node].firstChild; child != 0; child = nodes[child].nextSibling)
        children.push_back(child);
      // After the children of a call that failed high: a greyed row for the moves it never tried.
      if (nodes[node].flags & trace::kTreeCutoff) pending.push_back(node | kCutNote);
      pending.insert(pending.end(), children.rbegin(), children.rend());
    }
    dirty = false;
  }

  /// Starts afresh on a new tree (another trace opened).
  void show(const trace::CallTree* newTree, uint64_t newTraceGeneration) {
    if (tree == newTree && traceGeneration == newTraceGeneration) return;
    *this = TreeView{};
    tree = newTree;
    traceGeneration = newTraceGeneration;
  }

  /// Takes the path of open calls at the cursor if the cursor (or the follow switch) changed
  /// since the last frame; true if it did.
  bool followCursor(App& app) {
    if (generation == app.cursorGeneration && follow == app.followCursor) return false;
    generation = app.cursorGeneration;
    follow = app.followCursor;
    cursorAt = app.cursor();
    if (const auto now = trace::iterationAt(groups, cursorAt); now != current) {
      current = now;
      dirty = true;
    }
    const std::vector<uint32_t>& now = app.currentPath();
    if (now != path) {
      path = now;
      onPath = std::unordered_set<uint32_t>(path.begin(), path.end());
      dirty = true;
    }
    return true;
  }

  /// Expands a collapsed call or iteration group, or collapses an expanded one.
  void toggle(uint32_t row) {
    if (row & kGroup) {
      const trace::IterationGroup& group = groups[row & ~kRowKind];
      const bool open = groupExpanded(group);
      chosen[kGroup | static_cast<uint32_t>(group.draft)] = !open;
    } else {
      const bool open = expanded(row);
      chosen[row] = !open;
    }
    dirty = true;
  }

  /// The eval e the call was given (read from its kCall event once, then kept).
  int evalOf(App& app, uint32_t node) {
    auto eval = evals.find(node);
    if (eval == evals.end()) {
      if (evals.size() > 100000) evals.clear();
      eval = evals.emplace(node, app.replay().eventAt(tree->nodes()[node].callEvent).call.eval).first;
    }
    return eval->second;
  }
};

/// What a click in the rows asks for, done once they are drawn: a call's children shown or
/// hidden, or the cursor moved to just after a call's kCall.
struct RowClick {
  uint32_t toggle = UINT32_MAX;
  uint64_t jump = UINT64_MAX;
};

/// A score as the panels write it (+I for micro-Max's infinity), with its sign: "+61", "-I".
std::string signedScore(int score) {
  const std::string name = trace::scoreName(score);
  return score > 0 && name[0] != '+' ? "+" + name : name;
}

/// A row in words: "e7e5 -> +61 CUT d1 [-I-1, 1] e=59 n=1 cutoff": the move, what it returned
/// (once it has returned at the cursor; "-> ..." while it is open: score, node type, draft
/// completed), then the window [q, l] it was called with, its eval e and depth n, and its marks.
/// The outcome and the window come first so that the default panel width shows them.
std::string label(const trace::TreeNode& node, uint32_t index, uint64_t cursor, int eval) {
  std::string text = index == 0                             ? "root"
                     : (node.flags & trace::kTreeMateProbe) ? "null move (mate probe)"
                                                            : moveName(node.from, node.to);
  char buffer[160];
  if (node.returnEvent < cursor) {
    // PV / CUT / ALL: the score against the call's own window (trace::nodeType).
    std::snprintf(buffer, sizeof buffer, " -> %s %s d%d", signedScore(node.score).c_str(),
                  trace::nodeType(node.alpha, node.beta, node.score), node.completedDraft());
    text += buffer;
  } else if (node.callEvent < cursor) {
    text += " -> ...";
  }
  std::snprintf(buffer, sizeof buffer, " [%s, %s] e=%d n=%d", trace::scoreName(node.alpha).c_str(),
                trace::scoreName(node.beta).c_str(), eval, node.depth);
  text += buffer;
  if (node.flags & trace::kTreeCutoff) text += " cutoff";
  if (node.flags & trace::kTreeHashCut)
    text += " from hash";
  else if (node.flags & trace::kTreeHashHit)
    text += " hash hit";
  if (node.flags & trace::kTreeBestFirst) text += " best first";
  return text;
}

void rowTooltip(const trace::TreeNode& node, uint32_t index) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(tooltipWrap(34));
  ImGui::Text("call #%u: kCall at event %llu, kReturn at event %llu; ply %d, in the root's iteration %d",
              index, static_cast<unsigned long long>(node.callEvent),
              static_cast<unsigned long long>(node.returnEvent), node.ply, node.iteration);
  ImGui::TextDisabled(
      "-> the score it returned, its type, dN: the draft it completed; [q, l]: the window (alpha, "
      "beta) it was called with; e: the evaluation handed down; n: the depth asked for. I is "
      "micro-Max's infinity, 80000: -I-1 is -80001.");
  if (node.flags & trace::kTreeHashCut)
    ImGui::Text("draft %d: the draft of the hash entry that answered this call (its d on return)",
                node.completedDraft());
  else
    ImGui::Text(
        "draft %d: the last iteration this call completed, the D it stored in the hash table. The "
        "search's loop counter d ends one higher (d = %d on return): the test that ends the "
        "deepening loop, while (d++ < n ...), increments it once more.",
        node.completedDraft(), node.draft);
  ImGui::TextDisabled(
      "PV / CUT / ALL, once it returned: its score inside its window (PV), >= beta (CUT: a move refuted "
      "the move that led here; its other moves were not tried, the greyed row under its children), <= alpha "
      "(ALL: every move was tried, none reached alpha).");
  ImGui::TextDisabled(
      "cutoff: its last iteration failed high. from hash: answered by the hash table, not searched. "
      "hash hit: its probe found the position. best first: the previous iteration's best move, tried first.");
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

/// Scrolls the rows so that the current call (the last on the path; see TreeView::focusRow) is in view.
void scrollToCurrentCall(const TreeView& view, float lineHeight) {
  if (view.path.empty()) return;
  auto it = std::find(view.rows.begin(), view.rows.end(), view.focusRow());
  if (it == view.rows.end()) return;
  const float y = float(it - view.rows.begin()) * lineHeight;
  if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + ImGui::GetWindowHeight() - 2 * lineHeight)
    ImGui::SetScrollY(std::max(0.0f, y - ImGui::GetWindowHeight() / 3));
}

/// The greyed row under a cut-off call's children: the moves it never tried.
void drawCutNote(const trace::TreeNode& cut) {
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + indentOf(cut.ply + 1) + ImGui::GetFontSize());
  ImVec4 grey = colours::kRowText;
  grey.w = colours::kRowNotReachedAlpha;
  ImGui::TextColored(grey, "...its other moves: not tried (cut off at %s >= beta %s)",
                     signedScore(cut.score).c_str(), trace::scoreName(cut.beta).c_str());
}

/// A row's text colour: green if the hash table answered the call, red if it cut off, dim
/// while the cursor has not reached it.
ImVec4 rowColour(const trace::TreeNode& node, uint64_t cursor) {
  ImVec4 colour = colours::kRowText;
  if (node.flags & trace::kTreeHashCut)
    colour = colours::kRowHashCut;
  else if (node.flags & trace::kTreeCutoff)
    colour = colours::kRowCutoff;
  if (node.callEvent >= cursor) colour.w = colours::kRowNotReachedAlpha;
  return colour;
}

/// The arrow that shows or hides a row's children (a blank as wide when it has none), then the
/// row's label on the same line; true when the arrow was clicked.
bool expandArrow(const char* id, bool hasChildren, bool expanded) {
  bool clicked = false;
  if (hasChildren) {
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0, 0));
    clicked = ImGui::ArrowButton(id, expanded ? ImGuiDir_Down : ImGuiDir_Right);
    ImGui::PopStyleVar();
  } else {
    ImGui::Dummy(ImVec2(ImGui::GetFontSize(), 1));
  }
  ImGui::SameLine();
  return clicked;
}

/// A row's label: a double click shows or hides its children (if it has any), a click moves the
/// cursor to `jump`.
void rowLabel(const std::string& label, bool selected, bool hasChildren, uint32_t row, uint64_t jump,
              RowClick& click) {
  if (!ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) return;
  if (ImGui::IsMouseDoubleClicked(0) && hasChildren)
    click.toggle = row;
  else
    click.jump = jump;
}

/// One call's row: indented by its ply, an arrow to expand it if it has children, its label
/// (highlighted on the path of open calls) and the label's tooltip.
void drawCallRow(App& app, TreeView& view, uint32_t index, uint64_t cursor, RowClick& click) {
  const trace::TreeNode& node = view.tree->nodes()[index];
  ImGui::PushID(static_cast<int>(index));
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + indentOf(node.ply));
  if (expandArrow("##x", view.hasChildren(index), view.expanded(index))) click.toggle = index;
  ImGui::PushStyleColor(ImGuiCol_Text, rowColour(node, cursor));
  const bool onPath = view.onPath.count(index) != 0;
  if (onPath)
    ImGui::PushStyleColor(ImGuiCol_Header,
                          index == view.path.back() ? colours::kRowCurrent : colours::kRowOpen);
  rowLabel(label(node, index, cursor, view.evalOf(app, index)), onPath, view.hasChildren(index), index,
           node.callEvent + 1, click);
  if (onPath) ImGui::PopStyleColor();
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) rowTooltip(node, index);
  ImGui::PopID();
}

/// An iteration group's row under the root: an arrow to show or hide its replies, its label
/// (dim until the cursor reaches the iteration) and a tooltip; a click jumps to the iteration's
/// start.
void drawGroupRow(TreeView& view, uint32_t row, uint64_t cursor, RowClick& click) {
  const trace::IterationGroup& group = view.groups[row & ~kRowKind];
  ImGui::PushID(static_cast<int>(row));
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 10.0f);
  if (expandArrow("##g", !group.calls.empty(), view.groupExpanded(group))) click.toggle = row;
  ImVec4 colour = colours::kIterationRow;
  if (group.startEvent >= cursor) colour.w = colours::kRowNotReachedAlpha;
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  rowLabel(trace::iterationGroupLabel(*view.tree, group), false, !group.calls.empty(), row,
           group.startEvent + 1, click);
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(tooltipWrap(34));
    ImGui::Text("The root's iteration %d (draft d = %d), from event %llu.", group.draft, group.draft,
                static_cast<unsigned long long>(group.startEvent));
    ImGui::TextDisabled(
        "Iterative deepening: the root searches its moves to draft 1, then all again to draft 2, and so "
        "on, each iteration starting with the best move of the one before. The replies below are this "
        "iteration's; calls counts them and every call below them. Click: jump to the iteration's start; "
        "the arrow or a double click shows or hides its replies.");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

/// The rows on screen (ImGuiListClipper): calls, iteration groups and cut notes.
RowClick drawRows(App& app, TreeView& view, float lineHeight) {
  const uint64_t cursor = app.cursor();
  RowClick click;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(view.rows.size()), lineHeight);
  while (clipper.Step())
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const uint32_t index = view.rows[static_cast<std::size_t>(row)];
      if (index & kCutNote)
        drawCutNote(view.tree->nodes()[index & ~kCutNote]);
      else if (index & kGroup)
        drawGroupRow(view, index, cursor, click);
      else
        drawCallRow(app, view, index, cursor, click);
    }
  clipper.End();
  return click;
}

}  // namespace

void drawTreePanel(App& app) {
  static TreeView view;
  const PanelWindow panel(app, "Search tree", {940, 19, 340, 310});
  if (!panel.showsTrace()) return;
  const trace::CallTree* tree = app.trace()->readyTree();
  if (!tree) {
    ImGui::TextUnformatted("Building the call tree (one pass over the events)...");
    ImGui::ProgressBar(static_cast<float>(app.trace()->treeBuild.progress.load()));
    return;
  }
  view.show(tree, app.traceGeneration);
  view.regroup(app.trace()->readyTimeline());
  const bool moved = view.followCursor(app);
  if (view.dirty) view.rebuild();

  ImGui::TextDisabled("%zu calls; click a row to jump there", tree->nodes().size());
  ImGui::BeginChild("rows", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float lineHeight = ImGui::GetTextLineHeightWithSpacing();
  if (moved && app.followCursor) scrollToCurrentCall(view, lineHeight);
  const RowClick click = drawRows(app, view, lineHeight);
  ImGui::EndChild();
  if (click.toggle != UINT32_MAX) view.toggle(click.toggle);
  if (click.jump != UINT64_MAX) app.seek(click.jump);
}

}  // namespace umax::viz
