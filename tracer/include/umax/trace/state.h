/// \file state.h
/// \brief The state of a search between two events: the board and the stack of open calls.
///
/// SearchState applies events one at a time, the way the search itself
/// changed its variables: a move event makes the move on the board, a score
/// event takes it back, a call pushes a frame, a return pops it. It checks
/// each event against what it knows and throws TraceError when a trace
/// contradicts itself. The writer keeps one to write checkpoints; the replay
/// model restores a checkpoint and applies the events after it.
#pragma once

#include <cstdint>
#include <vector>

#include "umax/position.h"
#include "umax/search_rules.h"
#include "umax/trace/format.h"
#include "umax/trace/records.h"

namespace umax::trace {

/// Makes `move` for `side` on `board` as search.cpp's Step 11 does (the
/// board part of Engine::makeMove; G and F may be the dummy square 128).
/// The suite proves it against the engine's own for every move of many
/// searches (test_trace_make_move.cpp).
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
  bool mateProbe = false;    ///< the stalemate probe is running
  /// What this call's hash slot holds as far as the call can tell: the entry
  /// its probe found (with its lock, Z), then what its last store left there
  /// (a call below may have overwritten it since). Version 3 records a store's
  /// previous entry only when it is not this one.
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

  /// Applies the next event: the replay member its kind's row names (format.h's
  /// UMAX_TRACE_EVENT_KINDS). Throws TraceError (at byte `offset`, for the
  /// message) if the event cannot follow the state.
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

  /// Appends a checkpoint of this state (see format.h, footer).
  void save(std::vector<uint8_t>& out) const;
  /// Restores a state saved by save(); throws TraceError if the bytes are bad.
  void load(const uint8_t* data, std::size_t size, uint64_t offset);

 private:
  Frame& top(const Event& event, uint64_t offset);
  [[noreturn]] void inconsistent(const Event& event, uint64_t offset, const char* why) const;

  // The replay of each kind (the replay column of format.h's schema): checks
  // that the event can follow the state, then applies the kind's transition.
  // Declared from the schema's rows; each is defined below, beside its
  // transition.
#define UMAX_TRACE_REPLAY_MEMBER(kind, number, name, site, replay, narration) \
  void replay(const Event& event, uint64_t offset);
  UMAX_TRACE_EVENT_KINDS(UMAX_TRACE_REPLAY_MEMBER)
#undef UMAX_TRACE_REPLAY_MEMBER

  Board board_{};
  std::vector<Frame> stack_;
  uint64_t events_ = 0;
  uint64_t nodes_ = 0;
  uint64_t calls_ = 0;
  bool finished_ = false;
  int rootScore_ = 0;
};

// ---- the transitions: what each event does to the open calls ----------------
//
// One function per event kind, used by the Recorder on the engine's hooks
// and by SearchState::apply on the events read back, so that the two cannot
// disagree. Each does what the statements of Engine::search() that produce
// the event do to the call's variables (the step numbers are those of
// readable/src/search.cpp); the board is the caller's (the Recorder's is the
// engine's own). Beside each is its replay, the SearchState member that the
// kind's row in format.h names: the checks that the event can follow the
// state (a trace that contradicts itself is refused), then the transition.

/// A value as the signed char the search keeps it in.
[[gnu::always_inline]] inline int asSignedChar(int value) { return static_cast<int8_t>(value); }

/// kCall: `frame` becomes the new call's, at depth `ply`, its kCall being
/// event `event`. Field by field (a recorder reuses its frames: `frame =
/// Frame{}` compiles to a slow `rep stos`); its probe follows at once, and
/// a frame that has made no move has none in a checkpoint (movesMade 0).
[[gnu::always_inline]] inline void openCall(Frame& frame, const NodeCall& call, uint64_t event, int ply) {
  frame.call = call;
  frame.callEvent = event;
  frame.nodeNumber = 0;
  frame.ply = ply;
  frame.probed = false;
  frame.draft = frame.best = frame.bestFrom = frame.bestTo = 0;
  frame.moveOnBoard = false;
  frame.lastScore = frame.movesMade = 0;
  frame.cutoff = frame.mateProbe = false;
  frame.childScore = 0;
}

