/// \file state.h
/// \brief The state of a search between two events: the board and the stack of open calls.
///
/// SearchState applies events one at a time, as the search changed its
/// variables (a move event makes the move on the board, a return pops a
/// frame, ...), and refuses with a TraceError a trace that contradicts itself.
#pragma once

#include <cstdint>
#include <vector>

#include "umax/position.h"
#include "umax/search_rules.h"
#include "umax/trace/format.h"
#include "umax/trace/records.h"

namespace umax::trace {

/// Makes `move` for `side` on `board` as search.cpp's Step 11 does (G and F
/// may be the dummy square 128); test_trace_make_move.cpp holds it against the engine's.
void makeMove(Board& board, const MoveRecord& move, int side);

/// Takes `move` back as search.cpp's Step 14 does (Engine::unmakeMove).
void unmakeMove(Board& board, const MoveRecord& move, int side);

/// One open call of the search with its variables as they are now. The
/// one-letter names are the original's.
struct Frame {
  NodeCall call;             ///< k q l e J Z E z n
  uint64_t callEvent = 0;    ///< index of its kCall event
  uint64_t nodeNumber = 0;   ///< 1-based counted-node number; 0 until N++ (and for hash cutoffs)
  int ply = 0;               ///< 0 at the root
  ProbeReport probe;         ///< where its hash slot a is
  HashEntry probeEntry;      ///< the entry the probe found (on a hit)
  bool probed = false;       ///< the probe event has been seen
  int draft = 0;             ///< d, the current iteration
  int best = 0;              ///< m, the best score so far
  int bestFrom = 0;          ///< X (square only)
  int bestTo = 0;            ///< Y, as the signed char the search keeps (flag bits included)
  MoveRecord move;           ///< the move being searched, or the last one
  bool moveOnBoard = false;  ///< between kMoveMade and kMoveScored
  int lastScore = 0;         ///< v, the last move's score
  int movesMade = 0;         ///< moves made in this call so far (all iterations)
  bool cutoff = false;       ///< the current iteration failed high
  bool mateProbe = false;    ///< the mate probe is running
  /// What this call's hash slot holds as far as the call can tell: the entry
  /// its probe found (with its lock, Z), then what its last store left there
  /// (a call below may have overwritten it since). A store's record holds the
  /// slot's previous entry only when it is not this one.
  HashEntry slotEntry;
  int childScore = 0;  ///< what the last call below this one returned
};

/// The deepest stack a checkpoint may hold; a search never comes near it.
inline constexpr std::size_t kMaxStack = 1024;

/// The search's state between events, rebuilt from the trace.
class SearchState {
 public:
  /// The state before the first event of a trace with this header.
  explicit SearchState(const TraceHeader& header);

  /// Applies the next event with the replay member named as its kind's hook
  /// (onMateProbe replays a mate probe). Throws TraceError (naming byte
  /// `offset`) if the event cannot follow the state.
  void apply(const Event& event, uint64_t offset = 0);

  /// The board as the search has it now (with the dummy square 128).
  const Board& board() const { return board_; }
  /// The open calls, root first.
  const std::vector<Frame>& stack() const { return stack_; }
  /// Events applied so far.
  uint64_t events() const { return events_; }
  /// Counted nodes so far (kNodeCounted events).
  uint64_t nodes() const { return nodes_; }
  /// Calls so far (kCall events, counted or not).
  uint64_t calls() const { return calls_; }
  /// True once the root call has returned.
  bool finished() const { return finished_; }
  /// The root's score, valid once finished().
  int rootScore() const { return rootScore_; }
  /// The Lab's switches the search ran with (the header's): the rules the replay applies.
  const SearchVariant& variant() const { return variant_; }

  /// Appends a checkpoint of this state (see format.h, footer).
  void save(std::vector<uint8_t>& out) const;
  /// Restores a state saved by save(); throws TraceError if the bytes are bad.
  void load(const uint8_t* data, std::size_t size, uint64_t offset);

 private:
  Frame& top(const Event& event, uint64_t offset);
  [[noreturn]] void inconsistent(const Event& event, uint64_t offset, const char* why) const;

  // One replay member per row of UMAX_SEARCH_EVENTS, in event_kinds.cpp.
#define UMAX_TRACE_REPLAY_MEMBER(kind, site, record, name, hook, parameters) \
  void hook(const Event& event, uint64_t offset);
  UMAX_SEARCH_EVENTS(UMAX_TRACE_REPLAY_MEMBER)
#undef UMAX_TRACE_REPLAY_MEMBER

  Board board_{};
  std::vector<Frame> stack_;
  uint64_t events_ = 0;
  uint64_t nodes_ = 0;
  uint64_t calls_ = 0;
  bool finished_ = false;
  int rootScore_ = 0;
  SearchVariant variant_;
};

/// A value as the signed char the search keeps it in.
[[gnu::always_inline]] inline int asSignedChar(int value) { return static_cast<int8_t>(value); }

/// The draft Step 18 stores (the rule storedDraft in search_rules.h).
[[gnu::always_inline]] inline int storedDraft(const Frame& frame) {
  return umax::storedDraft(frame.draft, frame.best);
}

/// Appends a checkpoint (the footer's, format.h): the board, the counters and
/// the open calls `frames[0, depth)`, root first (SearchState::save's, or the
/// Recorder's with the engine's board).
void saveCheckpoint(const Board& board, const Frame* frames, std::size_t depth, uint64_t events,
                    uint64_t nodes, uint64_t calls, std::vector<uint8_t>& out);

}  // namespace umax::trace
