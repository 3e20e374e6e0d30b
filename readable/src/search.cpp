// search.cpp - micro-Max 3.2's search, written out for a reader.
//
// The search is one recursive function, as in the original's D(): negamax
// with an alpha-beta window, internal iterative deepening, a quiescence
// search made of the draft-1 iteration (stand pat, then recaptures only),
// and a hash table. Engine::search() is the outline of one node (Steps 1-4);
// the rest of the node follows it in the order it runs: the move generator
// (Steps 5-7, in moves.h, which perft shares), the move body (searchMove,
// Steps 8-16), the end of an iteration (finishIteration, Steps 17-18) and
// the return (leaveNode, Step 19). Every variable keeps the original's
// one-letter name in a comment, every step a number (topic 7's walkthrough
// and the line map use them), and every number the original writes as a literal its
// expression beside the name. The rules a trace reader replays too (the
// sneak bit, the mate draft...) are named in umax/search_rules.h.
//
// A statement that tests `without<kLab>(Idea::...)` is the Lab's switch of
// one idea (umax/variant.h, `--without NAME`): it stands on the line where
// that idea lives. In the default search (kLab = false) the test is false
// at compile time and the statement vanishes; the Lab's instantiation of
// the same function reads the switches a think was given.
//
// A statement that starts with `hooks` tells an observer what happened (in
// the tracer's search; in the ordinary search it does nothing) or asks
// memory for what the search will read (search_seam.h). Debug builds (no
// NDEBUG) assert invariants the original keeps: the window is not empty at
// entry, the side is white or black, a probe stays inside the table.
#include <cassert>

#include "moves.h"
#include "search_seam.h"
#include "umax/engine.h"

