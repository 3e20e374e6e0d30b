/// \file hash_history.h
/// \brief The hash table at any event of a trace, and where the search spent its time.
///
/// A trace records every hash store with the slot's entry before and after
/// (kStore) and the slots that were already filled when the search started
/// (TraceHeader::initialEntries). HashHistory collects the stores in one pass
/// over the events and answers "what did slot s hold after c events?" by a
/// binary search. It also keeps a coarse picture for heatmaps: the table cut
/// into cells of equal slot ranges, with each cell's occupancy and store
/// count at a fixed number of snapshot points along the trace.
///
/// TimelineIndex, built in the same pass, keeps what a timeline draws: the
/// root's iterations and the density of cutoffs and hash hits along the events.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "umax/engine.h"
#include "umax/trace/format.h"
#include "umax/trace/reader.h"
#include "umax/view/chunk_pass.h"

namespace umax::trace {

/// How the hash table was used by the events before a cursor (counts, not the whole trace's).
struct HashCounters {
  uint64_t probes = 0;          ///< kProbe events
  uint64_t hits = 0;            ///< probes that found their position
  uint64_t misses = 0;          ///< probes that found an empty slot
  uint64_t fullWindows = 0;     ///< probes whose 9-slot window held only other positions
  uint64_t hashCutoffs = 0;     ///< hits whose entry settled the window: the node returned at once
  uint64_t storesWritten = 0;   ///< kStore events that wrote the slot
  uint64_t storesRefused = 0;   ///< kStore events that kept a deeper exact entry
  uint64_t storesNew = 0;       ///< written into an empty slot
  uint64_t storesUpdated = 0;   ///< written over the same position's entry
  uint64_t storesReplaced = 0;  ///< written over another position's entry (a foreign overwrite)
  /// Counts one event (`sign` -1 takes it out again, for a cursor moving back).
  void count(const Event& event, int sign = 1);
  /// The same counts.
  bool operator==(const HashCounters&) const = default;
};

/// The contents of the hash table along a trace.
class HashHistory {
 public:
  /// Cells of the downsampled picture.
  static constexpr int kCells = 4096;
  /// Snapshot points of the picture along the trace.
  static constexpr int kSnapshots = 1024;

  /// An empty history for a trace with `header` and `eventCount` events;
  /// feed it every event in order with add(), then call finish().
  HashHistory(const TraceHeader& header, uint64_t eventCount);
  /// Takes event number `index` (events must come in order).
  void add(const Event& event, uint64_t index);
  /// Sorts the stores; queries are valid after this.
  void finish();

  /// The entry slot `slot` holds after `applied` events (lock 0 = empty).
  HashEntry entryAt(uint32_t slot, uint64_t applied) const;
  /// The event index of the last store that wrote `slot` before `applied`
  /// events, or -1 if none did (the slot holds its initial entry).
  int64_t lastWriteBefore(uint32_t slot, uint64_t applied) const;

  /// Slots of the trace's table (its header's: 2^B + 9).
  uint32_t slots() const { return slots_; }
  /// Slots locked before the search started (the header's initial entries).
  std::size_t initialFilled() const { return initial_.size(); }
  /// Slots per cell (the last cell also holds the remainder).
  uint32_t slotsPerCell() const { return slotsPerCell_; }
  /// The snapshot that describes the table after `applied` events: the
  /// last snapshot point at or before it.
  int snapshotAt(uint64_t applied) const;
  /// The event count at snapshot `snapshot`.
  uint64_t snapshotEvent(int snapshot) const { return snapshotEvents_[static_cast<std::size_t>(snapshot)]; }
  /// Filled slots of `cell` at snapshot `snapshot`.
  uint32_t occupancy(int snapshot, int cell) const {
    return occupancy_[static_cast<std::size_t>(snapshot) * kCells + static_cast<std::size_t>(cell)];
  }
  /// Stores into `cell` between snapshot `snapshot - 1` and `snapshot`.
  uint32_t activity(int snapshot, int cell) const {
    return activity_[static_cast<std::size_t>(snapshot) * kCells + static_cast<std::size_t>(cell)];
  }
  /// Written stores in the whole trace.
  std::size_t storeCount() const { return stores_.size(); }

 private:
  // 20 bytes (two 32-bit halves instead of one 64-bit key keep it 4-byte aligned): one per
  // written store, about 2 bytes per event of the trace.
  struct Store {
    uint32_t slot;
    uint32_t event;  // index of the kStore event (traces hold fewer than 2^32 events)
    HashEntry after;
    uint64_t key() const { return (static_cast<uint64_t>(slot) << 32) | event; }
  };
  int cellOf(uint32_t slot) const;
  /// The last write into `slot` among the first `applied` events, or nullptr.
  const Store* lastStore(uint32_t slot, uint64_t applied) const;
  void takeSnapshot(uint64_t applied);

