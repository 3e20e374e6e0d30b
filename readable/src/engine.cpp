// engine.cpp - micro-Max 3.2's search, written out for a reader.
//
// The search is one recursive function, as in the original's D(): negamax
// with an alpha-beta window, internal iterative deepening, a quiescence
// search made of the depth-1 iteration, and a hash table. Its move loop is
// written as a generator (generateMoves) that hands each move to a visitor,
// so that perft can walk the very same moves; the original's `goto C`
// (cutoff) becomes the visitor's kStop and `goto A` (replay after the
// sneaked-in best move) its kReplay. Every variable keeps the original's
// one-letter name in a comment, and every step carries the number used by
// the walkthrough and the line map.
#include "umax/engine.h"

#include <algorithm>
#include <utility>

#include "umax/glibc_random.h"

namespace umax {
namespace {

// [step-vectors]
/// Step vectors of all pieces, one list per piece type, each ending in 0.
/// Pieces other than pawns use each vector in both directions (the search
/// negates a negative step before fetching the next one). // micro-Max: o[0..16]
constexpr std::array<int8_t, 17> kStepVectors = {
    -16, -15, -17, 0,       // downward pawn: push, two captures
    1,   16,  0,            // rook: sideways, vertical
    1,   16,  15,  17, 0,   // king and queen: all eight; upward pawn from 16
    14,  18,  31,  33, 0};  // knight
/// For each piece type, the index just before its first step vector.
/// // micro-Max: o[p+16]
constexpr std::array<int8_t, 8> kFirstStepIndex = {0, 7, -1, 11, 6, 8, 3, 6};
/// The step index at which a king steps sideways (the only castling direction).
constexpr int kSidewaysStepIndex = 7;
// [step-vectors]

/// A king with its virgin bit, colour bits removed: only such a king castles.
constexpr int kVirginKing = kKing | kVirgin;
/// The value stored in a pawn's row mask term that marks the double-step row:
/// 6 * side + row == 128 holds for row 5 (rank 3) for white and row 2 (rank 6) for black.
constexpr int kDoubleStepSum = 128;

/// The flag the search reads when the caller gave none, and outside thinks:
/// never raised. Pointing at it keeps the per-node check to one load.
const std::atomic<bool> kNeverRaised{false};

/// Thrown at a counted node when the stop flag is up; thinkWith() catches it.
/// Unwinding skips every store and undo on the way out, so the hash table
/// keeps only what finished nodes wrote, and thinkWith() restores the board.
/// The flag costs nothing while it is down: no test after each move.
struct ThinkAborted {};

/// Reads four bytes of the key table as one little-endian int, as the
/// original's `*(int*)(T+...)` does on the x86 it ran on.
inline int32_t loadWord(const int8_t* bytes) {
  uint32_t word = 0;
  for (int index = 3; index >= 0; --index) word = (word << 8) | static_cast<uint8_t>(bytes[index]);
  return static_cast<int32_t>(word);
}

}  // namespace

// [key-table]
Engine::Engine() : table_(kHashEntries + 1), stop_(&kNeverRaised) {
  // main(): F(i,M,1035)T[i]=random()>>9;  The extra slot past the end stands
  // in for the memory a 9th probe of the very last window reads in the original.
  GlibcRandom random;
  for (int index = kFirstRandomKey; index < kKeyTableSize; ++index)
    keys_[index] = static_cast<int8_t>(random.next() >> 9);
  board_ = startBoard();
}
// [key-table]

void Engine::setPosition(const Position& position) {
  board_ = position.board;
  side_ = position.side;
  epChar_ = static_cast<int8_t>(position.epSquare);  // 128 becomes -128, as in O
  eval_ = position.eval;
}

Position Engine::position() const {
  Position position;
  position.board = board_;
  position.side = side_;
  position.epSquare = epChar_;
  position.eval = eval_;
  return position;
}

void Engine::clearHashTable() { std::fill(table_.begin(), table_.end(), HashEntry{}); }

// [clear-locks]
void Engine::clearHashLocks() {
  for (int32_t slot = 0; slot < kHashEntries; ++slot) table_[slot].lock = 0;
}
// [clear-locks]

void Engine::clearRootProbeWindow() {
  const uint32_t first = (static_cast<uint32_t>(side_ * epChar_) ^ 1u) & kHashSlotMask;
  for (uint32_t slot = first + 1; slot <= first + 8; ++slot) table_[slot].lock = 0;
  table_[0].lock = 0;
}

void Engine::setStopFlag(const std::atomic<bool>* flag) { stopFlag_ = flag; }

void Engine::setIterationListener(IterationListener listener) { iterationListener_ = std::move(listener); }

ThinkResult Engine::think(long budget) { return thinkWith<false>(budget); }

ThinkResult Engine::think(long budget, SearchObserver& observer) {
  observer_ = &observer;
  const ThinkResult result = thinkWith<true>(budget);
  observer_ = nullptr;
  return result;
}

// [think]
template <bool kTraced>
ThinkResult Engine::thinkWith(long budget) {
  // The original stops deepening once N >= 1e7; starting N that far below
  // the limit gives any budget without touching the search.
  const int start = kNodeLimit - static_cast<int>(budget);
  nodes_ = thinkStart_ = start;
  lastIteration_ = IterationReport{};
  const Board boardBefore = board_;
  // Only a think reads the caller's flag: the never-raised one comes back
  // however the think ends (even by a listener's own exception).
  struct StopScope {
    const std::atomic<bool>*& active;
    ~StopScope() { active = &kNeverRaised; }
  } stopScope{stop_};
  stop_ = stopFlag_ ? stopFlag_ : &kNeverRaised;
  ThinkResult result;
  try {
    result.score = search<kTraced>(side_, -kInfinity, kInfinity, eval_, 1, 1, epChar_, kThinkMarker, 0);
    result.from = bestFrom_;
    result.to = bestTo_;
  } catch (const ThinkAborted&) {
    // The stop flag ended the think: the board still holds the line being
    // searched. Answer with the last completed iteration (none: no move).
    board_ = boardBefore;
    result.aborted = true;
    result.score = lastIteration_.score;
    result.from = bestFrom_ = static_cast<int8_t>(lastIteration_.from);
    result.to = bestTo_ = static_cast<int8_t>(lastIteration_.to);
  }
  result.nodes = static_cast<long>(nodes_) - start;
  result.depth = lastIteration_.draft;
  result.completedIterations = lastIteration_.iteration;
  return result;
}
// [think]

// At the root of a think, after each iteration: keep its result (an aborted
// think returns it) and tell the listener.
void Engine::finishRootIteration(int draft, int best, int bestFrom, int bestTo) {
  lastIteration_ = {lastIteration_.iteration + 1, draft, best, bestFrom, bestTo, nodes_ - thinkStart_};
  if (iterationListener_) iterationListener_(lastIteration_);
}

// [legality-check]
bool Engine::legalityCheck(int from, int to) {
  bestFrom_ = static_cast<int8_t>(from);
  bestTo_ = static_cast<int8_t>(to);
  // A 2-ply search from the root that stops and plays the move if it finds
  // it and the reply cannot capture the king; it then returns beta (= I).
  if (search<false>(side_, -kInfinity, kInfinity, eval_, 1, 1, epChar_, kLegalityMarker, 2) == kInfinity) {
    side_ = opponentOf(side_);
    return true;
  }
  return false;
}

bool Engine::playMove(int from, int to) {
  nodes_ = 0;
  clearHashLocks();
  return legalityCheck(from, to);
}
// [legality-check]

bool Engine::checkMove(int from, int to) {
  nodes_ = 0;
  clearRootProbeWindow();
  return legalityCheck(from, to);
}

// [key-words]
// Hash keys: a piece on a square has one random word for the key J and
// another for the lock Z, read from overlapping places of the byte table T[]:
// offset square (+8 for the lock), +8 for white, +128 per type. // micro-Max: K(A,B)
int32_t Engine::keyWord(int offset, int piece) const {
  return loadWord(&keys_[offset + (piece & kWhite) + kNoSquare * (piece & kTypeMask)]);
}

// How a move changes a hash key (salt 0) or lock (salt 8): add the word of
// the piece now on the to-square (a promoted pawn counts as a queen), take
// away the mover's word on its from-square and the victim's on the capture
// square. The castling rook is not in it; the lock adds G-S for that.
// micro-Max: J(A) = K(y+A,b[y])-K(x+A,u)-K(H+A,t), in wrapping arithmetic.
uint32_t Engine::keyChange(int salt, int from, int piece, int to, int captureSquare, int victim) const {
  return static_cast<uint32_t>(keyWord(to + salt, board_[to])) -
         static_cast<uint32_t>(keyWord(from + salt, piece)) -
         static_cast<uint32_t>(keyWord(captureSquare + salt, victim));
}
// [key-words]

// [probe]
// Step 1. Probe the hash table: look at up to 9 consecutive slots from
// (k*E ^ J) & mask for the first one that is empty or holds our lock. If all
// are taken by other positions, use the dummy slot 0, which always looks empty.
HashEntry& Engine::probe(int side, int epSquare, uint32_t hashKey, uint32_t hashLock) {
  uint32_t slot = (static_cast<uint32_t>(side * epSquare) ^ hashKey) & kHashSlotMask;
  for (int tries = 0; tries < kProbeSlots; ++tries) {
    HashEntry& entry = table_[++slot];
    if (entry.lock == 0 || static_cast<uint32_t>(entry.lock) == hashLock) return entry;
  }
  return table_[0];
}
// [probe]

// What probe() did, told again for an observer: where the window starts,
// how many slots were looked at and how it ended. Only traced searches ask.
ProbeReport Engine::probeReport(int side, int epSquare, uint32_t hashKey, const HashEntry& entry) const {
  ProbeReport report;
  report.firstSlot = (static_cast<uint32_t>(side * epSquare) ^ hashKey) & kHashSlotMask;
  report.slot = static_cast<uint32_t>(&entry - table_.data());
  if (report.slot == 0) {
    report.slotsProbed = kProbeSlots;
    report.outcome = ProbeOutcome::kFull;
  } else {
    report.slotsProbed = static_cast<int>(report.slot - report.firstSlot);
    report.outcome = entry.lock != 0 ? ProbeOutcome::kHit : ProbeOutcome::kMiss;
  }
  return report;
}

// [generate-loops]
// Step 4. The move generator: scan the board from `scanStart` for pieces of
// `side`; for each, each of its step vectors; along each, the ray of squares
// until the board edge, an own piece, a capture, or the one step of a pawn,
// knight or king. Every move found goes to `visit`, which answers whether to
// go on, to stop the scan (a cutoff), or to replay the direction (after the
// previous iteration's best move was "sneaked in" first, see Step 12).
// While bestTo has kSneakBit, every ray yields that move's square instead.
template <class Visit>
[[gnu::always_inline]] inline bool Engine::generateMoves(int side, int epSquare, int8_t scanStart,
                                                         int8_t& bestTo, Visit&& visit) {
  Move move;
  move.from = scanStart;
  do {
    move.piece = board_[move.from];
    if (!(move.piece & side)) continue;
    int step = move.type = typeOf(move.piece);  // r starts > 0: fetch the first vector
    int stepIndex = kFirstStepIndex[move.type];
    while ((step = (move.type > kDownwardPawn && step < 0) ? -step : -kStepVectors[++stepIndex])) {
      move.step = step;
      bool replay;
      do {
        replay = false;
        move.to = move.from;
        move.rookTo = move.rookFrom = kNoSquare;
        int8_t stop;  // t after the fake capture: non-zero ends the ray
                      // [generate-loops]
        do {
          // [next-square]
          // Step 5. Next square of the ray (or the best move's square, sneaked in).
          move.captureSquare = move.to = static_cast<int8_t>(move.to + step);
          if (bestTo & kSneakBit) move.captureSquare = move.to = bestTo & ~kOffBoard;
          if (move.to & kOffBoard) break;  // board edge
          if (move.type <= kDownwardPawn && move.to == epSquare) move.captureSquare = move.to ^ 16;  // e.p.
          move.victim = board_[move.captureSquare];
          // Own piece, or a pawn moving straight onto a piece / diagonally onto nothing.
          if ((move.victim & side) || (move.type <= kDownwardPawn && !(step & 7) != !move.victim)) break;
          // [next-square]

          // [visit-call]
          const Verdict verdict = visit(move);
          if (verdict == Verdict::kStop) return false;
          if (verdict == Verdict::kReplay) {
            replay = true;
            break;
          }
          // [visit-call]

          // [ray-end]
          // Step 13. End the ray after a capture or a non-slider's step,
          // except for a pawn's first step to its double-step row and a
          // virgin king's sideways step towards a virgin rook with two
          // empty squares beside it: those continue, marking the skipped square.
          stop = static_cast<int8_t>(move.victim + (move.type < kBishop));  // fake capture
          if ((move.type <= kDownwardPawn && 6 * side + (move.to & kRowMask) == kDoubleStepSum) ||
              ((move.piece & ~kColourMask) == kVirginKing && stepIndex == kSidewaysStepIndex &&
               (move.rookFrom & kOffBoard) &&
               (board_[move.rookFrom = (move.from | 7) - ((step >> 1) & 7)] & kVirgin) &&
               !(board_[move.rookFrom ^ 1] | board_[move.rookFrom ^ 2]))) {
            move.rookTo = move.to;
            stop--;  // unfake the capture: the ray goes on
          }
        } while (!stop);
      } while (replay);
    }
  } while ((move.from = static_cast<int8_t>((move.from + 9) & ~kOffBoard)) != scanStart);
  return true;
}
// [ray-end]

// [captures-king]
// Step 6. King capture: the previous move was illegal. The same verdict if
// a reply lands on or next to the square a castling king passed (E holds the
// castled rook then), so castling out of, through or into check is refused.
bool Engine::capturesKing(int gain, int to, int epSquare) const {
  return gain < 0 || (epSquare != kNoSquare && to - epSquare < 2 && epSquare - to < 2 && board_[epSquare]);
}
// [captures-king]

// [make-move]
// Step 8. Do the move: strip the virgin bit, place a castling rook, promote.
// Returns the positional gain (centre points, castling bonus, pawn
// structure); `gain` grows by the promotion bonus.
int Engine::makeMove(const Move& move, int side, int& gain) {
  int score =
      move.type < kRook ? board_[move.from + kCentreTableOffset] - board_[move.to + kCentreTableOffset] : 0;
  board_[move.rookFrom] = board_[move.captureSquare] = board_[move.from] = 0;
  board_[move.to] = move.piece & 31;  // strip the virgin bit
  if (!(move.rookFrom & kOffBoard)) {
    board_[move.rookTo] = static_cast<int8_t>(side + kRook);
    score += kCastlingBonus;
  }
  if (move.type <= kDownwardPawn) {
    score -=
        kPawnStructureUnit * ((((move.from - 2) & kOffBoard) || board_[move.from - 2] != move.piece) +
                              (((move.from + 2) & kOffBoard) || board_[move.from + 2] != move.piece) - 1);
    if ((move.to + move.step + 1) & kNoSquare) {  // last rank: promote to queen
      board_[move.to] |= kQueen;
      gain += kPromotionBonus;
    }
  }
  return score;
}
// [make-move]

// [unmake-move]
// Step 11. Undo the move (rookFrom may be the dummy square 128).
void Engine::unmakeMove(const Move& move, int side) {
  board_[move.rookFrom] = static_cast<int8_t>(side + kRook + kVirgin);
  board_[move.rookTo] = board_[move.to] = 0;
  board_[move.from] = move.piece;
  board_[move.captureSquare] = move.victim;
}
// [unmake-move]

// [search-signature]
template <bool kTraced>
int Engine::search(int side,           // k: the side to move, 8 or 16
                   int alpha,          // q: lower end of the window
                   int beta,           // l: upper end of the window
                   int eval,           // e: incremental evaluation for the side to move
                   uint32_t hashKey,   // J: hash key (selects the slot)
                   uint32_t hashLock,  // Z: hash lock (identifies the position)
                   int epSquare,       // E: e.p. square, or the square a castling king passed
                   int lastTo,         // z: previous move's destination; 8 = think, 9 = legality check
                   int depth) {        // n: requested depth (draft)
  int best = 0;                        // m: best score so far (the original leaves it unset)
  int draft;                           // d: depth of the current iteration
  int8_t bestFrom;                     // X: best move's from-square (+ bound bits in the table)
  int8_t bestTo;                       // Y: best move's to-square + kNotCastlingBit + kSneakBit
                                       // [search-signature]

  if constexpr (kTraced)
    observer_->onCall({side, alpha, beta, eval, hashKey, hashLock, epSquare, lastTo, depth});

  // [hash-hit]
  // Step 1. Look the position up in the hash table.
  HashEntry& entry = probe(side, epSquare, hashKey, hashLock);  // a
  if constexpr (kTraced) {
    ProbeReport report = probeReport(side, epSquare, hashKey, entry);
    report.endsNode = entry.lock != 0 && entry.draft >= depth &&
                      (entry.score >= beta || (entry.from & kUpperBoundBit)) &&
                      (entry.score <= alpha || (entry.from & kLowerBoundBit));
    observer_->onProbe(report, entry);
    if (report.endsNode) observer_->onReturn(entry.score, entry.from & ~kOffBoard, entry.to, entry.draft);
  }
  if (entry.lock != 0) {
    // Step 2. A hit: use the stored score if it was searched deep enough and
    // its bound type settles our window; otherwise start deepening from it.
    draft = entry.draft;
    const int stored = entry.score;
    bestFrom = entry.from;
    if (draft >= depth) {
      const bool settlesHigh = stored >= beta || (bestFrom & kUpperBoundBit);
      const bool settlesLow = stored <= alpha || (bestFrom & kLowerBoundBit);
      if (settlesHigh && settlesLow) return stored;
      draft = depth - 1;
    }
    bestFrom &= ~kOffBoard;
    bestTo = entry.to;
    bestTo = draft ? bestTo : 0;  // no best-move hint for a draft-0 start
  } else {
    draft = bestFrom = bestTo = 0;
  }
  ++nodes_;
  if constexpr (kTraced) observer_->onNodeCounted(nodes_);
  if (stop_->load(std::memory_order_relaxed)) [[unlikely]]
    throw ThinkAborted{};
  // [hash-hit]

  // [deepening]
  // Step 3. Iterative deepening: one more ply per pass until the requested
  // depth; the root of a think goes on while nodes remain in the budget.
  while (draft++ < depth || (lastTo == kThinkMarker && nodes_ < kNodeLimit && draft < kMaxIteration)) {
    if constexpr (kTraced) observer_->onIteration(draft);
    const int8_t scanStart = bestFrom;     // B: start the board scan at the previous best
    bestTo |= kSneakBit & (bestTo >> 4);   // try the previous best first unless it castles
    best = draft > 1 ? -kInfinity : eval;  // at depth 1 we may "stand pat"
    bool played = false;                   // as legality checker: the entered move was found and played
                                           // [deepening]

    // [visit-move]
    generateMoves(
        side, epSquare, scanStart, bestTo, [&](const Move& move) __attribute__((always_inline)) {
          int gain = kValueScale * kPieceValue[move.victim & kTypeMask];  // i
          if (capturesKing(gain, move.to, epSquare)) {
            best = kInfinity;
            if constexpr (kTraced) observer_->onKingCapture(move, gain >= 0);
          }
          if (best >= beta) {  // fail high: cutoff
            if constexpr (kTraced) observer_->onCutoff(best);
            return Verdict::kStop;
          }

          // Step 7. Recapture extension: a move to the previous destination
          // keeps the full draft; at draft 1 nothing else is searched.
          const int remaining = draft - (move.to != lastTo);  // h
          if (!remaining) return Verdict::kNext;
          int score = makeMove(move, side, gain);  // v
          if constexpr (kTraced) observer_->onMoveMade(move, remaining, (bestTo & kSneakBit) != 0);
          // [visit-move]

          // [recursion]
          // Step 9. Search the reply with the window turned round.
          score = -search<kTraced>(
              opponentOf(side), -beta - (beta > eval), best > alpha ? -best : -alpha, -eval - score - gain,
              hashKey + keyChange(0, move.from, move.piece, move.to, move.captureSquare, move.victim),
              hashLock + keyChange(8, move.from, move.piece, move.to, move.captureSquare, move.victim) +
                  static_cast<uint32_t>(move.rookFrom - kNoSquare),
              move.rookTo, move.to, remaining);
          score -= score > eval;  // delayed-gain penalty
          // [recursion]

          // [legality-root]
          // Step 10. As legality checker: stop at the entered move if legal.
          if (lastTo == kLegalityMarker) {
            if (score != -kInfinity && move.from == bestFrom_ && move.to == bestTo_) {
              eval_ = -eval - gain;
              epChar_ = static_cast<int8_t>(move.rookTo);
              played = true;
              return Verdict::kStop;  // the move stays on the board
            }
            score = best;  // no fail-low on king-capture replies
          }
          // [legality-root]
          unmakeMove(move, side);
          if constexpr (kTraced) observer_->onMoveScored(score);

          // [sneak-replay]
          // Step 12. The best move of the last iteration was searched first;
          // its score is the starting best, then this direction is scanned normally.
          if (bestTo & kSneakBit) {
            best = score;
            bestTo &= ~kSneakBit;
            return Verdict::kReplay;
          }
          // [sneak-replay]
          // [best-move]
          if (score > best) {
            best = score;
            bestFrom = move.from;
            bestTo = static_cast<int8_t>(move.to | (kNotCastlingBit & move.rookFrom));
            if constexpr (kTraced) observer_->onBestMove(best, bestFrom, bestTo);
          }
          return Verdict::kNext;
          // [best-move]
        });
    if (played) return beta;

    // [mate-stalemate]
    // Step 14. Mate scores hold at any depth; no move at all means mate or
    // stalemate, told apart by letting the opponent move twice.
    if (best > kMateBound || best < -kMateBound) draft = kMateDraft;
    if constexpr (kTraced)
      if (best == -kInfinity) observer_->onMateProbe();
    best = best + kInfinity ? best
                            : -search<kTraced>(opponentOf(side), -kInfinity, kInfinity, 0, hashKey, hashLock,
                                               kNoSquare, kNoSquare, 1) /
                                  2;
    // [mate-stalemate]

    // [hash-store]
    // Step 15. Store in the hash table unless that would overwrite an exact
    // score of a deeper search.
    [[maybe_unused]] HashEntry before;
    if constexpr (kTraced) before = entry;
    const bool store = !entry.lock || (entry.from & kOffBoard) != kOffBoard || entry.draft <= draft;
    if (store) {
      entry.lock = static_cast<int32_t>(hashLock);
      entry.score = best;
      entry.draft = static_cast<int8_t>(draft);
      table_[0].lock = 0;  // the dummy slot stays empty
      entry.from =
          static_cast<int8_t>(bestFrom | kLowerBoundBit * (best > alpha) | kUpperBoundBit * (best < beta));
      entry.to = bestTo;
    }
    if constexpr (kTraced)
      observer_->onStore(static_cast<uint32_t>(&entry - table_.data()), before, entry, store);
    // [hash-store]
    if (lastTo == kThinkMarker)
      finishRootIteration(draft, best, bestFrom, static_cast<int8_t>(bestTo & ~kOffBoard));
  }

  // [root-report]
  // Step 16. At the root, report the best move.
  if (lastTo & 8) {
    bestFrom_ = bestFrom;
    bestTo_ = bestTo & ~kOffBoard;
  }
  if constexpr (kTraced) observer_->onReturn(best, bestFrom, bestTo, draft);
  return best;
  // [root-report]
}

// ---- perft: the same generator, legality by king capture ------------------

bool Engine::kingCapturable(int side, int epSquare) {
  int8_t noHint = 0;
  return !generateMoves(side, epSquare, 0, noHint, [&](const Move& move) {
    const int gain = kValueScale * kPieceValue[move.victim & kTypeMask];
    return capturesKing(gain, move.to, epSquare) ? Verdict::kStop : Verdict::kNext;
  });
}

long Engine::perftFrom(int side, int epSquare, int depth, std::vector<PerftMove>* divide) {
  long leaves = 0;
  int8_t noHint = 0;
  generateMoves(side, epSquare, 0, noHint, [&](const Move& move) {
    int gain = 0;
    makeMove(move, side, gain);
    if (!kingCapturable(opponentOf(side), move.rookTo)) {
      const long below = depth > 1 ? perftFrom(opponentOf(side), move.rookTo, depth - 1, nullptr) : 1;
      leaves += below;
      if (divide) divide->push_back({move.from, move.to, below});
    }
    unmakeMove(move, side);
    return Verdict::kNext;
  });
  return leaves;
}

long Engine::perft(int depth, std::vector<PerftMove>* divide) {
  if (depth <= 0) return 1;
  return perftFrom(side_, epChar_, depth, divide);
}

}  // namespace umax
