// call_tree_dot.cpp - one root iteration's call tree (the CallTree) drawn for a learner: the root at
// the top, the principal variation and the best few moves at each of its calls, the rest of each
// call's moves folded into one "+N more" box.
#include "umax/view/call_tree_dot.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "umax/notation.h"
#include "umax/trace/state.h"
#include "umax/view/call_tree.h"

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

/// One pass with the search state (which checks the trace): the root's iterations and its stores.
std::vector<RootIteration> rootIterations(const TraceReader& reader) {
  std::vector<RootIteration> iterations;
  SearchState state(reader.header());
  reader.forEach([&](const Event& event, uint64_t) {
    const bool atRoot = state.stack().size() == 1;
    state.apply(event);
    if (atRoot && event.kind == EventKind::kIteration) iterations.push_back({event.value});
    if (!atRoot || event.kind != EventKind::kStore || iterations.empty()) return;
    const Frame& root = state.stack().front();
    iterations.back() = {iterations.back().draft, root.draft, root.best, root.bestFrom, root.bestTo, true};
  });
  return iterations;
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

/// Draws one iteration of a call tree into `text`.
struct DotDrawing {
  const TraceReader& reader;
  const std::vector<TreeNode>& nodes;
  const DotOptions& options;
  const RootIteration& iteration;
  std::size_t iterationCount;
  std::string text;
  uint64_t drawn = 0;     // call boxes drawn
  uint64_t notDrawn = 0;  // calls that would be drawn but for --max-nodes

  bool finished(uint32_t index) const { return nodes[index].returnEvent < reader.eventCount(); }

  /// The calls below `parent` that belong to the drawing, in call order.
  std::vector<uint32_t> childrenOf(uint32_t parent) const {
    std::vector<uint32_t> children;
    for (uint32_t child = nodes[parent].firstChild; child != 0; child = nodes[child].nextSibling) {
      if (parent == 0 && nodes[child].iteration != iteration.draft) continue;
      if (nodes[child].ply > options.maxPly) break;
      children.push_back(child);
    }
    return children;
  }

  /// `children` best first for the parent: the lowest score the reply returned is the parent's
  /// best move. Last come the calls cut off by the trace's end and a move met again in the same
  /// scan (the sneaked-in move, met again in board order and answered from the table).
  std::vector<uint32_t> bestFirst(const std::vector<uint32_t>& children) const {
    std::vector<uint32_t> order, later;
    for (auto at = children.begin(); at != children.end(); ++at) {
      const bool repeat = std::any_of(children.begin(), at, [&](uint32_t other) {
        return nodes[other].from == nodes[*at].from && nodes[other].to == nodes[*at].to;
      });
      (repeat || !finished(*at) ? later : order).push_back(*at);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return nodes[a].score < nodes[b].score; });
    order.insert(order.end(), later.begin(), later.end());
    return order;
  }

  /// Calls in the subtree of `index` (itself excluded); the root's in this iteration only.
  uint64_t callsBelow(uint32_t index) const {
    if (index == 0) {
      uint64_t calls = 0;
      for (const uint32_t child : childrenOf(0)) calls += 1 + callsBelow(child);
      return calls;
    }
    const auto end =
        std::lower_bound(nodes.begin() + index + 1, nodes.end(), nodes[index].returnEvent,
                         [](const TreeNode& other, uint64_t value) { return other.callEvent < value; });
    return static_cast<uint64_t>(end - (nodes.begin() + index + 1));
  }

  std::string label(uint32_t index) const {
    const TreeNode& node = nodes[index];
    std::string text;
    if (index == 0)
      text = std::string("root: ") + (reader.header().root.side == kWhite ? "white" : "black") + " to move";
    else
      text = (node.flags & kTreeMateProbe) ? std::string("null move") : moveName(node.from, node.to);
    text += "\nwindow [" + std::to_string(node.alpha) + ", " + std::to_string(node.beta) + "]";
    if (index == 0 && iteration.finished)
      text += "\nscore " + std::to_string(iteration.score) + "  draft " + std::to_string(iteration.stored);
    else if (index != 0 && !finished(index))
      text += "\nno return (trace cut)";
    else if (index != 0)
      text += "\nscore " + std::to_string(node.score) + "  draft " + std::to_string(node.completedDraft());
    text += (node.flags & kTreeHashCut) ? "\nfrom the hash table"
                                        : "\n" + withCommas(callsBelow(index)) + " calls below";
    if ((node.flags & kTreeCutoff) && index != 0) text += "\nbeta cutoff";
    return text;
  }

  /// A call's box: its label (with `note`) and the marks of its flags.
  void box(uint32_t index, const std::string& note) {
    const TreeNode& node = nodes[index];
    text += "  n" + std::to_string(index) + " [label=\"" + dotEscape(label(index) + note) + "\"";
    if (index == 0) text += ", penwidth=2, fillcolor=\"#eeeeee\"";
    if (node.flags & kTreeHashCut)
      text += ", fillcolor=\"#ffd866\", style=\"rounded,filled,dashed\"";
    else if (node.flags & kTreeHashHit)
      text += ", fillcolor=\"#bcd8ff\"";
    if ((node.flags & kTreeCutoff) && index != 0) text += ", color=\"#d11f1f\", penwidth=2.5";
    if (!finished(index)) text += ", fontcolor=\"#888888\"";
    text += "];\n";
  }

  void writeHead() {
    const TraceHeader& header = reader.header();
    text +=
        "// micro-Max call tree, drawn by umax-trace dot. Render: dot -Tsvg tree.dot -o tree.svg\n"
        "digraph search {\n"
        "  graph [rankdir=TB, ordering=out, fontname=\"Helvetica\", fontsize=12, labelloc=t, nodesep=0.15, "
        "ranksep=0.35];\n"
        "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", "
        "fontsize=10];\n"
        "  edge [arrowsize=0.6, color=\"#555555\"];\n";
    std::string title =
        "micro-Max search of " + (header.fen.empty() ? std::string("the start position") : header.fen);
    if (!header.moves.empty()) title += " after " + header.moves;
    title += "\nroot iteration " + std::to_string(iteration.draft) + " of " + std::to_string(iterationCount);
    if (!iteration.finished)
      title += " (not finished in this trace)";
    else if (iteration.from != bestMoveSquare(iteration.to))
      title += ": best move " + bestMoveName(iteration.from, iteration.to);
    title += "\nplies 0 to " + std::to_string(options.maxPly) + ", moves left to right in the order searched";
    if (options.children > 0)
      title += "\nthe best " + std::to_string(options.children) +
               " moves along the principal variation, the best reply elsewhere";
    if (reader.truncated()) title += "\nthe trace file is truncated: calls without a return are marked";
    text += "  label=\"" + dotEscape(title) + "\";\n";
  }

  // Breadth first from the root, so that a cut by --max-nodes keeps the shallow plies whole.
  void walk() {
    box(0, "");
    drawn = 1;
    std::deque<std::pair<uint32_t, bool>> queue{{0, true}};  // (call, on the principal variation)
    for (; !queue.empty(); queue.pop_front()) {
      const auto [parent, onLine] = queue.front();
      const std::vector<uint32_t> ranked = bestFirst(childrenOf(parent));
      // Drawn: the option's count on the principal variation, the best one elsewhere, all with 0.
      const std::size_t shown = options.children == 0
                                    ? ranked.size()
                                    : std::min<std::size_t>(ranked.size(), onLine ? options.children : 1);
      std::vector<uint32_t> kept(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(shown));
      std::sort(kept.begin(), kept.end());  // back to call order: left to right as searched
      std::vector<uint32_t> folded = ranked;
      std::size_t drawnHere = 0;
      for (const uint32_t child : kept) {
        if (drawn >= options.maxNodes) {
          ++notDrawn;
          continue;
        }
        const bool childOnLine = onLine && child == ranked.front();
        drawCall(parent, child, childOnLine);
        std::erase(folded, child);
        ++drawnHere;
        queue.emplace_back(child, childOnLine);
      }
      // The moves left out: a box of their own on the principal variation (and wherever
      // --max-nodes cut); elsewhere the call's label counts them.
      if (onLine || drawnHere < shown) drawFold(parent, folded);
    }
  }

  void drawCall(uint32_t parent, uint32_t child, bool onLine) {
    ++drawn;
    const std::size_t moves = childrenOf(child).size();
    const bool folds = !onLine && options.children > 0 && nodes[child].ply < options.maxPly && moves >= 2;
    box(child, folds ? "\nthe best of its " + std::to_string(moves) + " moves drawn" : "");
    text += "  n" + std::to_string(parent) + " -> n" + std::to_string(child);
    if (nodes[child].flags & kTreeBestFirst)
      text += " [color=\"#1a7f37\", penwidth=3]";
    else if (nodes[child].flags & kTreeMateProbe)
      text += " [style=dashed]";
    text += ";\n";
  }

  // One box for the calls of `parent` not drawn (best first), naming the best of them.
  void drawFold(uint32_t parent, const std::vector<uint32_t>& folded) {
    if (folded.empty()) return;
    const TreeNode& best = nodes[folded.front()];
    std::string label =
        "+" + std::to_string(folded.size()) + (folded.size() == 1 ? " more move" : " more moves");
    if (finished(folded.front()) && !(best.flags & kTreeMateProbe))
      label += "\nbest: " + moveName(best.from, best.to) + ", score " + std::to_string(best.score);
    const std::string name = "more" + std::to_string(parent);
    text += "  " + name + " [label=\"" + dotEscape(label) +
            "\", shape=box, style=\"rounded,dashed\", color=\"#999999\", fontcolor=\"#555555\"];\n";
    text += "  n" + std::to_string(parent) + " -> " + name + " [style=dotted, color=\"#999999\"];\n";
  }

  void note(std::string_view name, const std::string& label) {
    text += "  " + std::string(name) + " [shape=note, style=filled, fillcolor=\"#fff3c4\", label=\"" +
            dotEscape(label) + "\"];\n";
  }

  // The notes, then the legend: one sample of each mark, in a box beside the root.
  void writeTail() {
    if (drawn == 1 && childrenOf(0).empty())
      note("empty",
           "The root made no calls in iteration " + std::to_string(iteration.draft) + "." +
               (iteration.draft == 1
                    ? "\nAt draft 1 only a recapture on the square\njust moved to is searched further."
                    : ""));
    if (notDrawn > 0)
      note("truncated", "Drawing stopped at " + std::to_string(drawn) + " calls; " +
                            std::to_string(notDrawn) +
                            " more would be drawn\n(folded into the +N boxes). Raise --max-nodes.");
    text +=
        "  legend [shape=none, margin=0, fontsize=9, label=<<table border=\"1\" cellborder=\"0\" "
        "cellspacing=\"2\" cellpadding=\"3\" color=\"#999999\">"
        "<tr><td><b>legend</b></td></tr>"
        "<tr><td align=\"left\">move (root: side to move)<br align=\"left\"/>window [q, l] it was given<br "
        "align=\"left\"/>score it returned, for the side to move there<br align=\"left\"/>draft: the depth "
        "it completed (the D it stored)<br align=\"left\"/>calls below it<br align=\"left\"/></td></tr>"
        "<tr><td border=\"1\" color=\"#d11f1f\" align=\"left\">red frame: beta cutoff, a move scored &gt;= "
        "l</td></tr>"
        "<tr><td bgcolor=\"#bcd8ff\" align=\"left\">blue: hash hit, the stored best move tried "
        "first</td></tr>"
        "<tr><td bgcolor=\"#ffd866\" align=\"left\">yellow: answered from the hash table</td></tr>"
        "<tr><td align=\"left\"><font color=\"#1a7f37\">green edge</font>: last iteration's best move, tried "
        "first</td></tr>"
        "<tr><td align=\"left\">dashed edge: the null move of the mate / stalemate test</td></tr>"
        "<tr><td align=\"left\">dotted box: moves searched but not drawn</td></tr>"
        "</table>>];\n"
        "  { rank=same; n0; legend; }\n"
        "}\n";
  }
};

}  // namespace

void writeDot(const TraceReader& reader, const DotOptions& options, std::ostream& out) {
  const std::vector<RootIteration> iterations = rootIterations(reader);
  const CallTree tree(reader);
  if (tree.nodes().empty()) throw std::runtime_error("the trace holds no call of the search");
  if (iterations.empty())
    throw std::runtime_error("the root never started an iteration (the trace is cut too early)");
  const int draft = options.iteration == 0 ? iterations.back().draft : options.iteration;
  const auto chosen = std::find_if(iterations.begin(), iterations.end(),
                                   [&](const RootIteration& iteration) { return iteration.draft == draft; });
  if (chosen == iterations.end())
    throw std::runtime_error("the root has no iteration " + std::to_string(draft) +
                             " (it searched iterations " + std::to_string(iterations.front().draft) + " to " +
                             std::to_string(iterations.back().draft) + ")");
  DotDrawing drawing{reader, tree.nodes(), options, *chosen, iterations.size(), {}};
  drawing.writeHead();
  drawing.walk();
  drawing.writeTail();
  out.write(drawing.text.data(), static_cast<std::streamsize>(drawing.text.size()));
  if (!out) throw std::runtime_error("cannot write the output");
}

}  // namespace umax::trace
