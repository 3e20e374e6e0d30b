// export_dot.cpp - one root iteration's call tree as a Graphviz picture a
// learner can take in: the root at the top, the principal variation and the
// best few moves at each of its calls drawn, the rest of each call's moves
// folded into one "+N more" box.
//
// Holds the call tree (about 40 bytes per call); writes only what it draws.
#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "umax/notation.h"
#include "umax/trace/export.h"
#include "umax/trace/replay.h"
#include "umax/trace/state.h"

namespace umax::trace {
namespace {

/// What the root did in one iteration, as its hash store at the end of it says.
struct RootIteration {
  int draft = 0;   ///< the iteration
  int stored = 0;  ///< the draft it stored (99 for a mate score)
  int score = 0;
  int from = 0;
  int to = 0;
  bool finished = false;
};

/// One pass with the search state: the root's iterations with the score,
/// draft and move each stored. Also checks the trace is consistent.
std::vector<RootIteration> rootIterations(const TraceReader& reader) {
  std::vector<RootIteration> iterations;
  SearchState state(reader.header());
  reader.forEach([&](const Event& event, uint64_t) {
    const bool atRoot = state.stack().size() == 1;
    state.apply(event);
    if (!atRoot) return;
    if (event.kind == EventKind::kIteration) {
      iterations.push_back({event.value});
    } else if (event.kind == EventKind::kStore && !iterations.empty()) {
      const Frame& root = state.stack().front();
      iterations.back() = {iterations.back().draft, root.draft, root.best, root.bestFrom, root.bestTo, true};
    }
  });
  return iterations;
}

/// Calls in the subtree of `index` (itself excluded).
uint64_t descendants(const std::vector<TreeNode>& nodes, uint32_t index) {
  const TreeNode& node = nodes[index];
  const auto end =
      std::lower_bound(nodes.begin() + index + 1, nodes.end(), node.returnEvent,
                       [](const TreeNode& other, uint64_t value) { return other.callEvent < value; });
  return static_cast<uint64_t>(end - (nodes.begin() + index + 1));
}

/// A DOT string literal body: quotes and backslashes escaped, newlines as \n.
std::string dotEscape(std::string_view text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '"' || c == '\\') escaped.push_back('\\');
    escaped += c == '\n' ? std::string_view("\\n") : std::string_view(&c, 1);
  }
  return escaped;
}

/// A count with thousands separators: 12,345.
std::string withCommas(uint64_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, ",");
  return digits;
}

/// Draws one iteration of a call tree.
class DotDrawing {
 public:
  DotDrawing(const TraceReader& reader, const CallTree& tree, const DotOptions& options,
             const RootIteration& iteration, int iterationCount)
      : reader_(reader),
        nodes_(tree.nodes()),
        options_(options),
        iteration_(iteration),
        iterationCount_(iterationCount) {}

  std::string draw() {
    writeHead();
    walk();
    writeNotes();
    writeLegend();
    text_ += "}\n";
    return text_;
  }

 private:
  bool finished(uint32_t index) const { return nodes_[index].returnEvent < reader_.eventCount(); }

  /// The calls below `parent` that belong to the drawing, in call order.
  std::vector<uint32_t> childrenOf(uint32_t parent) const {
    std::vector<uint32_t> children;
    for (uint32_t child = nodes_[parent].firstChild; child != 0; child = nodes_[child].nextSibling) {
      if (parent == 0 && nodes_[child].iteration != iteration_.draft) continue;
      if (nodes_[child].ply > options_.maxPly) break;
      children.push_back(child);
    }
    return children;
  }

