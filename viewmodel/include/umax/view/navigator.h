/// \file navigator.h
/// \brief Moving a replay's cursor by what the search did: over a move, out of a call, to the next
/// cutoff, hash hit or iteration, to a counted node, to a line of moves.
///
/// Each move has one definition in terms of the events, read one at a time (what a reader pressing
/// "step" would reach). Navigator reaches the same place, faster where the indexes built in the
/// background help: with the call tree the end of a subtree is known at once instead of scanned
/// (millions of events under the root), and with the timeline index the root's iterations are a
/// list and stretches of the trace without a cutoff or a hash hit are skipped. Without them it
/// scans the events. The suite checks that both ways land on the same event. The visualizer's keys
/// and buttons call this class and nothing else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "umax/trace/replay.h"
#include "umax/view/call_tree.h"
#include "umax/view/hash_history.h"

namespace umax::trace {

/// A line of moves from the root: pairs of 0x88 squares (from, to).
using MoveLine = std::vector<std::pair<int, int>>;

/// Named cursor moves over a Replay. Cheap to make: it holds pointers only, so a caller makes one
/// per action with whatever indexes are ready at that moment.
class Navigator {
 public:
  /// Navigates `replay`; `tree` and `timeline` (either may be null) make it faster, never different.
  explicit Navigator(Replay& replay, const CallTree* tree = nullptr, const TimelineIndex* timeline = nullptr);

  /// Lets each move scan at most `events` events (a scan of a large trace
  /// without its indexes takes seconds: a window must not wait for it). A
  /// move that would scan more stops, leaves the cursor where it was, returns
  /// false / nothing, and gaveUp() says so.
  void limitScan(uint64_t events) { scanLimit_ = events; }
  /// True if the last move stopped at the scan limit (not: found nothing).
  bool gaveUp() const { return gaveUp_; }

  /// Over the whole subtree the next event opens, landing after it: for a move, after its score
  /// (kMoveScored, the reply's search and all below it skipped); for a call, after its return.
  /// Any other event: one step. False at the end of the trace.
  bool stepOver();
  /// Forward to just after the current call returns. False at the end or when no call is open.
  bool stepOut();
  /// Forward to just after the next beta cutoff (kCutoff); false (cursor unchanged) if none.
  bool nextCutoff();
  /// Forward to just after the next probe that found its position; false (unchanged) if none.
  bool nextHashHit();
  /// Forward to just after the root's next iteration event (a kIteration while only the root is
  /// open); false (unchanged) if none.
  bool nextIteration();
  /// Back to just after the last root iteration event before the cursor's last event; false
  /// (unchanged) if there is none.
  bool previousIteration();
  /// To just after counted node `number` (1-based: the number N++ gave it) was counted; false
  /// (unchanged) if the trace has no such node.
  bool findNode(uint64_t number);
  /// To just after the kCall of the first call (in call order) that `line` reaches from the root,
  /// each move a call of the one before (the mate probes' null moves are not moves); the root
  /// for an empty line. Returns that call's index in the call tree (call number in call order);
  /// nothing (unchanged) if the search never followed the line.
  std::optional<uint32_t> findLine(const MoveLine& line);

 private:
  bool land(uint64_t applied);  // seeks there; after a scan that gave up, stays and returns false
  void startMove() const;       // resets the scan limit's count (every public move starts with it)
  // The index of the first event in [from, to) that `match(event, index, depth)` accepts, depth
  // counting the calls open before the event (`depth` of them at `from`). Reads the chunks the
  // replay decodes (Replay::chunkEvents), so a scan that ends in the cursor's chunk decodes nothing.
  template <class Match>
  std::optional<uint64_t> scanForward(uint64_t from, uint64_t to, std::size_t depth, Match&& match) const;
  // To just after the next event `wanted` accepts; with the timeline's `perBucket` counts, only
  // the stretches whose count is not zero are scanned.
  template <class Wanted>
  bool nextMarked(Wanted wanted, const std::vector<uint32_t>* perBucket);
  // The kReturn of the call whose kCall is `callEvent` (eventCount() if none), scanning from
  // `from`, where that call is the innermost of `open` calls.
  uint64_t returnOf(uint64_t from, uint64_t callEvent, std::size_t open) const;

  Replay& replay_;
  const CallTree* tree_;
  const TimelineIndex* timeline_;
  uint64_t scanLimit_ = UINT64_MAX;
  mutable uint64_t scanned_ = 0;  // events scanned by the current move
  mutable bool gaveUp_ = false;
};

/// The first call (in call order) reached from the root by playing `line` in `tree`: the root for
/// an empty line; nothing if the search never followed it. A depth-first walk that only enters
/// children whose move is the next of the line.
std::optional<uint32_t> findLine(const CallTree& tree, const MoveLine& line);

/// The root's replies of one of its iterations, as the search tree groups them under the root.
struct IterationGroup {
  int draft = 0;                ///< the root's iteration d
  uint64_t startEvent = 0;      ///< its kIteration event (the first reply's kCall when not known)
  std::vector<uint32_t> calls;  ///< the root's children called in it, in call order (moves, mate probe)
  uint32_t subtreeCalls = 0;    ///< calls made in it: those replies and every call below them
};

/// The root's children grouped by the iteration that called them (TreeNode::iteration), in order.
/// With `timeline`, every root iteration has its group, one that searched no move too (draft 1 of
/// a position without captures) and startEvent is its kIteration event; without, only the
/// iterations that called a reply, starting at their first reply's kCall.
std::vector<IterationGroup> iterationGroups(const CallTree& tree, const TimelineIndex* timeline = nullptr);

/// A group's row in the search tree: "iteration 3: 20 replies, 1234 calls"; a mate probe (a null
/// move, no reply) is counted apart: "iteration 2: 3 replies, then the mate probe; 4 calls".
std::string iterationGroupLabel(const CallTree& tree, const IterationGroup& group);

/// The group of the iteration the root is in at replay cursor `cursor` (events applied): the last
/// of `groups` whose startEvent has been applied; nothing before the first.
std::optional<std::size_t> iterationAt(const std::vector<IterationGroup>& groups, uint64_t cursor);

}  // namespace umax::trace
