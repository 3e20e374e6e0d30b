// narration.cpp - the sentence that says what an event did and why (narration.h): the helpers the
// kinds' narrations share, each kind's narration in the order of UMAX_SEARCH_EVENTS, the generic
// one of a kind that has none, and narrate(), which picks one for an event.
#include "umax/view/narration.h"

#include <algorithm>

#include "umax/engine.h"
#include "umax/notation.h"
#include "umax/search_rules.h"
#include "umax/trace/fields.h"

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

// ---- each kind's sentence ---------------------------------------------------------

// A call: who answers which move, with what window, depth and eval.
std::string Narration::onCall() const {
  const NodeCall& c = event.call;
  std::string text;
  if (stack.size() == 1) {
    text = "the root call: " + std::string(side(c.side)) + " to move";
  } else {
    const Frame& parent = stack[stack.size() - 2];
    text = parent.mateProbe ? "the mate probe: " + std::string(side(c.side)) +
                                  " moves twice in a row (a null move), to see whether it can take the king"
                            : std::string(side(c.side)) + " answers " + side(parent.call.side) + "'s " +
                                  moveName(parent.move.from, parent.move.to);
  }
  return text + " (ply " + std::to_string(top->ply) + "): window [" + score(c.alpha) + ", " + score(c.beta) +
         "], depth n = " + std::to_string(c.depth) + ", eval e = " + std::to_string(c.eval);
}

// The hash probe: a miss, a full window or a hit, and what the hit decides.
std::string Narration::onProbe() const {
  const ProbeReport& probe = event.probe;
  const SearchVariant& variant = state.variant();
  if (!usesHashTable(variant))
    return "no hash table" + at +
           " (the Lab, without hash): the node takes the dummy slot 0, which always looks empty; it "
           "searches from scratch" +
           (variant.lacks(Idea::kDeepening) ? " at draft " + std::to_string(top->draft + 1) : "") +
           " and stores nothing";
  const std::string from = variant.lacks(Idea::kDeepening) ? "at draft " + std::to_string(top->draft + 1) +
                                                                 " at once (the Lab, without deepening)"
                                                           : "from draft 1";
  if (probe.outcome == ProbeOutcome::kMiss)
    return "hash miss" + at + ": slot " + std::to_string(probe.slot) +
           " is empty, the position is new; the node searches " + from + " and will store there";
  if (probe.outcome == ProbeOutcome::kFull)
    return "hash window full" + at + ": all " + std::to_string(kProbeSlots) +
           " slots hold other positions; the node searches from scratch and stores into the dummy slot 0";
  const HashEntry& entry = event.entry;
  std::string text = "hash hit" + at + ": slot " + std::to_string(probe.slot) +
                     " holds this position: score " + score(entry.score) + ", draft " +
                     std::to_string(entry.draft) + ", " + boundText(entry);
  if (probe.endsNode)
    return text + "; draft " + std::to_string(entry.draft) + " >= n " + std::to_string(top->call.depth) +
           " and the bound settles the window [" + score(top->call.alpha) + ", " + score(top->call.beta) +
           "]: the node returns " + score(entry.score) + " without searching";
  // The stored move is tried first when its Y carries the not-castling bit (Step 4's sneak).
  const std::string first =
      top->draft > 0 && (top->bestTo & kNotCastlingBit) && !variant.lacks(Idea::kBestFirst)
          ? ", the stored move " + bestMoveName(top->bestFrom, top->bestTo) + " first"
          : ", no stored move to try first";
  if (entry.draft >= top->call.depth)
    return text + "; deep enough but the bound does not settle the window [" + score(top->call.alpha) + ", " +
           score(top->call.beta) + "]: the node searches again at draft n " +
           std::to_string(top->call.depth) + first;
  return text + "; draft " + std::to_string(entry.draft) + " < n " + std::to_string(top->call.depth) +
         ": deepening resumes at draft " + std::to_string(top->draft + 1) + first;
}

// N++: the node is counted.
std::string Narration::onNodeCounted() const {
  return "node #" + std::to_string(top->nodeNumber) + " counted (N++)" + at +
         ": the node count is the think's clock";
}

