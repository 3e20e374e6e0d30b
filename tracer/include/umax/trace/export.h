/// \file export.h
/// \brief A trace written out for other tools: JSON lines, Chrome trace events (the call tree
/// drawn for Graphviz is a view of the trace: umax/view/call_tree_dot.h).
#pragma once

#include <ostream>

#include "umax/trace/reader.h"

namespace umax::trace {

/// One JSON object per event and line: {"i":index,"kind":...,"ply":...,"site":..., and the event's
/// fields}, named as the original names the variables (k q l e J Z E z n for a call, x y u t H G
/// F h for a move...). A return carries "m", "X", "Y", "draft" (the D it stored), "dLoop" (the
/// search's d at the return, see completedDraft) and "fromHash".
void writeJsonLines(const TraceReader& reader, std::ostream& out);

/// Chrome trace-event JSON (Perfetto, chrome://tracing): every call a nested slice on one track,
/// timed by event index (1 event = 1 us).
void writeChromeTrace(const TraceReader& reader, std::ostream& out);

}  // namespace umax::trace