// D() is called: a new frame on the stack (the root's, or a reply to the
// move on the board, or the mate test's null move).
inline void SearchState::replayCall(const Event& event, uint64_t offset) {
  if (stack_.empty()) {
    if (events_ != 0) inconsistent(event, offset, "a second root call");
  } else {
    const Frame& parent = stack_.back();
    if (!parent.moveOnBoard && !parent.mateProbe) inconsistent(event, offset, "a call without a move");
    if (event.call.side != opponentOf(parent.call.side)) inconsistent(event, offset, "wrong side to move");
    if (stack_.size() >= kMaxStack) inconsistent(event, offset, "the stack is too deep");
  }
  const int ply = static_cast<int>(stack_.size());
  openCall(stack_.emplace_back(), event.call, events_, ply);
  ++calls_;
}

/// kProbe (Steps 1 and 2): what the probe found; on a hit `entry` is the
/// slot's (its lock is the call's Z, which a probe record leaves out).
[[gnu::always_inline]] inline void takeProbe(Frame& frame, const ProbeReport& report,
                                             const HashEntry& entry) {
  frame.probed = true;
  frame.probe = report;
  if (report.outcome == ProbeOutcome::kHit) {
    frame.probeEntry = entry;
    frame.probeEntry.lock = 0;
    frame.draft = report.endsNode ? entry.draft : hitStartDraft(entry.draft, frame.call.depth);
    frame.bestFrom = withoutBoundBits(entry.from);
    frame.bestTo = asSignedChar(hitStartBestTo(frame.draft, entry.to));
    frame.slotEntry = entry;
    frame.slotEntry.lock = static_cast<int32_t>(frame.call.hashLock);
  } else {  // a miss leaves draft, X and Y at 0 and keeps the empty entry
    // Two separate stores: `a = b = {}` would read b back before its stores are done.
    frame.probeEntry = HashEntry{};
    frame.slotEntry = HashEntry{};
    frame.draft = frame.bestFrom = frame.bestTo = 0;
  }
}

inline void SearchState::replayProbe(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.probed) inconsistent(event, offset, "a second probe in one call");
  if (event.probe.outcome != ProbeOutcome::kHit && event.probe.endsNode)
    inconsistent(event, offset, "a miss cannot end the node");
  takeProbe(frame, event.probe, event.entry);
}

inline void SearchState::replayNodeCounted(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (!frame.probed || frame.nodeNumber != 0 || frame.probe.endsNode)
    inconsistent(event, offset, "a node counted twice or before its probe");
  frame.nodeNumber = ++nodes_;
}

/// kIteration (Step 4): the iteration to `draft` starts; the last best
/// move gets its sneak bit.
[[gnu::always_inline]] inline void startIteration(Frame& frame, int draft) {
  frame.draft = draft;
  frame.bestTo = asSignedChar(withSneakBit(frame.bestTo));
  frame.best = iterationStartBest(draft, frame.call.eval);
  frame.cutoff = false;
}

inline void SearchState::replayIteration(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.nodeNumber == 0 || frame.moveOnBoard || frame.mateProbe)
    inconsistent(event, offset, "an iteration outside a counted node");
  if (event.value != frame.draft + 1) inconsistent(event, offset, "the draft does not go up by one");
  startIteration(frame, event.value);
}

/// kKingCapture (Step 8): the node is won.
[[gnu::always_inline]] inline void takeKingCapture(Frame& frame) { frame.best = kInfinity; }

inline void SearchState::replayKingCapture(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.moveOnBoard) inconsistent(event, offset, "a king capture during a move");
  takeKingCapture(frame);
}

/// kCutoff (Step 9): the iteration failed high.
[[gnu::always_inline]] inline void takeCutoff(Frame& frame) { frame.cutoff = true; }

inline void SearchState::replayCutoff(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.moveOnBoard || event.value != frame.best)
    inconsistent(event, offset, "a cutoff with another score");
  takeCutoff(frame);
}

/// kMoveMade (Step 11): the move in frame.move is on the board.
[[gnu::always_inline]] inline void takeMoveMade(Frame& frame) {
  frame.moveOnBoard = true;
  ++frame.movesMade;
}

inline void SearchState::replayMoveMade(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  const MoveRecord& move = event.move;
  if (frame.nodeNumber == 0 || frame.moveOnBoard || frame.cutoff)
    inconsistent(event, offset, "a move outside a counted node's scan");
  if (board_[move.from] != move.piece || !(move.piece & frame.call.side) ||
      board_[move.captureSquare] != move.victim)
    inconsistent(event, offset, "the move does not match the board");
  makeMove(board_, move, frame.call.side);
  frame.move = move;
  takeMoveMade(frame);
}

