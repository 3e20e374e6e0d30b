/// \file narration.h
/// \brief The sentence that says what an event did and why, and the wording it shares with the view.
///
/// What the narration of an event knows, and the narration helpers: the wording the kinds'
/// narrations share with the view model (viewmodel/, which shows the sentence), and what they
/// read back from the trace (defined in narration.cpp). The sentence that narrates a kind, the
/// Narration member named after its hook (Narration::onMateProbe), is in event_kinds.cpp, in the
/// kind's section beside its transition, replay and recorder hook; each follows the statements
/// of Engine::search() that made the event (readable/src/search.cpp's step numbers are given
/// where they help). narrate() picks the member for an event.
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
/// the events before it). Each kind has its member, named as the kind's
/// hook (search_observer.h, UMAX_SEARCH_EVENTS), defined in the kind's
/// section of event_kinds.cpp.
struct Narration {
  const Replay& replay;                                                     ///< the events before it
  const Event& event;                                                       ///< the event just applied
  const SearchState& state;                                                 ///< the state after it
  const std::vector<Frame>& stack = state.stack();                          ///< its open calls
  const uint64_t cursor = state.events();                                   ///< events applied
  const Frame* top = stack.empty() ? nullptr : &stack.back();               ///< the innermost open call
  const std::string at = top ? " at ply " + std::to_string(top->ply) : "";  ///< " at ply N"

  // One member per row of UMAX_SEARCH_EVENTS, named after its hook (left out of the reference:
  // each is documented in its kind's section of event_kinds.cpp).
  /// \cond
#define UMAX_TRACE_NARRATION_MEMBER(kind, site, record, name, hook, parameters) std::string hook() const;
  UMAX_SEARCH_EVENTS(UMAX_TRACE_NARRATION_MEMBER)
#undef UMAX_TRACE_NARRATION_MEMBER
  /// \endcond
};

/// The narration of `event`, the event just applied: its kind's Narration member. `state` is the
/// state after it.
std::string narrate(const Replay& replay, const Event& event, const SearchState& state);

}  // namespace umax::trace
