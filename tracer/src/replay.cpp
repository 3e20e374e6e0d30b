// replay.cpp - a recorded search positioned at any event.
#include "umax/trace/replay.h"

#include <algorithm>

namespace umax::trace {

const std::vector<Event>& Replay::chunkEvents(std::size_t chunk) const {
  if (chunk != cachedChunk_) {
    cachedChunk_ = static_cast<std::size_t>(-1);
    reader_.decodeChunk(chunk, cachedEvents_);
    cachedChunk_ = chunk;
  }
  return cachedEvents_;
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
    if (!(cursor() >= first && cursor() < applied)) state_ = reader_.stateAt(chunk);
    const std::vector<Event>& events = chunkEvents(chunk);
    const uint64_t offset = reader_.chunks()[chunk].payloadOffset;
    while (cursor() < applied) state_.apply(events[static_cast<std::size_t>(cursor() - first)], offset);
  } catch (const TraceError&) {
    // A damaged chunk or checkpoint (a large file's chunks are checked when
    // first decoded): the state may be half loaded, so the replay goes back
    // to the start, a state it can always show, and says why.
    state_ = SearchState(reader_.header());
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
