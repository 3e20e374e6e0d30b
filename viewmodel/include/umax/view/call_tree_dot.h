/// \file call_tree_dot.h
/// \brief One root iteration's call tree drawn for a learner as a Graphviz picture (`umax-trace dot`).
#pragma once

#include <cstdint>
#include <ostream>

#include "umax/trace/reader.h"

namespace umax::trace {

/// Which part of the tree `writeDot` draws.
struct DotOptions {
  int maxPly = 3;          ///< calls deeper than this are left out (root = ply 0)
  int iteration = 0;       ///< only the calls made during this root iteration (0 = the last one)
  int children = 3;        ///< drawn at each call of the principal variation (0: all, everywhere)
  uint64_t maxNodes = 60;  ///< stop adding calls after this many (the graph says so)
};

/// One root iteration's call tree as a Graphviz digraph, root at the top: a box per call with its
/// move, window, score, completed draft and calls below; cutoffs and hash hits marked. The best
/// `children` moves of each call of the principal variation are drawn, the best reply elsewhere;
/// each call's other moves fold into one "+N more moves" box.
void writeDot(const TraceReader& reader, const DotOptions& options, std::ostream& out);

}  // namespace umax::trace
