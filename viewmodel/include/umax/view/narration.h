/// \file narration.h
/// \brief The sentence that says what an event did and why, and the wording it shares with the view.
///
/// What the narration of an event knows, and the narration helpers: the wording the kinds'
/// narrations share with the rest of the view model, and what they read back from the trace.
/// The sentence that narrates a kind is the Narration member named after its hook
/// (Narration::onMateProbe), in narration.cpp; each follows the statements of Engine::search()
/// that made the event (readable/src/search.cpp's step numbers are given where they help). A
/// kind with no member of its own (one added after the twelve of format 6) is told by
/// Narration::generic, from its row's fields (umax/trace/fields.h). narrate() picks the member
/// for an event.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "umax/search_observer.h"
#include "umax/trace/format.h"
#include "umax/trace/replay.h"
#include "umax/trace/state.h"

namespace umax::trace {

/// "white" or "black", the side `code` (8 or 16) names.
const char* side(int code);

/// A score in the pages' terms: I (80000) as "+I", a bound beyond it as "-I-1".
std::string score(int value);

/// Node type of a call that returned `score` from the window (alpha, beta): "CUT" (failed high,
/// score >= beta: a move refuted the opponent's), "ALL" (failed low, score <= alpha: every move
/// was tried and none reached alpha) or "PV" (exact, inside the window).
const char* nodeType(int alpha, int beta, int score);

/// A pawn's double step (F is the square it skipped), not a castling (F is the rook's square).
bool isDoubleStep(const MoveRecord& move);

/// A move with its piece and what is special about it: "e2e4 (pawn, double step skipping e3)".
std::string describeMove(const MoveRecord& move);

/// The window a call below `parent` was given for its move (Step 12, by the rule of the think's
/// `variant`), or the mate probe's.
std::pair<int, int> childWindow(const Frame& parent, const SearchVariant& variant);

/// An entry's bound in words, with its score: "exact", "lower bound (it failed high: at least 35)".
std::string boundText(const HashEntry& entry);

/// Where the board scan of the current iteration of the innermost call open at `cursor` started
/// (Step 4: B = X): its best move's from-square when the iteration began, read back from the
/// trace (0 when there was none: a miss).
int iterationScanStart(const Replay& replay, uint64_t cursor);

/// How many moves the generator still had for `top` when its move `top.move` failed high: the
/// moves after it in the generator's order (after a sneaked-in best move: all the others, since
/// the scan had not begun). `state` is the state at the cutoff.
int movesNotTried(const Replay& replay, const SearchState& state, const Frame& top);

/// What the narration of one event knows: the event just applied, the
/// state after it (its open calls, the innermost `top`) and the replay (for
/// the events before it). Each kind of format 6 has its member, named as the
/// kind's hook (search_observer.h, UMAX_SEARCH_EVENTS).
struct Narration {
  const Replay& replay;                                                     ///< the events before it
  const Event& event;                                                       ///< the event just applied
  const SearchState& state;                                                 ///< the state after it
  const std::vector<Frame>& stack = state.stack();                          ///< its open calls
  const uint64_t cursor = state.events();                                   ///< events applied
  const Frame* top = stack.empty() ? nullptr : &stack.back();               ///< the innermost open call
  const std::string at = top ? " at ply " + std::to_string(top->ply) : "";  ///< " at ply N"

  std::string onCall() const;         ///< who answers which move, with what window, depth and eval
  std::string onProbe() const;        ///< a miss, a full window or a hit, and what the hit decides
  std::string onNodeCounted() const;  ///< N++: the node is counted
  std::string onIteration() const;    ///< an iteration starts, and where best m starts
  std::string onKingCapture() const;  ///< the king is taken, or a castling was illegal
  std::string onCutoff() const;       ///< the iteration failed high, and what was not searched
  std::string onMoveMade() const;     ///< a move is tried, and the depth its reply gets
  std::string onMoveScored() const;   ///< the move's score, against the best so far
  std::string onBestMove() const;     ///< a new best move, against the window
  std::string onMateProbe() const;    ///< the mate probe starts
  std::string onStore() const;        ///< the hash store: refused, new, replacing or updating
  std::string onReturn() const;       ///< the call returns: its node type, and what its parent makes of it
  /// A kind without a sentence of its own: its name, where, and its row's fields with their
  /// values ("dummy at ply 2: a = 1, b = 2").
  std::string generic() const;
};

/// The narration of `event`, the event just applied: its kind's Narration member. `state` is the
/// state after it.
std::string narrate(const Replay& replay, const Event& event, const SearchState& state);

}  // namespace umax::trace
