// Finding a line of moves in the call tree: a depth-first walk that only
// enters children whose move is the next of the line. Children are visited
// in call order, so the first complete match is the first call of the line.
#include "umax/trace/line_search.h"

namespace umax::trace {

namespace {

std::optional<uint32_t> follow(const CallTree& tree, uint32_t node,
                               const std::vector<std::pair<int, int>>& moves, std::size_t matched) {
  if (matched == moves.size()) return node;
  const auto& nodes = tree.nodes();
  for (uint32_t child = nodes[node].firstChild; child != 0; child = nodes[child].nextSibling) {
    const TreeNode& next = nodes[child];
    if ((next.flags & kTreeMateProbe) || next.from != moves[matched].first ||
        next.to != moves[matched].second)
      continue;
    if (auto found = follow(tree, child, moves, matched + 1)) return found;
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint32_t> findLine(const CallTree& tree, const std::vector<std::pair<int, int>>& moves) {
  if (tree.nodes().empty()) return std::nullopt;
  return follow(tree, 0, moves, 0);
}

}  // namespace umax::trace
