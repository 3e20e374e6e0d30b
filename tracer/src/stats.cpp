// stats.cpp - one pass over a trace, counting what the search did.
#include "umax/trace/stats.h"

#include <algorithm>

#include "umax/trace/state.h"

namespace umax::trace {

TraceStats computeStats(const TraceReader& reader) {
  TraceStats stats;
  stats.events = reader.eventCount();
  stats.bytes = reader.fileSize();
  SearchState state(reader.header());
  std::vector<Event> events;
  IterationStats* iteration = nullptr;
  reader.forEachEvent(
      [&](const Event& event, uint64_t, std::size_t chunk) {
        state.apply(event, reader.chunks()[chunk].payloadOffset);
        ++stats.perKind[static_cast<int>(event.kind)];
        switch (event.kind) {
          case EventKind::kCall:
            stats.maxPly = std::max(stats.maxPly, static_cast<int>(state.stack().size()) - 1);
            if (iteration) ++iteration->calls;
            break;
          case EventKind::kProbe:
            ++stats.probes;
            if (event.probe.outcome == ProbeOutcome::kHit) ++stats.hits;
            if (event.probe.outcome == ProbeOutcome::kFull) ++stats.fullWindows;
            if (event.probe.endsNode) ++stats.hashCutoffs;
            break;
          case EventKind::kNodeCounted:
            ++stats.nodes;
            if (iteration) ++iteration->nodes;
            break;
          case EventKind::kIteration:
            if (state.stack().size() == 1) {
              stats.iterations.push_back({event.value, 0, 0, 0});
              iteration = &stats.iterations.back();
            }
            break;
          case EventKind::kCutoff:
            ++stats.cutoffsPerDraft[state.stack().back().draft];
            break;
          case EventKind::kStore:
            ++(event.written ? stats.storesWritten : stats.storesRefused);
            break;
          default:
            break;
        }
      },
      events);
  for (std::size_t index = 1; index < stats.iterations.size(); ++index) {
    const uint64_t before = stats.iterations[index - 1].nodes;
    stats.iterations[index].branching = before ? double(stats.iterations[index].nodes) / double(before) : 0;
  }
  stats.complete = state.finished();
  stats.rootScore = state.rootScore();
  return stats;
}

}  // namespace umax::trace
