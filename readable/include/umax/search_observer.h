/// \file search_observer.h
/// \brief The hook interface through which a search can be watched, event by event.
///
/// The readable engine knows nothing of trace files. It offers one thing: a
/// think that reports every step of the search to a SearchObserver. Which of
/// the two searches runs is decided at compile time (`Engine::search<kTraced>`):
/// in the untraced instantiation every hook is removed by `if constexpr`, so
/// an ordinary think does exactly the machine work it did before the hooks
/// existed. The tracer (tracer/) implements this interface and writes the
/// events to a file.
///
/// Each hook names the place in the search that calls it; SearchSite gives
/// those places stable numbers that the line map (readable/line_map.json,
/// "sites") turns into lines of both builds.
#pragma once

#include <cstdint>

namespace umax {

struct HashEntry;
struct Move;

/// The places in the search that report events, each at a numbered step of
/// search.cpp (the comments give the step). The enum values are part of the
/// trace format: never renumber them, whatever happens to the steps.
enum class SearchSite : uint8_t {
  kCall = 1,         ///< D() is entered with its nine arguments
  kProbe = 2,        ///< Step 1: the hash probe
  kHashCutoff = 3,   ///< Step 2: a stored score settles the window: return at once
  kNodeCounted = 4,  ///< Step 3: N++, the call became a counted node
  kIteration = 5,    ///< Step 4: an iteration of the deepening loop starts
  kKingCapture = 6,  ///< Step 8: a move captures the king (or a castling was illegal)
  kCutoff = 7,       ///< Step 9: best >= beta: fail high, stop the scan
  kMoveMade = 8,     ///< Step 11: a move is done on the board, its reply is searched next
  kMoveScored = 9,   ///< Step 14: the move is undone; its reply's score (Step 12) is final
  kBestMove = 10,    ///< Step 16: a new best move
  kMateProbe = 11,   ///< Step 17: no move saved the king: probe for stalemate
  kStore = 12,       ///< Step 18: the hash store (or its refusal)
  kReturn = 13,      ///< Step 19: D() returns its score
};

/// The nine arguments of one call of the search. // micro-Max: D(k,q,l,e,J,Z,E,z,n)
struct NodeCall {
  int side = 0;           ///< k
  int alpha = 0;          ///< q
  int beta = 0;           ///< l
  int eval = 0;           ///< e
  uint32_t hashKey = 0;   ///< J
  uint32_t hashLock = 0;  ///< Z
  int epSquare = 0;       ///< E
  int lastTo = 0;         ///< z
  int depth = 0;          ///< n
};

/// How a hash probe ended.
enum class ProbeOutcome : uint8_t {
  kMiss = 0,  ///< an empty slot was found in the window: the position is new
  kHit = 1,   ///< a slot holds this position's lock
  kFull = 2,  ///< all slots of the window hold other positions: the dummy slot 0 is used
};

/// What the hash probe of one call found.
struct ProbeReport {
  uint32_t firstSlot = 0;  ///< (k*E ^ J) & (U-9); the window starts one past it
  uint32_t slot = 0;       ///< the slot the node uses (0 = the dummy)
  int slotsProbed = 0;     ///< 1..9
  /// How the probe ended: hit, miss or full window.
  ProbeOutcome outcome = ProbeOutcome::kMiss;
  bool endsNode = false;  ///< the stored score was returned at once (Step 2)
};

/// Receives the events of a traced think. Every hook is called from one
/// site of search.cpp's search; the comment of each names it. The board the
/// engine holds is in the state the hook describes (a move is on the board
/// from onMoveMade until onMoveScored).
class SearchObserver {
 public:
  // Every hook does nothing unless overridden: an observer overrides the events it wants.
  virtual ~SearchObserver() = default;
  /// The start of every call, in one hook: kCall, kProbe, then kReturn if
  /// the probe ended the node (Step 2), else kNodeCounted with the count
  /// Step 3 is about to reach (`nodeCount`). Nothing happens in between that
  /// an observer could see, so one call through the interface does for
  /// three. By default it calls those hooks in that order (engine.cpp);
  /// the trace recorder overrides it.
  virtual void onEnter(const NodeCall& call, const ProbeReport& report, const HashEntry& entry,
                       int nodeCount);
  /// kCall: the search was called; `call` holds its nine arguments.
  virtual void onCall([[maybe_unused]] const NodeCall& call) {}
  /// kProbe / kHashCutoff: the hash probe's result and the entry it found
  /// (an empty entry on a miss).
  virtual void onProbe([[maybe_unused]] const ProbeReport& report, [[maybe_unused]] const HashEntry& entry) {}
  /// kNodeCounted: the node counter was incremented to `nodeCount`.
  virtual void onNodeCounted([[maybe_unused]] int nodeCount) {}
  /// kIteration: an iteration to `draft` starts.
  virtual void onIteration([[maybe_unused]] int draft) {}
  /// kKingCapture: the move `from` -> `to` captures the king, or lands on or
  /// next to the square a castling king passed (`badCastling`). Its squares
  /// only: a whole Move here made the traced search copy every move it looks
  /// at, since the copy for onMoveMade was shared with this rare one.
  virtual void onKingCapture([[maybe_unused]] int from, [[maybe_unused]] int to,
                             [[maybe_unused]] bool badCastling) {}
  /// kCutoff: best >= beta, the scan stops.
  virtual void onCutoff([[maybe_unused]] int best) {}
  /// kMoveMade: `move` is on the board; its reply is searched to `remaining`.
  /// `sneaked` marks the previous iteration's best move, tried first.
  virtual void onMoveMade([[maybe_unused]] const Move& move, [[maybe_unused]] int remaining,
                          [[maybe_unused]] bool sneaked) {}
  /// kMoveScored: the move is taken back; `score` is its value for the mover.
  virtual void onMoveScored([[maybe_unused]] int score) {}
  /// kBestMove: a new best score with its move.
  virtual void onBestMove([[maybe_unused]] int best, [[maybe_unused]] int from, [[maybe_unused]] int to) {}
  /// kMateProbe: no legal move kept the king: the null-move probe follows.
  virtual void onMateProbe() {}
  /// kStore: the hash store at the end of an iteration. `before` is the slot
  /// as it was, `after` as it is now; `written` is false when the store was
  /// refused (an exact score of a deeper search is kept).
  virtual void onStore([[maybe_unused]] uint32_t slot, [[maybe_unused]] const HashEntry& before,
                       [[maybe_unused]] const HashEntry& after, [[maybe_unused]] bool written) {}
  /// kReturn: the call returns `score`; the best move and draft it ends with.
  /// Not called at Step 19 for an observer whose wantsReturns() is false (a
  /// hash cutoff's return still comes through onEnter).
  virtual void onReturn([[maybe_unused]] int score, [[maybe_unused]] int bestFrom,
                        [[maybe_unused]] int bestTo, [[maybe_unused]] int draft) {}
  /// False if this observer works out each return of Step 19 itself, so that
  /// the search need not call onReturn: one call less per node. An observer
  /// that keeps the open calls' variables can: a call returns after the store
  /// of the iteration that Step 4's loop does not follow, with its best score
  /// and move and the loop counter one past its draft. The trace recorder
  /// does so. Asked once, when a think starts.
  virtual bool wantsReturns() const { return true; }
};

}  // namespace umax
