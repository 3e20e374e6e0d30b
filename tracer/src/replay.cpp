// replay.cpp - a recorded search positioned at any event.
#include "umax/trace/replay.h"

#include <algorithm>
#include <utility>

namespace umax::trace {

const std::vector<Event>& Replay::chunkEvents(std::size_t chunk) const {
  if (cached_[0].chunk == chunk) return cached_[0].events;
  // The other one, or the older one decoded again (its buffer reused: no allocation).
  std::swap(cached_[0], cached_[1]);
  if (cached_[0].chunk != chunk) {
    cached_[0].chunk = static_cast<std::size_t>(-1);  // a decoding that throws leaves it empty
    cached_[0].marks.clear();
    reader_.decodeChunk(chunk, cached_[0].events);
    cached_[0].chunk = chunk;
  }
  return cached_[0].events;
}

const Event& Replay::at(uint64_t index) const {
  const std::size_t chunk = reader_.chunkOf(index);
  return chunkEvents(chunk).at(static_cast<std::size_t>(index - reader_.chunks()[chunk].firstEvent));
}

void Replay::seek(uint64_t applied) {
  applied = std::min(applied, eventCount());
  if (applied == cursor()) return;
  if (applied == 0) {
    state_ = SearchState(reader_.header());
    return;
  }
  // The chunk that holds the last event to apply.
  const std::size_t chunk = reader_.chunkOf(applied - 1);
  const uint64_t first = reader_.chunks()[chunk].firstEvent;
  try {
    const std::vector<Event>& events = chunkEvents(chunk);
    std::vector<SearchState>& marks = cached_[0].marks;  // chunkEvents() put `chunk` first
    // Go on from the nearest state at or before `applied`: the cursor's, a mark's, or the checkpoint's.
    const bool onTheWay = cursor() >= first && cursor() < applied;
    const std::size_t mark = std::min<std::size_t>(marks.size(), (applied - first) / kMarkEvents);
    if (mark > 0 && (!onTheWay || cursor() < first + mark * kMarkEvents))
      state_ = marks[mark - 1];
    else if (!onTheWay)
      state_ = reader_.stateAt(chunk);
    const uint64_t offset = reader_.chunks()[chunk].payloadOffset;
    while (cursor() < applied) {
      state_.apply(events[static_cast<std::size_t>(cursor() - first)], offset);
      if (cursor() - first == (marks.size() + 1) * kMarkEvents) marks.push_back(state_);
    }
  } catch (const TraceError&) {
    // A damaged chunk or checkpoint (a large file's chunks are checked when
    // first decoded): the state may be half loaded, so the replay goes back
    // to the start, a state it can always show, and says why.
    state_ = SearchState(reader_.header());
    cached_[0].marks.clear();
    throw;
  }
}

void requireOpenCall(const Event& event, uint64_t index, std::size_t open) {
  if (open == 0)
    throw TraceError("corrupt trace: event " + std::to_string(index) + " (" +
                         std::string(kindName(event.kind)) + ") outside any call",
                     0);
}

}  // namespace umax::trace