  /// `children` best first for the parent: the lowest score the reply
  /// returned is the parent's best move. Last come the calls cut off by the
  /// trace's end and a move met again in the same scan (the sneaked-in move,
  /// met again in board order and answered from the table).
  std::vector<uint32_t> bestFirst(const std::vector<uint32_t>& children) const {
    std::vector<uint32_t> order;
    std::vector<uint32_t> later;  // unfinished, or a repeat of an earlier sibling's move
    for (auto at = children.begin(); at != children.end(); ++at) {
      const TreeNode& node = nodes_[*at];
      const bool repeat = std::any_of(children.begin(), at, [&](uint32_t other) {
        return nodes_[other].from == node.from && nodes_[other].to == node.to;
      });
      (repeat || !finished(*at) ? later : order).push_back(*at);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return nodes_[a].score < nodes_[b].score; });
    order.insert(order.end(), later.begin(), later.end());
    return order;
  }

  /// How many children of a call are drawn: the option's count on the
  /// principal variation, the best one elsewhere, all of them with 0.
  std::size_t shownCount(bool onPrincipalVariation) const {
    if (options_.children == 0) return SIZE_MAX;
    return onPrincipalVariation ? static_cast<std::size_t>(options_.children) : 1;
  }

  uint64_t callsBelow(uint32_t index) const {
    if (index != 0) return descendants(nodes_, index);
    uint64_t calls = 0;
    for (const uint32_t child : childrenOf(0)) calls += 1 + descendants(nodes_, child);
    return calls;
  }

  std::string label(uint32_t index) const {
    const TreeNode& node = nodes_[index];
    std::string text;
    if (index == 0)
      text = std::string("root: ") + (reader_.header().root.side == kWhite ? "white" : "black") + " to move";
    else
      text = (node.flags & kTreeMateProbe) ? std::string("null move") : moveName(node.from, node.to);
    text += "\nwindow [" + std::to_string(node.alpha) + ", " + std::to_string(node.beta) + "]";
    if (index == 0) {
      if (iteration_.finished)
        text +=
            "\nscore " + std::to_string(iteration_.score) + "  draft " + std::to_string(iteration_.stored);
    } else if (!finished(index)) {
      text += "\nno return (trace cut)";
    } else {
      text += "\nscore " + std::to_string(node.score) + "  draft " + std::to_string(node.completedDraft());
    }
    text += (node.flags & kTreeHashCut) ? "\nfrom the hash table"
                                        : "\n" + withCommas(callsBelow(index)) + " calls below";
    if ((node.flags & kTreeCutoff) && index != 0) text += "\nbeta cutoff";
    return text;
  }

  std::string style(uint32_t index) const {
    const TreeNode& node = nodes_[index];
    std::string attributes;
    if (index == 0) attributes += ", penwidth=2, fillcolor=\"#eeeeee\"";
    if (node.flags & kTreeHashCut)
      attributes += ", fillcolor=\"#ffd866\", style=\"rounded,filled,dashed\"";
    else if (node.flags & kTreeHashHit)
      attributes += ", fillcolor=\"#bcd8ff\"";
    if ((node.flags & kTreeCutoff) && index != 0) attributes += ", color=\"#d11f1f\", penwidth=2.5";
    if (!finished(index)) attributes += ", fontcolor=\"#888888\"";
    return attributes;
  }

  void writeHead() {
    const TraceHeader& header = reader_.header();
    text_ += "// micro-Max call tree, drawn by umax-trace dot. Render: dot -Tsvg tree.dot -o tree.svg\n";
    text_ += "digraph search {\n";
    text_ +=
        "  graph [rankdir=TB, ordering=out, fontname=\"Helvetica\", fontsize=12, labelloc=t, nodesep=0.15, "
        "ranksep=0.35];\n";
    text_ +=
        "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", "
        "fontsize=10];\n";
    text_ += "  edge [arrowsize=0.6, color=\"#555555\"];\n";
    std::string title =
        "micro-Max search of " + (header.fen.empty() ? std::string("the start position") : header.fen);
    if (!header.moves.empty()) title += " after " + header.moves;
    title +=
        "\nroot iteration " + std::to_string(iteration_.draft) + " of " + std::to_string(iterationCount_);
    if (!iteration_.finished)
      title += " (not finished in this trace)";
    else if (iteration_.from != bestMoveSquare(iteration_.to))
      title += ": best move " + bestMoveName(iteration_.from, iteration_.to);
    title +=
        "\nplies 0 to " + std::to_string(options_.maxPly) + ", moves left to right in the order searched";
    if (options_.children > 0)
      title += "\nthe best " + std::to_string(options_.children) +
               " moves along the principal variation, the best reply elsewhere";
    if (reader_.truncated()) title += "\nthe trace file is truncated: calls without a return are marked";
    text_ += "  label=\"" + dotEscape(title) + "\";\n";
  }

  // Breadth first from the root, so that a cut by --max-nodes keeps the
  // shallow plies whole.
  void walk() {
    text_ += "  n0 [label=\"" + dotEscape(label(0)) + "\"" + style(0) + "];\n";
    drawn_ = 1;
    std::deque<std::pair<uint32_t, bool>> queue;  // (call, on the principal variation)
    queue.emplace_back(0, true);
    while (!queue.empty()) {
      const auto [parent, onLine] = queue.front();
      queue.pop_front();
      const std::vector<uint32_t> ranked = bestFirst(childrenOf(parent));
      const std::size_t shown = std::min(ranked.size(), shownCount(onLine));
      std::vector<uint32_t> kept(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown));
      std::sort(kept.begin(), kept.end());  // back to call order: left to right as searched
      std::vector<uint32_t> drawnHere;
      for (const uint32_t child : kept) {
        if (drawn_ >= options_.maxNodes) {
          ++notDrawn_;
          continue;
        }
        const bool childOnLine = onLine && child == ranked.front();
        drawCall(parent, child, childOnLine);
        drawnHere.push_back(child);
        queue.emplace_back(child, childOnLine);
      }
      // The moves left out: a box of their own on the principal variation
      // (and wherever --max-nodes cut); elsewhere the call's label counts them.
      std::vector<uint32_t> folded;
      for (const uint32_t child : ranked)
        if (std::find(drawnHere.begin(), drawnHere.end(), child) == drawnHere.end()) folded.push_back(child);
      if (onLine || drawnHere.size() < shown) drawFold(parent, folded);
    }
  }

  std::string foldNote(uint32_t index, bool onLine) const {
    if (onLine || options_.children == 0 || nodes_[index].ply >= options_.maxPly) return "";
    const std::size_t moves = childrenOf(index).size();
    if (moves < 2) return "";
    return "\nthe best of its " + std::to_string(moves) + " moves drawn";
  }

  void drawCall(uint32_t parent, uint32_t child, bool onLine) {
    ++drawn_;
    const std::string name = "n" + std::to_string(child);
    text_ += "  " + name + " [label=\"" + dotEscape(label(child) + foldNote(child, onLine)) + "\"" +
             style(child) + "];\n";
    text_ += "  n" + std::to_string(parent) + " -> " + name;
    if (nodes_[child].flags & kTreeBestFirst)
      text_ += " [color=\"#1a7f37\", penwidth=3]";
    else if (nodes_[child].flags & kTreeMateProbe)
      text_ += " [style=dashed]";
    text_ += ";\n";
  }

  // One box for the calls of `parent` not drawn (best first), naming the best of them.
  void drawFold(uint32_t parent, const std::vector<uint32_t>& folded) {
    if (folded.empty()) return;
    const uint32_t best = folded.front();
    std::string text =
        "+" + std::to_string(folded.size()) + (folded.size() == 1 ? " more move" : " more moves");
    if (finished(best) && !(nodes_[best].flags & kTreeMateProbe))
      text += "\nbest: " + moveName(nodes_[best].from, nodes_[best].to) + ", score " +
              std::to_string(nodes_[best].score);
    const std::string name = "more" + std::to_string(parent);
    text_ += "  " + name + " [label=\"" + dotEscape(text) +
             "\", shape=box, style=\"rounded,dashed\", color=\"#999999\", fontcolor=\"#555555\"];\n";
    text_ += "  n" + std::to_string(parent) + " -> " + name + " [style=dotted, color=\"#999999\"];\n";
  }

  void writeNotes() {
    if (drawn_ == 1 && childrenOf(0).empty()) {
      std::string why = "The root made no calls in iteration " + std::to_string(iteration_.draft) + ".";
      if (iteration_.draft == 1)
        why += "\nAt draft 1 only a recapture on the square\njust moved to is searched further.";
      text_ +=
          "  empty [shape=note, style=filled, fillcolor=\"#fff3c4\", label=\"" + dotEscape(why) + "\"];\n";
    }
    if (notDrawn_ > 0)
      text_ +=
          "  truncated [shape=note, style=filled, fillcolor=\"#fff3c4\", label=\"" +
          dotEscape("Drawing stopped at " + std::to_string(drawn_) + " calls; " + std::to_string(notDrawn_) +
                    " more would be drawn\n(folded into the +N boxes). Raise --max-nodes.") +
          "\"];\n";
  }

  // The legend: one sample of each mark, in a box beside the root.
  void writeLegend() {
    text_ +=
        "  legend [shape=none, margin=0, fontsize=9, label=<<table border=\"1\" cellborder=\"0\" "
        "cellspacing=\"2\" cellpadding=\"3\" color=\"#999999\">"
        "<tr><td><b>legend</b></td></tr>"
        "<tr><td align=\"left\">move (root: side to move)<br align=\"left\"/>window [q, l] it was given<br "
        "align=\"left\"/>score it returned, for the side to move there<br align=\"left\"/>draft: the depth "
        "it "
        "completed (the D it stored)<br align=\"left\"/>calls below it<br align=\"left\"/></td></tr>"
        "<tr><td border=\"1\" color=\"#d11f1f\" align=\"left\">red frame: beta cutoff, a move scored &gt;= "
        "l</td></tr>"
        "<tr><td bgcolor=\"#bcd8ff\" align=\"left\">blue: hash hit, the stored best move tried "
        "first</td></tr>"
        "<tr><td bgcolor=\"#ffd866\" align=\"left\">yellow: answered from the hash table</td></tr>"
        "<tr><td align=\"left\"><font color=\"#1a7f37\">green edge</font>: last iteration's best move, tried "
        "first</td></tr>"
        "<tr><td align=\"left\">dashed edge: the null move of the mate / stalemate test</td></tr>"
        "<tr><td align=\"left\">dotted box: moves searched but not drawn</td></tr>"
        "</table>>];\n";
    text_ += "  { rank=same; n0; legend; }\n";
  }

  const TraceReader& reader_;
  const std::vector<TreeNode>& nodes_;
  const DotOptions& options_;
  const RootIteration& iteration_;
  int iterationCount_;
  std::string text_;
  uint64_t drawn_ = 0;     // call boxes drawn
  uint64_t notDrawn_ = 0;  // calls that would be drawn but for --max-nodes
};

}  // namespace

void writeDot(const TraceReader& reader, const DotOptions& options, std::ostream& out) {
  const std::vector<RootIteration> iterations = rootIterations(reader);
  const CallTree tree(reader);
  if (tree.nodes().empty()) throw std::runtime_error("the trace holds no call of the search");
  if (iterations.empty())
    throw std::runtime_error("the root never started an iteration (the trace is cut too early)");
  const int lastDraft = iterations.back().draft;
  const int draft = options.iteration == 0 ? lastDraft : options.iteration;
  const auto chosen = std::find_if(iterations.begin(), iterations.end(),
                                   [&](const RootIteration& iteration) { return iteration.draft == draft; });
  if (chosen == iterations.end())
    throw std::runtime_error("the root has no iteration " + std::to_string(draft) +
                             " (it searched iterations " + std::to_string(iterations.front().draft) + " to " +
                             std::to_string(lastDraft) + ")");
  const std::string text =
      DotDrawing(reader, tree, options, *chosen, static_cast<int>(iterations.size())).draw();
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) throw std::runtime_error("cannot write the output");
}

}  // namespace umax::trace
