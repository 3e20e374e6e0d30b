// search_seam.h - what search.cpp does that is not the search: the hooks
// through which a traced search tells its observer every event and any
// search asks memory for what it will read (prefetch), and the stop flag of
// a think.
//
// None of it changes what the search computes or stores. In the untraced
// search (Observer = NoObserver) every event hook does nothing: the call and its
// arguments, computed only for it, vanish: the untraced search compiles as
// if the hooks were absent.
#pragma once

#include <type_traits>

#include "moves.h"
#include "umax/engine.h"

namespace umax {

// Throws ThinkAborted at a counted node when the stop flag is up;
// Engine::thinkWith() catches it. Unwinding skips every store and undo on
// the way out, so the hash table keeps only what finished nodes wrote, and
// thinkWith() restores the board. The flag costs nothing while it is down.
[[gnu::always_inline]] inline void Engine::stopIfAsked() const {
  if (stop_->load(std::memory_order_relaxed)) [[unlikely]]
    throw ThinkAborted{};
}

// Step 3's count, ++N, written as an atomic store of N + 1 (setNodeCount), so
// that another thread may read the count while the search runs
// (Engine::thinkNodes: analysis that posts every second). Not an atomic
// increment (`lock add`, a bus lock at every node): only this thread writes
// N. The untraced search compiles to the same code as with `++nodes_` but
// for this one instruction, `addl $1, N` become a load, an add and a store.
[[gnu::always_inline]] inline void Engine::countNode() { setNodeCount(nodes_ + 1); }

// ---- The hooks -----------------------------------------------------------------

/// Everything the search does besides the search, one call per place,
/// named after the SearchObserver hook it calls:
/// `hooks<Observer>().onMoveMade(...)`, so that `grep onMoveMade` finds the
/// step of search.cpp that reports it. Each event call tells
/// Engine::observer_ one event (search_observer.h names the step of each)
/// when the search has an observer, and does nothing otherwise; onStoreBegins, before the
/// store, keeps what onStore needs. replyKeyKnown, the one call that is not
/// an event, asks memory for what the reply will read, in both searches.
template <class Observer>
struct Engine::Hooks {
  /// False in the ordinary search (NoObserver): every event hook does nothing.
  static constexpr bool kTraced = !std::is_same_v<Observer, NoObserver>;
  Engine& engine;
  /// The observer, as its class: the hooks of a final class (the trace
  /// recorder's) are called directly, not through SearchObserver's table
  /// (Engine::CompiledSearch).
  [[gnu::always_inline]] Observer& observer() const { return *static_cast<Observer*>(engine.observer_); }

  // One call per row of UMAX_SEARCH_EVENTS, named as its hook, that passes
  // the search's values on as they are: `hooks<Observer>().onCutoff(best)`
  // calls observer_->onCutoff(best). The values are passed on by value
  // (const references here made the traced search run 2,101 more
  // instructions in 100,000 nodes, cachegrind); so onMoveMade gets a copy
  // of the move: a reference to the generator's own move would make the
  // compiler keep that move in memory, not in registers, through the whole
  // traced scan. search.cpp calls these for the rows whose hook takes the
  // search's values as they are (onIteration, onKingCapture, onCutoff,
  // onMoveMade, onMoveScored, onMateProbe).
#define UMAX_SEARCH_SEAM_CALL(kind, site, record, name, hook, parameters) \
  template <class... Values>                                              \
  [[gnu::always_inline]] void hook(Values... values) const {              \
    if constexpr (kTraced) observer().hook(values...);                    \
  }
  UMAX_SEARCH_EVENTS(UMAX_SEARCH_SEAM_CALL)
#undef UMAX_SEARCH_SEAM_CALL

  // The other hooks are called by the members below, named as the hook
  // they call, which compute what it needs from the node first, or do more.
  // Each is a plain function whose parameters are exactly the types
  // search.cpp passes, so overload resolution prefers it to the template
  // of the same name above (an equally good match that is not a template
  // wins); given other values, that template would pass them to the
  // observer's hook, which takes none of them: the traced search would
  // not compile.