// An iteration starts, and where best m starts.
std::string Narration::onIteration() const {
  std::string text = (stack.size() == 1 ? "root iteration " : "iteration ") + std::to_string(event.value) +
                     " starts" + at + ": best m starts at ";
  if (event.value > 1) return text + "-I (a move must be played)";
  if (state.variant().lacks(Idea::kQuiescence))
    return text + "the eval " + std::to_string(top->call.eval) +
           " (draft 1, the Lab without quiescence: every move loses a ply, none is searched; the node "
           "takes its static eval)";
  // At draft 1, h = d - (y != z) is 0 for every move but one onto z: only those are made and
  // get a reply (tests/test_view_state.cpp checks this against the moves the trace then makes).
  const int z = top->call.lastTo;
  const std::string replies =
      isOnBoard(z) ? "only a move onto z = " + squareName(z) +
                         ", where the last move landed, is made and gets a reply; the others get h = 0"
                   : "z = " + std::to_string(z) + " is no square, so no move is made: each gets h = 0";
  return text + "the eval " + std::to_string(top->call.eval) +
         " (draft 1, quiescence: the node may stand pat; " + replies + ")";
}

// A move takes the king (or the square a castling king passed).
std::string Narration::onKingCapture() const {
  // Line 70: after a castling, a move onto E (the passed square, where the rook now stands) or next
  // to it; the king's new square is next to it too, but a move there takes the king itself. So the
  // move lands on E (through check) or on the square the king left (out of check; the sentence once
  // said "passed" for both).
  if (event.badCastling) {
    const int passed = top->call.epSquare;
    const std::string text = "king capture" + at + ": " + moveName(event.move.from, event.move.to);
    if (event.move.to == passed)
      return text + " lands on the square the opponent's castling king passed (" + squareName(passed) +
             ", E, where its rook now stands): the castling was through check, the node scores +I";
    return text + " lands on the square the opponent's castling king left (" + squareName(event.move.to) +
           "), next to the square it passed (" + squareName(passed) +
           ", E): the castling was out of check, the node scores +I";
  }
  // In the mate probe the opponent made no move: it passed (line 103's null move), so a king capture
  // says its king is in check now; it once said "the opponent's last move was illegal" there too.
  if (stack.size() >= 2 && stack[stack.size() - 2].mateProbe) {
    const char* passer = side(stack[stack.size() - 2].call.side);
    return "king capture in the mate probe" + at + ": " + moveName(event.move.from, event.move.to) +
           " takes the king of " + passer + ", who passed (the null move): that king is in check, so " +
           passer + ", with no move that keeps it, is mated; the node scores +I";
  }
  return "king capture" + at + ": " + moveName(event.move.from, event.move.to) +
         " takes the king, so the opponent's last move was illegal; the node scores +I";
}

// The node fails high: stand pat, a king capture or a move, and the moves left untried.
std::string Narration::onCutoff() const {
  const int beta = top->call.beta;
  const Event before = replay.eventAt(cursor - 2);
  if (before.kind == EventKind::kIteration) {
    const std::string text =
        "stand pat" + at + ": eval " + std::to_string(top->call.eval) + " >= beta " + score(beta);
    // Line 71's goto C ends the iteration; the loop (line 53) goes on while d < n. It once said "the
    // node returns" of calls of depth 2 and more too, which then search draft 2 (the glossary's stand pat).
    if (top->draft < top->call.depth)
      return text + ", so the draft-" + std::to_string(top->draft) +
             " iteration ends without trying a move; the call (depth n = " + std::to_string(top->call.depth) +
             ") goes on to draft " + std::to_string(top->draft + 1);
    return text + ", the node returns without trying a move";
  }
  if (before.kind == EventKind::kKingCapture)
    return "cutoff" + at + ": the king capture scores +I >= beta " + score(beta) + ", no other move is tried";
  std::string parentMove;
  if (stack.size() >= 2) {
    const Frame& parent = stack[stack.size() - 2];
    if (parent.moveOnBoard)
      parentMove = std::string(", refuting ") + side(parent.call.side) + "'s " +
                   moveName(parent.move.from, parent.move.to);
  }
  const int notTried = movesNotTried(replay, state, *top);
  std::string text = moveName(top->move.from, top->move.to) + " fails high" + at + ": score " +
                     score(event.value) + " >= beta " + score(beta) + parentMove + "; " +
                     std::to_string(notTried) + " move" + (notTried == 1 ? "" : "s") + " not tried (" +
                     std::to_string(top->movesMade) + " made in this call)";
  // The cutoff ends the iteration (goto C); below the depth asked for, and without a mate score (line
  // 102's d=99), the call searches the next draft.
  if (top->draft < top->call.depth && !isMateScore(event.value))
    text += "; the call (depth n = " + std::to_string(top->call.depth) + ") goes on to draft " +
            std::to_string(top->draft + 1);
  return text;
}

