// stats.cpp - one pass over a trace, counting what the search did.
#include "umax/view/stats.h"

#include <algorithm>

#include "umax/notation.h"
#include "umax/trace/state.h"

namespace umax::trace {

TraceStats computeStats(const TraceReader& reader) {
  TraceStats stats;
  stats.events = reader.eventCount();
  stats.bytes = reader.fileSize();
  SearchState state(reader.header());
  std::vector<Event> events;
  reader.forEachEvent(
      [&](const Event& event, uint64_t, std::size_t chunk) {
        state.apply(event, reader.chunks()[chunk].payloadOffset);
        ++stats.perKind[static_cast<int>(event.kind)];
        stats.hash.count(event);
        stats.maxPly = std::max(stats.maxPly, static_cast<int>(state.stack().size()) - 1);
        // A root iteration starts: its nodes and calls count from here (set right below).
        if (event.kind == EventKind::kIteration && state.stack().size() == 1)
          stats.iterations.push_back({event.value, state.nodes(), state.calls(), 0});
        if (event.kind == EventKind::kCutoff) ++stats.cutoffsPerDraft[state.stack().back().draft];
        // The root's store ends its iteration: what it found.
        if (event.kind == EventKind::kStore && state.stack().size() == 1 && !stats.iterations.empty()) {
          const Frame& root = state.stack().back();
          IterationStats& iteration = stats.iterations.back();
          iteration.completed = true;
          iteration.best = root.best;
          iteration.bestFrom = bestMoveSquare(root.bestFrom);
          iteration.bestTo = bestMoveSquare(root.bestTo);
        }
      },
      events);
  stats.nodes = state.nodes();
  // Each iteration's counts: up to the next one's start (the last one's: to the end).
  for (std::size_t index = 0; index < stats.iterations.size(); ++index) {
    IterationStats& iteration = stats.iterations[index];
    const bool last = index + 1 == stats.iterations.size();
    iteration.nodes = (last ? state.nodes() : stats.iterations[index + 1].nodes) - iteration.nodes;
    iteration.calls = (last ? state.calls() : stats.iterations[index + 1].calls) - iteration.calls;
    const uint64_t before = index > 0 ? stats.iterations[index - 1].nodes : 0;
    iteration.branching = before ? double(iteration.nodes) / double(before) : 0;
  }
  stats.openCalls = state.stack().size();
  return stats;
}

}  // namespace umax::trace
