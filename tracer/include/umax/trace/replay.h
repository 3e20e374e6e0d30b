/// \file replay.h
/// \brief The replay model: a recorded search, positioned at any event.
///
/// Replay's cursor is the number of events applied (0: before the root
/// call); at any cursor it gives the board, the open calls and the event
/// just applied. A seek restores the checkpoint of the target's chunk and
/// applies at most one chunk of events, so it costs the same anywhere in a
/// long trace; in the two chunks it decoded last it goes on from the cursor
/// or from a state it kept on the way, at most 1,024 events before the
/// target. The visualizer draws what this model says; moves named by the
/// search (step over, next cutoff, ...) are in navigator.h, the tree of
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
  /// The events of chunk `chunk`, decoded (TraceReader::decodeChunk) and kept: the replay keeps
  /// the last two chunks read, so that stepping to and fro across a chunk's end, or a scan of the
  /// chunks ahead (navigator.h) and the seek to where it ends, decode each chunk once. The
  /// reference is valid until the next call that moves the cursor or reads another chunk.
  const std::vector<Event>& chunkEvents(std::size_t chunk) const;

  /// Moves the cursor to `applied` (clamped to [0, eventCount()]). Throws
  /// TraceError for a damaged chunk on the way, and is then at the start.
  void seek(uint64_t applied);
  /// One event forward; false at the end.
  bool stepForward() { return cursor() < eventCount() && (seek(cursor() + 1), true); }
  /// One event back; false at the start.
  bool stepBack() { return cursor() > 0 && (seek(cursor() - 1), true); }

 private:
  const Event& at(uint64_t index) const;

  /// Events between two of the states a replay keeps inside a chunk (seek()).
  static constexpr uint64_t kMarkEvents = 1024;
  /// A chunk's decoded events, and the states every kMarkEvents events into it as far as the
  /// cursor has gone (marks[k] after (k + 1) * kMarkEvents of its events): a seek back inside the
  /// chunk goes on from the last mark before its target instead of from the chunk's checkpoint
  /// (stepping back through a chunk of 40,000 events applied 20,000 of them a step). `chunk` is
  /// -1 while it holds none.
  struct Cached {
    std::size_t chunk = static_cast<std::size_t>(-1);
    std::vector<Event> events;
    std::vector<SearchState> marks;
  };
  const TraceReader& reader_;
  SearchState state_;
  mutable Cached cached_[2];  // [0] the chunk read last
};

}  // namespace umax::trace