  uint64_t eventCount_;
  uint32_t slots_;
  uint32_t slotsPerCell_;
  std::vector<std::pair<uint32_t, HashEntry>> initial_;  // sorted by slot
  std::vector<Store> stores_;
  std::vector<uint64_t> snapshotEvents_;
  std::vector<uint32_t> occupancy_;  // kSnapshots x kCells
  std::vector<uint32_t> activity_;   // kSnapshots x kCells
  std::vector<uint32_t> liveOccupancy_;
  std::vector<uint32_t> liveActivity_;
  uint64_t nextSnapshot_ = 0;
};

/// What a timeline of a trace shows: the root's iterations, and how cutoffs
/// and hash hits are spread over the events.
class TimelineIndex {
 public:
  /// Buckets the events are grouped into.
  static constexpr int kBuckets = 4096;

  /// An empty index for a trace of `eventCount` events.
  explicit TimelineIndex(uint64_t eventCount);
  /// Takes event number `index` (events must come in order).
  void add(const Event& event, uint64_t index);

  /// One root iteration: its kIteration event and its draft.
  struct Iteration {
    uint64_t event;  ///< index of the kIteration event
    int draft;       ///< the root's draft d
  };
  /// The root's iterations, in order.
  const std::vector<Iteration>& rootIterations() const { return rootIterations_; }
  /// Events per bucket (the last bucket may hold fewer).
  uint64_t eventsPerBucket() const { return perBucket_; }
  /// Beta cutoffs per bucket.
  const std::vector<uint32_t>& cutoffs() const { return cutoffs_; }
  /// Probes that hit, per bucket.
  const std::vector<uint32_t>& hashHits() const { return hashHits_; }
  /// The hash counters of the events before bucket `bucket`'s first event (index bucket *
  /// eventsPerBucket()); valid for the buckets the events reached.
  const HashCounters& countersBeforeBucket(std::size_t bucket) const { return before_[bucket]; }

 private:
  uint64_t perBucket_;
  int depth_ = 0;
  std::vector<Iteration> rootIterations_;
  std::vector<uint32_t> cutoffs_;
  std::vector<uint32_t> hashHits_;
  std::vector<HashCounters> before_;  // per bucket
  HashCounters running_;
};

/// The timeline's one event-to-x mapping, for the cutoff and hash-hit bars, the iteration
/// markers and the cursor alike: event `event` of `eventCount` lies in column
/// floor(columns * event / eventCount) of a timeline `columns` wide.
int timelineColumn(uint64_t event, uint64_t eventCount, int columns);

/// One column of the timeline: the most cutoffs and hash hits of a bucket drawn in it.
struct TimelineColumn {
  uint32_t cutoffs = 0;   ///< the most cutoffs of one bucket drawn in this column
  uint32_t hashHits = 0;  ///< the most hash hits of one bucket drawn in this column
};

/// The bars of a timeline `columns` wide: each bucket of `index` goes to the column of its first
/// event (timelineColumn), so a bar lies where the cursor lies at its events.
std::vector<TimelineColumn> timelineColumns(const TimelineIndex& index, uint64_t eventCount, int columns);

/// Builds both in one pass over `reader`'s events; `progress` gets 0..1.
void buildHistories(const TraceReader& reader, HashHistory& hash, TimelineIndex& timeline,
                    const std::function<void(double)>& progress = {});

/// The pass of buildHistories, a few chunks at a time, for a caller that interleaves it with other
/// work (the web edition's main loop); buildHistories runs it to its end. The reader and both
/// histories must outlive the builder.
class HistoriesBuilder {
 public:
  /// Starts the pass over `reader`'s events into `hash` and `timeline` (new, empty ones).
  HistoriesBuilder(const TraceReader& reader, HashHistory& hash, TimelineIndex& timeline);
  /// Reads up to `chunks` more chunks, stopping at the end of each 64-chunk step; after the last
  /// chunk, one more step sorts the stores (HashHistory::finish). Returns true while work remains.
  bool step(std::size_t chunks);
  /// True when the histories are complete.
  bool done() const { return finished_; }
  /// The share done, 0..1 (the chunks are 95%, the sorting the rest).
  double share() const;

 private:
  HashHistory& hash_;
  TimelineIndex& timeline_;
  ChunkPass pass_;
  bool finished_ = false;
};

}  // namespace umax::trace
