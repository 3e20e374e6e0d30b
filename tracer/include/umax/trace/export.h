/// \file export.h
/// \brief A trace written out for other tools: Graphviz DOT, JSON lines, Chrome trace events.
#pragma once

#include <cstdint>
#include <ostream>

#include "umax/trace/reader.h"

namespace umax::trace {

/// Which part of the tree `writeDot` draws.
struct DotOptions {
  int maxPly = 3;            ///< calls deeper than this are left out (root = ply 0)
  int iteration = 0;         ///< only the calls made during this root iteration (0 = the last one)
  uint64_t maxNodes = 5000;  ///< stop adding calls after this many (the graph says so)
};

/// The call tree as a Graphviz digraph: one box per call with the move that
/// led to it, its window, its score and draft; cutoffs and hash hits marked.
void writeDot(const TraceReader& reader, const DotOptions& options, std::ostream& out);

/// One JSON object per line per event: {"i":index,"kind":...,"ply":...,
/// "site":..., and the event's fields}.
void writeJsonLines(const TraceReader& reader, std::ostream& out);

/// Chrome trace-event JSON (opens in Perfetto and chrome://tracing): every
/// call a nested slice on one track, timed by event index (1 event = 1 us).
void writeChromeTrace(const TraceReader& reader, std::ostream& out);

}  // namespace umax::trace