/// kMoveScored (Steps 12-15): the move is taken back with `score`; the
/// sneaked move's score is the iteration's first best, its bit cleared.
[[gnu::always_inline]] inline void takeMoveScored(Frame& frame, int score) {
  frame.moveOnBoard = false;
  frame.lastScore = score;
  if (frame.move.flags & kMoveSneaked) {
    frame.best = score;
    frame.bestTo = asSignedChar(frame.bestTo & ~kSneakBit);
  }
}

inline void SearchState::replayMoveScored(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (!frame.moveOnBoard) inconsistent(event, offset, "a score without a move");
  unmakeMove(board_, frame.move, frame.call.side);
  takeMoveScored(frame, event.value);
}

/// kBestMove (Step 16): a new best score and move.
[[gnu::always_inline]] inline void takeBestMove(Frame& frame, int best, int from, int to) {
  frame.best = best;
  frame.bestFrom = from;
  frame.bestTo = asSignedChar(to);
}

inline void SearchState::replayBestMove(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.moveOnBoard) inconsistent(event, offset, "a best move during a move");
  takeBestMove(frame, event.best, event.bestFrom, event.bestTo);
}

/// kMateProbe (Step 17): the stalemate probe starts.
[[gnu::always_inline]] inline void startMateProbe(Frame& frame) {
  frame.draft = kMateDraft;
  frame.mateProbe = true;
}

inline void SearchState::replayMateProbe(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.best != -kInfinity || frame.moveOnBoard) inconsistent(event, offset, "a mate probe with a move");
  startMateProbe(frame);
}

/// The draft Step 18 stores: a mate score holds at any depth (kMateDraft).
[[gnu::always_inline]] inline int storedDraft(const Frame& frame) {
  return isMateScore(frame.best) ? kMateDraft : frame.draft;
}

/// kStore (Step 18): the draft becomes the stored one, and the call's slot
/// holds `entry` (the new entry if written, else the one it kept).
[[gnu::always_inline]] inline void takeStore(Frame& frame, const HashEntry& entry) {
  frame.draft = storedDraft(frame);
  frame.slotEntry = entry;
}

inline void SearchState::replayStore(const Event& event, uint64_t offset) {
  Frame& frame = top(event, offset);
  if (frame.moveOnBoard || frame.mateProbe || frame.nodeNumber == 0)
    inconsistent(event, offset, "a store in the middle of a scan");
  if (event.slot != frame.probe.slot) inconsistent(event, offset, "a store to another slot than the probe's");
  takeStore(frame, event.after);
  if (event.written && (event.after.score != frame.best || event.after.draft != asSignedChar(frame.draft)))
    inconsistent(event, offset, "the stored entry does not hold the node's score and draft");
}

/// kReturn (Step 19), seen from `parent`: the call below returned `score`,
/// which also answers a stalemate probe (a damaged trace's INT_MIN wraps).
[[gnu::always_inline]] inline void takeChildScore(Frame& parent, int score) {
  parent.childScore = score;
  if (parent.mateProbe) {
    parent.best = mateTestBest(score);
    parent.mateProbe = false;
  }
}

// D() returns: its frame leaves the stack, and the parent takes the score.
inline void SearchState::replayReturn(const Event& event, uint64_t offset) {
  const Frame& frame = top(event, offset);
  if (!frame.probed || frame.moveOnBoard || frame.mateProbe)
    inconsistent(event, offset, "a return in the middle of a scan");
  if (!frame.probe.endsNode && event.best != frame.best)
    inconsistent(event, offset, "the return value is not the best score");
  stack_.pop_back();
  if (stack_.empty()) {
    finished_ = true;
    rootScore_ = event.best;
  } else {
    takeChildScore(stack_.back(), event.best);
  }
}

/// Appends a checkpoint (see format.h, footer): the board, the counters and
/// the open calls `frames[0, depth)`, root first. SearchState::save writes
/// its own state with it; the Recorder writes the state it keeps while
/// recording, with the engine's own board.
/// Each frame also holds its slotEntry and childScore (what its records
/// leave out).
void saveCheckpoint(const Board& board, const Frame* frames, std::size_t depth, uint64_t events,
                    uint64_t nodes, uint64_t calls, std::vector<uint8_t>& out);

}  // namespace umax::trace
