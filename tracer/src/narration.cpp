// narration.cpp - the narration helpers (narration.h): the wording the kinds' narrations share
// with the rest of the view, what they read back from the trace, and narrate(), which picks the
// kind's own narration (in its section of event_kinds.cpp) for an event.
#include "umax/trace/narration.h"

#include <algorithm>

#include "umax/engine.h"
#include "umax/notation.h"
#include "umax/search_rules.h"

namespace umax::trace {

const char* side(int code) { return code == kWhite ? "white" : "black"; }

// I (80000) as "+I"; a bound beyond it, such as a reply's beta -80001
// (-l-(l>e) with l = I), as "-I-1": the pages' numbers, in I's terms.
std::string score(int value) {
  if (value >= kInfinity) return value == kInfinity ? "+I" : "+I+" + std::to_string(value - kInfinity);
  if (value <= -kInfinity) return value == -kInfinity ? "-I" : "-I-" + std::to_string(-kInfinity - value);
  return std::to_string(value);
}

const char* nodeType(int alpha, int beta, int score) {
  if (score >= beta) return "CUT";
  if (score <= alpha) return "ALL";
  return "PV";
}

bool isDoubleStep(const MoveRecord& move) {
  return (move.flags & kMoveHasF) && !(move.flags & kMoveCastling) && typeOf(move.piece) <= kDownwardPawn;
}

std::string describeMove(const MoveRecord& move) {
  static constexpr const char* kPieces[8] = {"?",    "pawn",   "pawn", "knight",
                                             "king", "bishop", "rook", "queen"};
  std::string text = moveName(move.from, move.to) + " (" + kPieces[typeOf(move.piece)];
  if (move.victim != 0)
    text += std::string(" takes ") + kPieces[typeOf(move.victim)] + " on " + squareName(move.captureSquare);
  if (move.flags & kMoveEnPassant) text += " e.p.";
  if (move.flags & kMoveCastling) text += ", castles: rook " + moveName(move.rookFrom, move.passedSquare);
  if (isDoubleStep(move)) text += ", double step skipping " + squareName(move.passedSquare);
  if (move.flags & kMovePromotion) text += ", promotes to a queen";
  return text + ")";
}

// The parent has no move on the board during the mate probe (and once the probe returned, the
// replay has already cleared the parent's mateProbe).
std::pair<int, int> childWindow(const Frame& parent, const SearchVariant& variant) {
  if (parent.mateProbe || !parent.moveOnBoard) return {kMateProbeCall.alpha, kMateProbeCall.beta};
  const Window window =
      replyWindow(variant, parent.call.alpha, parent.call.beta, parent.call.eval, parent.best);
  return {window.alpha, window.beta};
}

std::string boundText(const HashEntry& entry) {
  const bool lower = (entry.from & kLowerBoundBit) != 0, upper = (entry.from & kUpperBoundBit) != 0;
  if (lower && upper) return "exact";
  if (lower) return "lower bound (it failed high: at least " + score(entry.score) + ")";
  if (upper) return "upper bound (it failed low: at most " + score(entry.score) + ")";
  return "no bound";
}

// The call's last best-move event before its kIteration, else the move its hash probe found.
int iterationScanStart(const Replay& replay, uint64_t cursor) {
  int nested = 0;
  bool iterationSeen = false;
  for (uint64_t index = cursor; index-- > 0;) {
    const Event event = replay.eventAt(index);
    if (event.kind == EventKind::kReturn) {
      ++nested;
      continue;
    }
    if (event.kind == EventKind::kCall) {
      if (nested == 0) return 0;  // the call's own start: no probe (cannot happen)
      --nested;
      continue;
    }
    if (nested != 0) continue;
    if (event.kind == EventKind::kIteration) iterationSeen = true;
    if (!iterationSeen) continue;
    if (event.kind == EventKind::kBestMove) return bestMoveSquare(event.bestFrom);
    if (event.kind == EventKind::kProbe)
      return event.probe.outcome == ProbeOutcome::kHit ? bestMoveSquare(event.entry.from) : 0;
  }
  return 0;
}

int movesNotTried(const Replay& replay, const SearchState& state, const Frame& top) {
  // The search's own generator (Engine::generatedMoves) on the state's board. Only the engine's
  // board is used: its hash table is mapped but never touched.
  thread_local Engine engine;
  Position position;
  position.board = state.board();
  engine.setPosition(position);
  // The Lab without best-first scans from a8 (boardScanStart).
  const auto list =
      engine.generatedMoves(top.call.side, top.call.epSquare,
                            boardScanStart(state.variant(), iterationScanStart(replay, state.events())));
  const auto found = std::find_if(list.begin(), list.end(), [&](const Move& move) {
    return move.from == top.move.from && move.to == top.move.to;
  });
  if (top.move.flags & kMoveSneaked) return static_cast<int>(list.size()) - (found != list.end() ? 1 : 0);
  return found == list.end() ? 0 : static_cast<int>(list.end() - found) - 1;
}

// One case per kind: an EventKind holds one of the kinds of UMAX_SEARCH_EVENTS (RecordDecoder::decode refuses
// any other number), so the switch made from the same rows covers them all (-Wswitch).
std::string narrate(const Replay& replay, const Event& event, const SearchState& state) {
  const Narration narration{replay, event, state};
  std::string text;
  switch (event.kind) {
#define UMAX_TRACE_KIND_NARRATION(kind, site, record, name, hook, parameters) \
  case EventKind::kind:                                                       \
    text = narration.hook();                                                  \
    break;
    UMAX_SEARCH_EVENTS(UMAX_TRACE_KIND_NARRATION)
#undef UMAX_TRACE_KIND_NARRATION
  }
  return text;
}

}  // namespace umax::trace
