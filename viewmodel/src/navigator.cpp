// navigator.cpp - the replay's named cursor moves: each one a scan over the events (its definition),
// after a shortcut through the call tree or the timeline index where one is at hand (navigator.h).
#include "umax/view/navigator.h"

#include <algorithm>

namespace umax::trace {

Navigator::Navigator(Replay& replay, const CallTree* tree, const TimelineIndex* timeline)
    : replay_(replay), tree_(tree), timeline_(timeline) {}

bool Navigator::land(uint64_t applied) {
  if (gaveUp_) return false;  // a scan stopped at the limit: `applied` is not the answer
  replay_.seek(applied);
  return true;
}

void Navigator::startMove() const {
  scanned_ = 0;
  gaveUp_ = false;
}

template <class Match>
std::optional<uint64_t> Navigator::scanForward(uint64_t from, uint64_t to, std::size_t depth,
                                               Match&& match) const {
  const TraceReader& reader = replay_.reader();
  to = std::min(to, reader.eventCount());
  if (from >= to) return std::nullopt;
  for (std::size_t chunk = reader.chunkOf(from); chunk < reader.chunks().size(); ++chunk) {
    const ChunkInfo& info = reader.chunks()[chunk];
    if (info.firstEvent >= to) break;
    // Over the limit: stop before decoding (the caller sees gaveUp()).
    const uint64_t first = std::max(from, info.firstEvent);
    const uint64_t last = std::min<uint64_t>(to, info.firstEvent + info.events);
    scanned_ += last - first;
    if ((gaveUp_ = scanned_ > scanLimit_)) return std::nullopt;
    // The replay's chunks: the cursor's is decoded already, and the one a move lands in is the
    // one the seek there needs.
    const std::vector<Event>& events = replay_.chunkEvents(chunk);
    for (uint64_t index = first; index < last; ++index) {
      const Event& event = events[static_cast<std::size_t>(index - info.firstEvent)];
      if (match(event, index, depth)) return index;
      if (event.kind == EventKind::kCall) ++depth;
      if (event.kind == EventKind::kReturn && depth > 0) --depth;
    }
  }
  return std::nullopt;
}

uint64_t Navigator::returnOf(uint64_t from, uint64_t callEvent, std::size_t open) const {
  if (tree_)
    if (const auto call = tree_->findByCallEvent(callEvent)) return tree_->nodes()[*call].returnEvent;
  const auto found =
      scanForward(from, replay_.eventCount(), open, [&](const Event& event, uint64_t, std::size_t depth) {
        return event.kind == EventKind::kReturn && depth == open;
      });
  return found.value_or(replay_.eventCount());
}

bool Navigator::stepOver() {
  startMove();
  const uint64_t cursor = replay_.cursor();
  const uint64_t end = replay_.eventCount();
  if (cursor >= end) return false;
  const std::size_t open = replay_.state().stack().size();
  const EventKind next = replay_.eventAt(cursor).kind;
  if (next == EventKind::kCall) return land(std::min(end, returnOf(cursor + 1, cursor, open + 1) + 1));
  if (next != EventKind::kMoveMade) return replay_.stepForward();
  // A move: the reply's call follows at once, and the move's score follows that call's return.
  if (tree_ && cursor + 1 < end && replay_.eventAt(cursor + 1).kind == EventKind::kCall) {
    const uint64_t reply = returnOf(cursor + 2, cursor + 1, open + 1);
    if (gaveUp_) return false;
    if (reply + 1 < end && replay_.eventAt(reply + 1).kind == EventKind::kMoveScored) return land(reply + 2);
  }
  const auto scored =
      scanForward(cursor, end, open, [&](const Event& event, uint64_t index, std::size_t depth) {
        return index > cursor && event.kind == EventKind::kMoveScored && depth == open;
      });
  return land(scored ? *scored + 1 : end);
}

bool Navigator::stepOut() {
  startMove();
  const auto& stack = replay_.state().stack();
  const uint64_t end = replay_.eventCount();
  if (replay_.cursor() >= end || stack.empty()) return false;
  return land(std::min(end, returnOf(replay_.cursor(), stack.back().callEvent, stack.size()) + 1));
}

template <class Wanted>
bool Navigator::nextMarked(Wanted wanted, const std::vector<uint32_t>* perBucket) {
  startMove();
  const auto scan = [&](uint64_t from, uint64_t to) {
    return scanForward(from, to, 0, [&](const Event& event, uint64_t, std::size_t) { return wanted(event); });
  };
  const uint64_t end = replay_.eventCount();
  uint64_t from = replay_.cursor();
  if (!perBucket || perBucket->empty()) {
    const auto found = scan(from, end);
    return found && land(*found + 1);
  }
  // With the timeline index only the stretches whose count is not zero are scanned.
  const uint64_t width = timeline_->eventsPerBucket();
  const std::size_t lastBucket = perBucket->size() - 1;
  for (auto bucket = static_cast<std::size_t>(std::min<uint64_t>(from / width, lastBucket));
       bucket <= lastBucket && from < end; ++bucket) {
    const uint64_t bucketEnd = bucket == lastBucket ? end : (bucket + 1) * width;
    if ((*perBucket)[bucket] != 0)
      if (const auto found = scan(from, bucketEnd)) return land(*found + 1);
    from = std::max(from, bucketEnd);
  }
  return false;
}

bool Navigator::nextCutoff() {
  return nextMarked([](const Event& event) { return event.kind == EventKind::kCutoff; },
                    timeline_ ? &timeline_->cutoffs() : nullptr);
}

bool Navigator::nextHashHit() {
  return nextMarked(
      [](const Event& event) {
        return event.kind == EventKind::kProbe && event.probe.outcome == ProbeOutcome::kHit;
      },
      timeline_ ? &timeline_->hashHits() : nullptr);
}

namespace {
bool isRootIteration(const Event& event, std::size_t depth) {
  return event.kind == EventKind::kIteration && depth == 1;
}
}  // namespace

bool Navigator::nextIteration() {
  startMove();
  const uint64_t cursor = replay_.cursor();
  if (timeline_) {
    for (const TimelineIndex::Iteration& iteration : timeline_->rootIterations())
      if (iteration.event >= cursor) return land(iteration.event + 1);
    return false;
  }
  const auto found = scanForward(
      cursor, replay_.eventCount(), replay_.state().stack().size(),
      [](const Event& event, uint64_t, std::size_t depth) { return isRootIteration(event, depth); });
  return found && land(*found + 1);
}

bool Navigator::previousIteration() {
  startMove();
  const uint64_t cursor = replay_.cursor();
  if (cursor < 2) return false;
  // Before the cursor's last event: from just after an iteration, this goes to the one before.
  const uint64_t before = cursor - 1;
  std::optional<uint64_t> found;
  if (timeline_) {
    for (const TimelineIndex::Iteration& iteration : timeline_->rootIterations())
      if (iteration.event < before) found = iteration.event;
  } else {
    // Chunk by chunk backwards from the one that holds event before - 1, each scanned from its
    // start with the calls its checkpoint has open, until one holds a root iteration (a scan from
    // the trace's start would read every chunk before the cursor).
    const TraceReader& reader = replay_.reader();
    for (std::size_t chunk = reader.chunkOf(before - 1) + 1; !found && chunk-- > 0;) {
      const ChunkInfo& info = reader.chunks()[chunk];
      const std::size_t open = reader.stateAt(chunk).stack().size();
      const uint64_t end = std::min<uint64_t>(before, info.firstEvent + info.events);
      scanForward(info.firstEvent, end, open,
                  [&found](const Event& event, uint64_t index, std::size_t depth) {
                    if (isRootIteration(event, depth)) found = index;
                    return false;  // to the end of the range: the last one wins
                  });
      if (gaveUp_) return false;
    }
  }
  return found && land(*found + 1);
}

bool Navigator::findNode(uint64_t number) {
  startMove();
  if (number == 0) return false;
  const TraceReader& reader = replay_.reader();
  const auto& chunks = reader.chunks();
  // The footer gives each chunk's count of nodes before it: start in the last chunk that begins
  // with fewer than `number` counted. A truncated file has no footer: count from the start.
  std::size_t chunk = 0;
  uint64_t counted = 0;
  if (!reader.truncated() && !chunks.empty()) {
    const auto after =
        std::upper_bound(chunks.begin(), chunks.end(), number - 1,
                         [](uint64_t value, const ChunkInfo& info) { return value < info.nodesBefore; });
    chunk = after == chunks.begin() ? 0 : static_cast<std::size_t>(after - chunks.begin() - 1);
    counted = chunks[chunk].nodesBefore;
  }
  if (chunk >= chunks.size()) return false;
  const auto found = scanForward(chunks[chunk].firstEvent, replay_.eventCount(), 0,
                                 [&](const Event& event, uint64_t, std::size_t) {
                                   return event.kind == EventKind::kNodeCounted && ++counted == number;
                                 });
  return found && land(*found + 1);
}

std::optional<uint32_t> Navigator::findLine(const MoveLine& line) {
  startMove();
  if (tree_) {
    const auto call = trace::findLine(*tree_, line);
    if (call) land(tree_->nodes()[*call].callEvent + 1);
    return call;
  }
  // The moves that led to each open call; a mate probe's null move is no move (it matches none).
  MoveLine path;
  CallCause cause;
  uint32_t calls = 0;
  std::optional<uint32_t> number;
  const auto found = scanForward(0, replay_.eventCount(), 0, [&](const Event& event, uint64_t, std::size_t) {
    cause.see(event);
    if (event.kind == EventKind::kReturn && !path.empty()) path.pop_back();
    if (event.kind != EventKind::kCall) return false;
    if (calls > 0)  // the root has no move
      path.push_back(cause.moveMade && !cause.mateProbe ? std::pair{cause.move.from, cause.move.to}
                                                        : std::pair{-1, -1});
    cause.clear();
    if (path == line) number = calls;
    ++calls;
    return number.has_value();
  });
  if (found) land(*found + 1);
  return gaveUp_ ? std::nullopt : number;
}

namespace {
std::optional<uint32_t> follow(const CallTree& tree, uint32_t node, const MoveLine& line,
                               std::size_t matched) {
  if (matched == line.size()) return node;
  const auto& nodes = tree.nodes();
  for (uint32_t child = nodes[node].firstChild; child != 0; child = nodes[child].nextSibling) {
    const TreeNode& next = nodes[child];
    if (!(next.flags & kTreeMateProbe) && next.from == line[matched].first && next.to == line[matched].second)
      if (auto found = follow(tree, child, line, matched + 1)) return found;
  }
  return std::nullopt;
}
}  // namespace

std::optional<uint32_t> findLine(const CallTree& tree, const MoveLine& line) {
  if (tree.nodes().empty()) return std::nullopt;
  return follow(tree, 0, line, 0);
}

std::vector<IterationGroup> iterationGroups(const CallTree& tree, const TimelineIndex* timeline) {
  std::vector<IterationGroup> groups;
  const auto& nodes = tree.nodes();
  if (nodes.empty()) return groups;
  if (timeline)
    for (const TimelineIndex::Iteration& iteration : timeline->rootIterations())
      groups.push_back(
          {.draft = iteration.draft, .startEvent = iteration.event, .calls = {}, .subtreeCalls = 0});
  std::size_t next = 0;  // the first group that may still take a reply
  for (uint32_t child = nodes[0].firstChild; child != 0; child = nodes[child].nextSibling) {
    const int draft = nodes[child].iteration;
    while (next < groups.size() && groups[next].draft != draft) ++next;
    if (next == groups.size())
      groups.push_back(
          {.draft = draft, .startEvent = nodes[child].callEvent, .calls = {}, .subtreeCalls = 0});
    groups[next].calls.push_back(child);
    // The tree lists calls in pre-order: a reply's subtree runs up to the next reply (or the end).
    const uint32_t end =
        nodes[child].nextSibling ? nodes[child].nextSibling : static_cast<uint32_t>(nodes.size());
    for (IterationGroup& group : groups)
      if (group.draft == draft) group.subtreeCalls += end - child;
  }
  return groups;
}

std::string iterationGroupLabel(const CallTree& tree, const IterationGroup& group) {
  const std::string head = "iteration " + std::to_string(group.draft) + ": ";
  if (group.calls.empty()) return head + "no reply searched";
  std::size_t probes = 0;
  for (uint32_t call : group.calls) probes += (tree.nodes()[call].flags & kTreeMateProbe) != 0;
  const std::size_t replies = group.calls.size() - probes;
  std::string text = head + std::to_string(replies) + (replies == 1 ? " reply" : " replies");
  if (probes > 0)
    text += probes == 1 ? ", then the mate probe;" : ", then " + std::to_string(probes) + " mate probes;";
  else
    text += ",";
  return text + " " + std::to_string(group.subtreeCalls) + " calls";
}

std::optional<std::size_t> iterationAt(const std::vector<IterationGroup>& groups, uint64_t cursor) {
  const auto after =
      std::partition_point(groups.begin(), groups.end(),
                           [cursor](const IterationGroup& group) { return group.startEvent < cursor; });
  if (after == groups.begin()) return std::nullopt;
  return static_cast<std::size_t>(after - groups.begin() - 1);
}

}  // namespace umax::trace
