// The hash table's history along a trace and the timeline's index: both
// filled in one pass over the events (see hash_history.h).
#include "umax/view/hash_history.h"

#include <algorithm>

namespace umax::trace {

namespace {

bool filled(const HashEntry& entry) { return entry.lock != 0; }

}  // namespace

HashHistory::HashHistory(const TraceHeader& header, uint64_t eventCount)
    : eventCount_(eventCount),
      slots_(header.hashSlots()),
      slotsPerCell_(std::max<uint32_t>(header.hashSlots() / kCells, 1)),
      initial_(header.initialEntries),
      liveOccupancy_(kCells, 0),
      liveActivity_(kCells, 0) {
  if (eventCount > UINT32_MAX) throw TraceError("trace has too many events for the hash history");
  std::sort(initial_.begin(), initial_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [slot, entry] : initial_)
    if (filled(entry)) ++liveOccupancy_[static_cast<std::size_t>(cellOf(slot))];
  // A store per call, about eventCount / 9 (see CallTree): reserved whole to avoid a reallocation
  // that would briefly hold two copies.
  stores_.reserve(static_cast<std::size_t>(eventCount / 8 + 16));
  snapshotEvents_.reserve(kSnapshots);
  occupancy_.reserve(static_cast<std::size_t>(kSnapshots) * kCells);
  activity_.reserve(static_cast<std::size_t>(kSnapshots) * kCells);
  takeSnapshot(0);
}

int HashHistory::cellOf(uint32_t slot) const {
  return static_cast<int>(std::min<uint32_t>(slot / slotsPerCell_, kCells - 1));
}

void HashHistory::takeSnapshot(uint64_t applied) {
  snapshotEvents_.push_back(applied);
  occupancy_.insert(occupancy_.end(), liveOccupancy_.begin(), liveOccupancy_.end());
  activity_.insert(activity_.end(), liveActivity_.begin(), liveActivity_.end());
  std::fill(liveActivity_.begin(), liveActivity_.end(), 0);
  // Snapshot s describes the table after snapshotEvents_[s] events; the
  // points are spread evenly over the trace.
  const uint64_t taken = snapshotEvents_.size();
  nextSnapshot_ =
      taken >= static_cast<uint64_t>(kSnapshots) ? UINT64_MAX : eventCount_ * taken / (kSnapshots - 1);
  if (nextSnapshot_ <= applied && nextSnapshot_ != UINT64_MAX) nextSnapshot_ = applied + 1;
}

void HashHistory::add(const Event& event, uint64_t index) {
  while (index >= nextSnapshot_ && snapshotEvents_.size() < static_cast<std::size_t>(kSnapshots))
    takeSnapshot(index);
  if (event.kind != EventKind::kStore || !event.written) return;
  stores_.push_back(Store{event.slot, static_cast<uint32_t>(index), event.after});
  const auto cell = static_cast<std::size_t>(cellOf(event.slot));
  ++liveActivity_[cell];
  if (!filled(event.before) && filled(event.after)) ++liveOccupancy_[cell];
  if (filled(event.before) && !filled(event.after)) --liveOccupancy_[cell];
}

void HashHistory::finish() {
  while (snapshotEvents_.size() < static_cast<std::size_t>(kSnapshots)) takeSnapshot(eventCount_);
  std::sort(stores_.begin(), stores_.end(), [](const Store& a, const Store& b) { return a.key() < b.key(); });
  liveOccupancy_.clear();
  liveActivity_.clear();
}

const HashHistory::Store* HashHistory::lastStore(uint32_t slot, uint64_t applied) const {
  // Stores of event index < applied: key < slot << 32 | applied.
  const uint64_t limit = (static_cast<uint64_t>(slot) << 32) | std::min<uint64_t>(applied, 0xffffffffu);
  auto it = std::lower_bound(stores_.begin(), stores_.end(), limit,
                             [](const Store& store, uint64_t key) { return store.key() < key; });
  return it != stores_.begin() && (it - 1)->slot == slot ? &*(it - 1) : nullptr;
}

int64_t HashHistory::lastWriteBefore(uint32_t slot, uint64_t applied) const {
  const Store* store = lastStore(slot, applied);
  return store ? static_cast<int64_t>(store->event) : -1;
}

HashEntry HashHistory::entryAt(uint32_t slot, uint64_t applied) const {
  if (const Store* store = lastStore(slot, applied)) return store->after;
  auto first = std::lower_bound(initial_.begin(), initial_.end(), slot,
                                [](const auto& entry, uint32_t value) { return entry.first < value; });
  if (first != initial_.end() && first->first == slot) return first->second;
  return HashEntry{};
}

int HashHistory::snapshotAt(uint64_t applied) const {
  auto it = std::upper_bound(snapshotEvents_.begin(), snapshotEvents_.end(), applied);
  return it == snapshotEvents_.begin() ? 0 : static_cast<int>(it - snapshotEvents_.begin() - 1);
}

void HashCounters::count(const Event& event, int sign) {
  const auto add = [sign](uint64_t& counter) {
    counter += static_cast<uint64_t>(static_cast<int64_t>(sign));
  };
  if (event.kind == EventKind::kProbe) {
    add(probes);
    if (event.probe.outcome == ProbeOutcome::kHit) add(hits);
    if (event.probe.outcome == ProbeOutcome::kMiss) add(misses);
    if (event.probe.outcome == ProbeOutcome::kFull) add(fullWindows);
    if (event.probe.endsNode) add(hashCutoffs);
  } else if (event.kind == EventKind::kStore) {
    if (!event.written) {
      add(storesRefused);
      return;
    }
    add(storesWritten);
    if (event.before.lock == 0)
      add(storesNew);
    else if (event.before.lock == event.after.lock)
      add(storesUpdated);
    else
      add(storesReplaced);
  }
}

TimelineIndex::TimelineIndex(uint64_t eventCount)
    : perBucket_(std::max<uint64_t>(1, (eventCount + kBuckets - 1) / kBuckets)),
      cutoffs_(kBuckets, 0),
      hashHits_(kBuckets, 0),
      before_(kBuckets) {}

int timelineColumn(uint64_t event, uint64_t eventCount, int columns) {
  if (columns <= 0 || eventCount == 0) return 0;
  const auto column = static_cast<int>(double(event) * double(columns) / double(eventCount));
  return std::clamp(column, 0, columns - 1);
}

std::vector<TimelineColumn> timelineColumns(const TimelineIndex& index, uint64_t eventCount, int columns) {
  std::vector<TimelineColumn> out(static_cast<std::size_t>(std::max(columns, 0)));
  if (out.empty() || eventCount == 0) return out;
  const auto& cutoffs = index.cutoffs();
  const auto& hits = index.hashHits();
  for (std::size_t bucket = 0; bucket < cutoffs.size(); ++bucket) {
    const uint64_t first = bucket * index.eventsPerBucket();
    if (first >= eventCount) break;
    TimelineColumn& column = out[static_cast<std::size_t>(timelineColumn(first, eventCount, columns))];
    column.cutoffs = std::max(column.cutoffs, cutoffs[bucket]);
    column.hashHits = std::max(column.hashHits, hits[bucket]);
  }
  return out;
}

void TimelineIndex::add(const Event& event, uint64_t index) {
  const auto bucket = static_cast<std::size_t>(std::min<uint64_t>(index / perBucket_, kBuckets - 1));
  if (index % perBucket_ == 0 && index / perBucket_ < kBuckets) before_[bucket] = running_;
  running_.count(event);
  if (event.kind == EventKind::kCall)
    ++depth_;
  else if (event.kind == EventKind::kReturn)
    --depth_;
  else if (event.kind == EventKind::kCutoff)
    ++cutoffs_[bucket];
  else if (event.kind == EventKind::kProbe && event.probe.outcome == ProbeOutcome::kHit)
    ++hashHits_[bucket];
  else if (event.kind == EventKind::kIteration && depth_ == 1)
    rootIterations_.push_back({index, event.value});
}

void buildHistories(const TraceReader& reader, HashHistory& hash, TimelineIndex& timeline,
                    const std::function<void(double)>& progress) {
  HistoriesBuilder builder(reader, hash, timeline);
  // The last share (sorting the stores) is reported at the end.
  while (builder.step(kChunksPerStep))
    if (progress) progress(builder.share());
  if (progress) progress(1.0);
}

HistoriesBuilder::HistoriesBuilder(const TraceReader& reader, HashHistory& hash, TimelineIndex& timeline)
    : hash_(hash), timeline_(timeline), pass_(reader) {}

bool HistoriesBuilder::step(std::size_t chunks) {
  if (pass_.done()) {
    if (!finished_) hash_.finish();
    finished_ = true;
    return false;
  }
  pass_.step(
      [&](const Event& event, uint64_t index) {
        hash_.add(event, index);
        timeline_.add(event, index);
      },
      chunks);
  return true;
}

double HistoriesBuilder::share() const {
  if (finished_) return 1.0;
  return 0.95 * pass_.share();
}

}  // namespace umax::trace