  /// onEnter: kCall, kProbe, then kReturn or kNodeCounted (Steps 1-3), in
  /// one hook, with the probe's ProbeReport worked out from the entry.
  [[gnu::always_inline]] void onEnter(const Node& node, const HashEntry& entry) const {
    if constexpr (kTraced) {
      ProbeReport report;
      report.firstSlot = engine.firstProbeSlot(node.side, node.epSquare, node.hashKey);
      report.slot = engine.slotOf(entry);
      if (report.slot == kDummySlot) {
        report.slotsProbed = kProbeSlots;
        report.outcome = ProbeOutcome::kFull;
      } else {
        report.slotsProbed = static_cast<int>(report.slot - report.firstSlot);
        report.outcome = entry.lock != 0 ? ProbeOutcome::kHit : ProbeOutcome::kMiss;
      }
      report.endsNode = entry.lock != 0 && storedScoreSettles(entry, node.depth, node.alpha, node.beta);
      observer().onEnter({node.side, node.alpha, node.beta, node.eval, node.hashKey, node.hashLock,
                          node.epSquare, node.lastTo, node.depth},
                         report, entry, engine.nodes_ + 1);
    }
  }
  /// Not an event: the reply's hash key is known before the move is made.
  [[gnu::always_inline]] void replyKeyKnown(Node& node, const Move& move, uint32_t replyKey) const {
    engine.prefetchLaterReplies(node);
    engine.prefetchProbeWindow(opponentOf(node.side), move.passedSquare, replyKey);
  }
  /// onBestMove: Step 16 found a better move; at the root of a think a
  /// listener may be told (setRootMoveListener): one test of a flag, in
  /// both searches.
  [[gnu::always_inline]] void onBestMove(const Node& node) const {
    if constexpr (kTraced) observer().onBestMove(node.best, node.bestFrom, node.bestTo);
    if (engine.tellRootMoves_ && node.lastTo == kThinkMarker) [[unlikely]]
      engine.rootMoveChanged(node.draft, node.best, node.bestFrom,
                             static_cast<int8_t>(node.bestTo & ~kBestToFlags));
  }
  /// Step 18 begins: the traced search keeps the slot as it was, for onStore.
  [[gnu::always_inline]] void onStoreBegins(const HashEntry& entry) const {
    if constexpr (kTraced) engine.entryBeforeStore_ = entry;
  }
  /// onStore: Step 18 stored into `entry` (or refused to: `written`).
  [[gnu::always_inline]] void onStore(const HashEntry& entry, bool written) const {
    if constexpr (kTraced) observer().onStore(engine.slotOf(entry), engine.entryBeforeStore_, entry, written);
  }
  /// onReturn: Step 19, the call returns.
  [[gnu::always_inline]] void onReturn(const Node& node) const {
    if constexpr (kTraced) observer().onReturn(node.best, node.bestFrom, node.bestTo, node.draft);
  }
};

template <class Observer>
[[gnu::always_inline]] inline Engine::Hooks<Observer> Engine::hooks() {
  return Hooks<Observer>{*this};
}

// ---- Memory hints -------------------------------------------------------------

// Asks the memory system for the first slot a probe of this position will
// read (the slot after (k*E ^ J) & mask), so that it is on its way while the
// search still makes the move and prepares the call (Step 11). If
// prefetchLaterReplies asked for it already, this second request finds the
// line in the cache and costs almost nothing. Most probes stop at that
// slot: an empty one (a new position) or the position's own.
[[gnu::always_inline]] inline void Engine::prefetchProbeWindow(int side, int epSquare,
                                                               uint32_t hashKey) const {
  table_.prefetch(firstProbeSlot(side, epSquare, hashKey) + 1);
}

// Asks the memory system, all at once, for the first probe slot of every
// reply the current iteration may search: a pass of the generator that only
// computes each move's reply key. The reads overlap instead of each reply
// waiting for its own. Once per full-width iteration (draft 2 or more: every
// move is searched), when the first move that was not sneaked in is about to
// be searched. If the sneaked-in best move fails high, no other move is
// searched and the pass is saved (about half of the full-width iterations of
// the bench's searches end so). Quiescence searches only recaptures: no pass.
[[gnu::always_inline]] inline void Engine::prefetchLaterReplies(Node& node) {
  if (node.repliesPrefetched == node.draft || (node.bestTo & kSneakBit) || node.draft <= kQuiescenceDraft)
    return;
  node.repliesPrefetched = static_cast<int8_t>(node.draft);
  int8_t noHint = 0;
  generateMoves(
      node.side, node.epSquare, 0, noHint, [&](const Move& move) __attribute__((always_inline)) {
        prefetchProbeWindow(opponentOf(node.side), move.passedSquare,
                            node.hashKey + keyChange(kKeySalt, move, moves::arrivingPiece(move)));
        return Verdict::kNext;
      });
}

}  // namespace umax