// A move is tried, and the depth its reply gets.
std::string Narration::onMoveMade() const {
  std::string text = std::string(side(top->call.side)) + " tries " + describeMove(event.move) + at +
                     "; its reply is searched to h = " + std::to_string(event.move.remaining);
  if (event.move.flags & kMoveSneaked) text += "; the previous iteration's best move, tried first";
  if (event.move.to == top->call.lastTo && !state.variant().lacks(Idea::kQuiescence))
    text += " (a recapture on " + squareName(event.move.to) + ": it keeps the full draft " +
            std::to_string(top->draft) + ")";
  return text;
}

// The move's score, against the best so far.
std::string Narration::onMoveScored() const {
  const std::string move = moveName(top->move.from, top->move.to);
  std::string text = move + " scored v = " + score(event.value) + at;
  if (top->move.flags & kMoveSneaked) return text + ": the previous best, searched first, sets best m = v";
  // The best move event that follows (if any) updates m; here m is still the old best.
  if (event.value > top->best) {
    text += ": better than best m = " + score(top->best) + ", it becomes the best move";
    if (event.value >= top->call.beta) text += " and reaches beta " + score(top->call.beta) + " (fail high)";
    return text;
  }
  return text + ": not better than best m = " + score(top->best);
}

// A new best move, against the window.
std::string Narration::onBestMove() const {
  std::string text =
      "new best move " + bestMoveName(event.bestFrom, event.bestTo) + at + ": m = " + score(event.best);
  if (event.best >= top->call.beta) {
    text += " >= beta " + score(top->call.beta);
    // The iteration fails high (line 71 stops its scan at the next move); below the depth asked for,
    // and without a mate score (line 102's d=99), the call searches the next draft. It once said
    // "the node fails high" of those too, as the cutoff's sentence did.
    if (top->draft < top->call.depth && !isMateScore(event.best))
      return text + ": the draft-" + std::to_string(top->draft) +
             " iteration fails high; the call (depth n = " + std::to_string(top->call.depth) +
             ") goes on to draft " + std::to_string(top->draft + 1);
    return text + ": the node fails high";
  }
  if (event.best > top->call.alpha) {
    // The node's alpha is now m; each reply gets the window turned round, beta -m (line 82:
    // m>q?-m:-q). It once said the replies "are searched with alpha m": their alpha stays -l-(l>e).
    text += " > alpha " + score(top->call.alpha);
    if (state.variant().lacks(Idea::kAlphaBeta))
      return text + ": the Lab without alpha-beta still gives the next replies the full window [-I, +I]";
    const Window reply =
        replyWindow(state.variant(), top->call.alpha, top->call.beta, top->call.eval, event.best);
    return text + ": the node's alpha is now " + score(event.best) + ", so the next replies get beta " +
           score(reply.beta);
  }
  return text + " (still <= alpha " + score(top->call.alpha) + ")";
}

// The mate probe starts.
std::string Narration::onMateProbe() const {
  return "no move kept the king" + at +
         " (best is still -I): the mate probe (a null move) tells mate (the opponent takes the king) from "
         "stalemate";
}

// The hash store: refused, into an empty slot, replacing or updating an entry.
std::string Narration::onStore() const {
  std::string text;
  if (!usesHashTable(state.variant()))
    text = "no hash store" + at + " (the Lab, without hash): the node's score " + score(top->best) +
           " and draft " + std::to_string(top->draft) + " are kept nowhere";
  else if (!event.written)
    text = "hash store refused" + at + ": slot " + std::to_string(event.slot) +
           " keeps its exact score of draft " + std::to_string(event.before.draft) + " > d " +
           std::to_string(top->draft);
  else if (event.slot == kDummySlot)
    text = "hash store" + at + " into the dummy slot 0 (all 9 probe slots hold other positions)";
  else if (event.before.lock == 0)
    text = "hash store" + at + " into empty slot " + std::to_string(event.slot);
  else if (event.before.lock != event.after.lock)
    text = "hash store" + at + " replaces another position's entry in slot " + std::to_string(event.slot) +
           " (draft " + std::to_string(event.before.draft) + ", not exact or not deeper)";
  else
    text = "hash store" + at + " updates this position's entry in slot " + std::to_string(event.slot);
  if (event.written)
    text += ": score " + score(event.after.score) + ", draft " + std::to_string(event.after.draft) + ", " +
            boundText(event.after);
  if (event.written && event.slot == kDummySlot)
    text += "; the slot's lock goes back to 0 at once: nothing is kept";
  // X == Y: no move of the iteration beat its window (at draft 1 the root searches none), so
  // there is no best move to name (printed as a move it would read "a8a8").
  if (stack.size() == 1 && top->call.lastTo == kThinkMarker)
    text += "; root iteration " + std::to_string(top->draft) +
            (bestMoveSquare(top->bestFrom) == bestMoveSquare(top->bestTo)
                 ? " ends with no best move (X = Y), score "
                 : " ends: best " + bestMoveName(top->bestFrom, top->bestTo) + " ") +
            score(top->best);
  return text;
}

