/// \file replay.h
/// \brief The replay model: a recorded search, positioned at any event.
///
/// Replay's cursor is the number of events applied (0: before the root
/// call); at any cursor it gives the board, the open calls and the event
/// just applied. A seek restores the checkpoint of the target's chunk and
/// applies at most one chunk of events, so it costs the same anywhere in a
/// long trace. The visualizer draws what this model says; moves named by
/// the search (step over, next cutoff, ...) are in navigator.h, the tree of
/// calls in call_tree.h.
#pragma once

#include <cstdint>
#include <vector>

#include "umax/trace/reader.h"
#include "umax/trace/state.h"

namespace umax::trace {

/// Throws TraceError ("corrupt trace: event N (kind) outside any call") if
/// `open`, the calls open at `event`, is 0 (every event but a call belongs to one).
void requireOpenCall(const Event& event, uint64_t index, std::size_t open);

/// A recorded search with a cursor.
class Replay {
 public:
  /// Replays the trace `reader` holds (which must outlive the replay).
  explicit Replay(const TraceReader& reader) : reader_(reader), state_(reader.header()) {}

  /// The trace being replayed.
  const TraceReader& reader() const { return reader_; }
  /// Events in the trace.
  uint64_t eventCount() const { return reader_.eventCount(); }
  /// Events applied: the cursor.
  uint64_t cursor() const { return state_.events(); }
  /// The state at the cursor.
  const SearchState& state() const { return state_; }
  /// The event just applied (the one at cursor() - 1), if any. The pointer is valid until the
  /// next call that moves the cursor or reads an event of another chunk (eventAt()).
  const Event* lastEvent() const { return cursor() == 0 ? nullptr : &at(cursor() - 1); }
  /// The event at `index` (< eventCount()).
  Event eventAt(uint64_t index) const { return at(index); }

  /// Moves the cursor to `applied` (clamped to [0, eventCount()]). Throws
  /// TraceError for a damaged chunk on the way, and is then at the start.
  void seek(uint64_t applied);
  /// One event forward; false at the end.
  bool stepForward() { return cursor() < eventCount() && (seek(cursor() + 1), true); }
  /// One event back; false at the start.
  bool stepBack() { return cursor() > 0 && (seek(cursor() - 1), true); }

 private:
  const std::vector<Event>& chunkEvents(std::size_t chunk) const;
  const Event& at(uint64_t index) const;

  const TraceReader& reader_;
  SearchState state_;
  mutable std::size_t cachedChunk_ = static_cast<std::size_t>(-1);
  mutable std::vector<Event> cachedEvents_;
};

}  // namespace umax::trace