namespace umax {
namespace {

/// A root (think or legality check) passes a previous destination with this
/// bit; no real square and not the dummy 128 has it. // micro-Max: z&8
constexpr int kRootMarkerBit = 8;
static_assert((kThinkMarker & kRootMarkerBit) != 0 && (kLegalityMarker & kRootMarkerBit) != 0);

}  // namespace

// ---- The tools of the search: hash keys and the probe -----------------------

// [key-words]
// How a move changes the hash key (kKeySalt) or lock (kLockSalt): hashChange
// in search_rules.h, with the piece arriving on the to-square (a promoted
// pawn counts as a queen). The castling rook is not in it; the lock adds G-S
// for that (Step 12). // micro-Max: J(A) = K(y+A,b[y])-K(x+A,u)-K(H+A,t)
inline uint32_t Engine::keyChange(int salt, const Move& move, int arriving) const {
  return hashChange(keys_, salt, move.from, move.to, move.captureSquare, move.piece, move.victim, arriving);
}
// [key-words]

// [probe]
// The hash probe of Step 1: look at up to 9 consecutive slots after
// (k*E ^ J) & mask for the first one that is empty or holds our lock. If all
// are taken by other positions, use the dummy slot 0, which always looks empty
// (probedEntry in search_rules.h).
inline HashEntry& Engine::probe(int side, int epSquare, uint32_t hashKey, uint32_t hashLock) {
  HashEntry& entry = probedEntry(table_, firstProbeSlot(side, epSquare, hashKey), hashLock);
  assert(slotOf(entry) < table_.size());
  return entry;
}
// [probe]

// ---- The search, in the order one node runs it ------------------------------

// [search-signature]
// micro-Max's D(): the score of the position for `side`, searched to
// `depth` within the window (alpha, beta). Steps 1-4 are here; the loop
// hands every move to searchMove() and ends each iteration in
// finishIteration(); leaveNode() returns. All three follow below.
template <class Observer, bool kLab>
int Engine::search(int side,           // k: the side to move, 8 or 16
                   int alpha,          // q: lower end of the window
                   int beta,           // l: upper end of the window
                   int eval,           // e: incremental evaluation for the side to move
                   uint32_t hashKey,   // J: hash key (selects the slot)
                   uint32_t hashLock,  // Z: hash lock (identifies the position)
                   int epSquare,       // E: the e.p. square, which the previous move passed over (its F)
                   int lastTo,         // z: previous move's destination; 8 = think, 9 = legality check
                   int depth) {        // n: requested depth (draft)
  Node node{side, alpha, beta, eval, hashKey, hashLock, epSquare, lastTo, depth};
  // [search-signature]
  assert(side == kWhite || side == kBlack);
  assert(alpha < beta);

  // [hash-hit]
  // Step 1. Look the position up in the hash table. (Lab, without the
  // hash table: the dummy slot, which always looks empty, and no store.)
  HashEntry& entry =
      without<kLab>(Idea::kHash) ? table_[kDummySlot] : probe(side, epSquare, hashKey, hashLock);  // a
  hooks<Observer>().onEnter(node, entry);
  if (entry.lock != 0) {
    // Step 2. A hit: use the stored score if it was searched deep enough and
    // its bound type settles our window (storedScoreSettles); otherwise
    // start deepening from it, one ply short of the depth at most, with its
    // best move as the hint (none for a draft-0 start).
    if (storedScoreSettles(entry, depth, alpha, beta)) return entry.score;
    node.draft = hitStartDraft(entry.draft, depth);
    node.bestFrom = static_cast<int8_t>(withoutBoundBits(entry.from));
    node.bestTo = static_cast<int8_t>(hitStartBestTo(node.draft, entry.to));
  } else {
    node.draft = node.bestFrom = node.bestTo = 0;  // a miss: start from scratch, no hint
  }

  // Step 3. Count the node: the node count is the think's clock.
  countNode();  // ++N (search_seam.h)
  // [hash-hit]
  stopIfAsked();  // a think's stop flag (search_seam.h)

  // [deepening]
  // Step 4. Iterative deepening: one more ply per pass until the requested
  // depth; the root of a think goes on while nodes remain in the budget
  // (a think starts the count at the limit minus its budget: searchRoot()).
  // (Lab: without deepening a node starts at the depth asked for; --depth D
  // ends a think's root at draft D.)
  if constexpr (kLab) node.draft = firstDraft(variant_, node.draft, depth, lastTo);
  while (kLab ? deepensAgain(variant_, node.draft++, depth, lastTo, nodes_)
              : deepensAgain(node.draft++, depth, lastTo, nodes_)) {  // micro-Max: W(d++<n|z==8&N<1e7&d<98)
    hooks<Observer>().onIteration(node.draft);
    // Best-move-first ordering (topic 11): the board scan starts at the
    // previous best move's square, and that move is sneaked in (tried
    // first) unless it castles: the sneak bit of Y asks for it.
    // (Lab, without best-first: the scan starts at a8, nothing sneaked in.)
    const int8_t scanStart = without<kLab>(Idea::kBestFirst) ? 0 : node.bestFrom;  // B
    if (!without<kLab>(Idea::kBestFirst))
      node.bestTo = static_cast<int8_t>(withSneakBit(node.bestTo));  // micro-Max: Y|=8&Y>>4
    // Quiescence: at draft 1 the node may "stand pat" on its static eval
    // (Step 10 then searches only recaptures). Deeper, best starts at -infinity:
    // the side to move has to play one of its moves.
    node.best = iterationStartBest(node.draft, eval);
    // [deepening]

    // [iteration]
    // Steps 5-16: the generator finds each move (moves.h), searchMove() searches it.
    generateMoves(side, epSquare, scanStart, node.bestTo,
                  [&](const Move& move) { return searchMove<Observer, kLab>(node, move); });
    if (node.played) return beta;                  // Step 13 played the entered move: it stays on the board
    finishIteration<Observer, kLab>(node, entry);  // Steps 17-18
  }
  return leaveNode<Observer>(node);  // Step 19
  // [iteration]
}

// [visit-move]
// The move body: what the original's loop does with one move x -> y. It
// answers the generator: next move, stop the scan, or replay the direction.
template <class Observer, bool kLab>
inline Engine::Verdict Engine::searchMove(Node& node, const Move& move) {
  // Step 8. The capture's material gain i = 99 * value of the victim (a
  // king's value is -1, so taking it makes the gain negative). A king
  // capture, or a reply landing on or next to the square a castling king passed,
  // means the previous move was illegal (capturesKing in moves.h): this node
  // is worth "infinity".
  int gain = captureGain(move.victim);  // i
  if (capturesKing(gain, move.to, node.epSquare)) {
    node.best = kInfinity;
    hooks<Observer>().onKingCapture(move.from, move.to, gain >= 0);
  }
  // Step 9. Fail high: the opponent will avoid this position; stop the scan.
  if (node.best >= node.beta) {
    hooks<Observer>().onCutoff(node.best);
    return Verdict::kStop;
  }

  // Step 10. Quiescence and the recapture extension: a move to the previous
  // destination keeps the full draft, any other loses a ply. So at draft 1
  // (quiescence) only recaptures are searched; the other moves are skipped and
  // the node keeps its stand-pat score. (Lab, without quiescence: every
  // move loses a ply, so draft 1 searches nothing and a leaf keeps its eval.)
  const int remaining = without<kLab>(Idea::kQuiescence)
                            ? node.draft - 1
                            : remainingDepth(node.draft, move.to, node.lastTo);  // h
  if (!remaining) return Verdict::kNext;

  // Step 11. Make the move (makeMove in moves.h). The reply's hash key (the
  // original computes it in Step 12's call: J+J(0)) needs only the move, not
  // the board, so it can be computed before the move is made.
  const int arriving = moves::arrivingPiece(move);
  const uint32_t replyKey = node.hashKey + keyChange(kKeySalt, move, arriving);
  hooks<Observer>().replyKeyKnown(node, move, replyKey);
  int positional = makeMove(move, node.side, gain);  // v: centre points, castling bonus
  if (without<kLab>(Idea::kCentre)) positional = 0;  // Lab: material only
  assert(board_[move.to] == arriving);
  hooks<Observer>().onMoveMade(move, remaining, (node.bestTo & kSneakBit) != 0);
  // [visit-move]

  // [recursion]
  // Step 12. Search the reply with the window turned round (replyWindow:
  // one lower at alpha when beta exceeds the eval, for the delayed-gain
  // penalty that follows). The reply's lock also tells a castling from the
  // king's plain step (castlingLockTerm). (Lab: without the penalty, no
  // correction; without alpha-beta, the full window: only a king capture
  // cuts, the search is minimax.)
  Window window = replyWindow(node.alpha, node.beta, node.eval, node.best);
  if (without<kLab>(Idea::kDelayedGain)) window.alpha = wrappingNegation(node.beta);
  if (without<kLab>(Idea::kAlphaBeta)) window = {-kInfinity, kInfinity};
  const uint32_t replyLock =
      node.hashLock + keyChange(kLockSalt, move, arriving) + castlingLockTerm(move.rookFrom);
  // The reply's eval e is ours turned round, less this move's gains; its E
  // is the square this move skipped (F).
  const int replyEval = -node.eval - positional - gain;
  int score = -search<Observer, kLab>(opponentOf(node.side), window.alpha, window.beta, replyEval, replyKey,
                                      replyLock, move.passedSquare, move.to, remaining);
  if (!without<kLab>(Idea::kDelayedGain))
    score = withDelayedGainPenalty(score, node.eval);  // a gain now beats the same gain later
  // [recursion]

  // [legality-root]
  // Step 13. As legality checker: stop at the entered move (K, L: main()
  // put it in bestFrom_, bestTo_) if it is legal.
  if (node.lastTo == kLegalityMarker) {
    if (score != -kInfinity && move.from == bestFrom_ && move.to == bestTo_) {
      eval_ = -node.eval - gain;
      epSquare_ = static_cast<int8_t>(move.passedSquare);
      node.played = true;
      return Verdict::kStop;  // the move stays on the board
    }
    score = node.best;  // no fail-low on king-capture replies
  }
  // [legality-root]

  // Step 14. Undo the move (unmakeMove in moves.h).
  unmakeMove(move, node.side);
  hooks<Observer>().onMoveScored(score);

  // [sneak-replay]
  // Step 15. The move was sneaked in (the best move of the last iteration,
  // searched first): its score is the starting best, the sneak bit is
  // cleared, then this direction is scanned normally.
  if (node.bestTo & kSneakBit) {
    node.best = score;
    node.bestTo &= ~kSneakBit;
    return Verdict::kReplay;
  }
  // [sneak-replay]
  // [best-move]
  // Step 16. A better move: remember it, marked if it is not a castling.
  if (score > node.best) {
    node.best = score;
    node.bestFrom = move.from;
    node.bestTo = static_cast<int8_t>(bestMoveTo(move.to, move.rookFrom));
    hooks<Observer>().onBestMove(node);
  }
  return Verdict::kNext;
  // [best-move]
}

// [mate-stalemate]
// The end of one iteration of the deepening loop (the original's label C:).
template <class Observer, bool kLab>
inline void Engine::finishIteration(Node& node, HashEntry& entry) {
  // Step 17. Mate scores hold at any depth (and -infinity is one: a
  // stalemate is stored with the mate draft too). No move at all kept the
  // king (best is still -infinity): mate or stalemate, told apart by the
  // mate probe: the side to move passes (a null move) and the opponent
  // moves again (kMateProbeCall: a quiescence search from a neutral eval of
  // 0, no e.p. square, no previous move). Minus half its score is -I/2
  // (mated) if it takes the king, else about 0 (stalemate).
  // micro-Max: -D(24-k,-I,I,0,J,Z,S,S,1)/2
  node.draft = storedDraft(node.draft, node.best);
  if (node.best == -kInfinity) {  // micro-Max: m+I == 0
    hooks<Observer>().onMateProbe();
    node.best = mateProbeBest(search<Observer, kLab>(
        opponentOf(node.side), kMateProbeCall.alpha, kMateProbeCall.beta, kMateProbeCall.eval, node.hashKey,
        node.hashLock, kMateProbeCall.epSquare, kMateProbeCall.lastTo, kMateProbeCall.depth));
  }
  // [mate-stalemate]

  // [hash-store]
  // Step 18. Store in the hash table unless that would overwrite an exact
  // score of a deeper search. (Lab: without the hash table, never.)
  hooks<Observer>().onStoreBegins(entry);
  const bool store = !without<kLab>(Idea::kHash) &&
                     (!entry.lock || (entry.from & kExactBits) != kExactBits || entry.draft <= node.draft);
  if (store) {
    assert(node.draft <= kMateDraft);
    entry.lock = static_cast<int32_t>(node.hashLock);
    entry.score = node.best;
    entry.draft = static_cast<int8_t>(node.draft);
    table_[kDummySlot].lock = 0;  // the dummy slot stays empty
    entry.from = static_cast<int8_t>(storedFrom(node.bestFrom, node.best, node.alpha, node.beta));
    entry.to = node.bestTo;
  }
  hooks<Observer>().onStore(entry, store);
  // [hash-store]
  if (node.lastTo == kThinkMarker)  // tell the think (engine.cpp)
    finishRootIteration(node.draft, node.best, node.bestFrom,
                        static_cast<int8_t>(node.bestTo & ~kBestToFlags));
}

// [root-report]
// Step 19. Return the best score. A root (think or legality check) also
// leaves its best move in K, L for main(). // micro-Max: if(z&8){K=X;L=Y&~M;}
template <class Observer>
inline int Engine::leaveNode(const Node& node) {
  if (node.lastTo & kRootMarkerBit) {
    bestFrom_ = node.bestFrom;
    bestTo_ = node.bestTo & ~kBestToFlags;
  }
  hooks<Observer>().onReturn(node);
  return node.best;
}
// [root-report]

// The searches: the ordinary one (no observer: every hook vanishes), the
// one any SearchObserver watches through its virtual hooks, and the Lab's of
// both. The trace recorder compiles one more, which calls its hooks
// directly: tracer/src/event_kinds.cpp includes this file for it, without
// these four.
#ifndef UMAX_SEARCH_DEFINITIONS_ONLY
template int Engine::search<NoObserver, false>(int, int, int, int, uint32_t, uint32_t, int, int, int);
template int Engine::search<SearchObserver, false>(int, int, int, int, uint32_t, uint32_t, int, int, int);
template int Engine::search<NoObserver, true>(int, int, int, int, uint32_t, uint32_t, int, int, int);
template int Engine::search<SearchObserver, true>(int, int, int, int, uint32_t, uint32_t, int, int, int);
#endif

}  // namespace umax