// The call returns: its node type, and what its parent makes of the score.
std::string Narration::onReturn() const {
  if (stack.empty()) {
    const std::string text =
        "the root returns " + score(event.best) + " (" +
        nodeType(replay.reader().header().root.alpha, replay.reader().header().root.beta, event.best) +
        " node): the search is over, ";
    // X == Y: no best move, the root has no move that keeps its king.
    if (bestMoveSquare(event.bestFrom) == bestMoveSquare(event.bestTo))
      return text + "no legal move: " + (event.best < 0 ? "mated" : "stalemated");
    return text + "best move " + bestMoveName(event.bestFrom, event.bestTo);
  }
  const Frame& parent = stack.back();
  const auto [alpha, beta] = childWindow(parent, state.variant());
  const int ply = static_cast<int>(stack.size());
  const Event before = replay.eventAt(cursor - 2);
  const bool fromHash = before.kind == EventKind::kProbe && before.probe.endsNode;
  std::string text = "ply " + std::to_string(ply) + " returns " + score(event.best) +
                     (fromHash ? " from the hash table" : "") + ": " + nodeType(alpha, beta, event.best) +
                     " node, window [" + score(alpha) + ", " + score(beta) + "]";
  if (!parent.moveOnBoard)
    return text + "; the mate test: minus half its score (line 103: -D(...)/2), " + score(parent.best) +
           ", becomes the parent's best";
  // The parent's v: the negated return, minus the delayed-gain point (Step 12: v -= v > e).
  const int negated = -event.best;
  const int scored = withDelayedGainPenalty(state.variant(), negated, parent.call.eval);
  text += "; " + std::string(side(parent.call.side)) + "'s " + moveName(parent.move.from, parent.move.to) +
          " will score " + score(scored);
  if (scored != negated)
    text += " (" + score(negated) + ", minus the delayed-gain point: " + score(negated) + " > eval e " +
            std::to_string(parent.call.eval) + ")";
  return text;
}

// A kind without a sentence of its own: what its row names, with the values.
std::string Narration::generic() const {
  std::string text = std::string(kindName(event.kind)) + at;
  const FieldList& list = kKindFields[event.kind];
  for (int index = 0; index < list.count && list.numbers; ++index) {
    const auto slot = static_cast<std::size_t>(index);
    text += (index == 0 ? ": " : ", ") + std::string(list.fields[slot].name) + " = ";
    text += list.fields[slot].type == FieldType::kBool ? (event.values[slot] ? "true" : "false")
                                                       : std::to_string(event.values[slot]);
  }
  return text;
}

// The kinds of format 6 have their sentences; a kind added after them is told from its row.
std::string narrate(const Replay& replay, const Event& event, const SearchState& state) {
  const Narration narration{replay, event, state};
  switch (event.kind) {
    case EventKind::kCall:
      return narration.onCall();
    case EventKind::kProbe:
      return narration.onProbe();
    case EventKind::kNodeCounted:
      return narration.onNodeCounted();
    case EventKind::kIteration:
      return narration.onIteration();
    case EventKind::kKingCapture:
      return narration.onKingCapture();
    case EventKind::kCutoff:
      return narration.onCutoff();
    case EventKind::kMoveMade:
      return narration.onMoveMade();
    case EventKind::kMoveScored:
      return narration.onMoveScored();
    case EventKind::kBestMove:
      return narration.onBestMove();
    case EventKind::kMateProbe:
      return narration.onMateProbe();
    case EventKind::kStore:
      return narration.onStore();
    case EventKind::kReturn:
      return narration.onReturn();
    default:
      return narration.generic();
  }
}

}  // namespace umax::trace
