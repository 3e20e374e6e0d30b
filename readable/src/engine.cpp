// engine.cpp - micro-Max 3.2's search, written out for a reader.
//
// The search is one recursive function, as in the original's D(): negamax
// with an alpha-beta window, internal iterative deepening, a quiescence
// search made of the draft-1 iteration (stand pat, then recaptures only),
// and a hash table. Engine::search() is the outline of one node (Steps 1-4);
// the rest of the node follows it in the order it runs: the move generator
// (generateMoves, Steps 5-7), the move body (searchMove, Steps 8-16), the
// end of an iteration (finishIteration, Steps 17-18) and the return
// (leaveNode, Step 19). The generator hands each move to a visitor, so that
// perft walks the very same moves; the original's `goto C` (cutoff) becomes
// the visitor's kStop and `goto A` (replay after the sneaked-in best move)
// its kReplay. Every variable keeps the original's one-letter name in a
// comment, every step its number in the walkthrough and the line map, and
// every number the original writes as a literal its expression beside the name.
//
// Tracing. The search exists twice (search<kTraced>): the traced copy tells a
// SearchObserver every event. Each of those statements has one of two forms,
// so that the walkthrough's snippets can leave them out:
//   - one line:  `if constexpr (kTraced) observer_->...;` (or `... = ...;`)
//   - a block:   `if constexpr (kTraced) {` ... with its `}` alone on a line.
// Nothing else in this file mentions kTraced, except as a template argument.
// onMoveMade is handed a copy of the move (`Move{move}`): a reference to the
// generator's own move would make the compiler keep that move in memory, not
// in registers, through the whole traced scan. onKingCapture gets the two
// squares alone: a second copy there was merged with the first and built
// for every move the scan looked at, not only for the moves made.
//
// Speed. A few things are not in the original and change only when memory
// is read, never what the search computes or stores: the prefetches of
// Step 11 (prefetchProbeWindow, prefetchLaterReplies), the huge-page table
// (HashTableMemory) and forced inlining. The walkthrough's performance page
// says what each one gains.
//
// Debug builds (no NDEBUG) assert invariants the original keeps: the window
// is not empty at entry, the side is white or black, the undo restores the
// board, a probe stays inside the table.
#include "umax/engine.h"

#include <sys/mman.h>

#include <algorithm>
#include <cassert>
#include <new>
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

/// A king with its virgin bit, colour bits removed: only such a king castles. // micro-Max: 36
constexpr int kVirginKing = kKing | kVirgin;
/// The value stored in a pawn's row mask term that marks the double-step row:
/// 6 * side + row == 128 holds for row 5 (rank 3) for white and row 2 (rank 6) for black.
/// // micro-Max: 6*k+(y&V)==S
constexpr int kDoubleStepSum = 128;
/// The board scan's step: +1 to the next file; the +8 carries column 7 into
/// the next row, and masking the off-board bits removes it everywhere else,
/// so the scan visits the 64 squares and wraps from h1 to a8. // micro-Max: x+9&~M
constexpr int kBoardScanStep = 9;
/// The colour and type bits of a piece code: `& kColourAndType` strips the
/// virgin bit. // micro-Max: u&31
constexpr int kColourAndType = kColourMask | kTypeMask;
static_assert(kColourAndType == 31);
/// Files between a pawn and the squares that tell whether it is defended
/// sideways (the pawn-structure term). // micro-Max: x-2, x+2
constexpr int kPawnNeighbourFiles = 2;

/// A root (think or legality check) passes a previous destination with this
/// bit; no real square and not the dummy 128 has it. // micro-Max: z&8
constexpr int kRootMarkerBit = 8;
static_assert((kThinkMarker & kRootMarkerBit) != 0 && (kLegalityMarker & kRootMarkerBit) != 0);
/// Hash key and lock of the root: the search adds each move's change to
/// them, so the start value only has to be the same every time. // micro-Max: J = Z = 1
constexpr uint32_t kRootHashCode = 1;

/// Both bound bits of a stored from-byte: an exact score. // micro-Max: M in (a->X&M)!=M
constexpr int kExactBits = kLowerBoundBit | kUpperBoundBit;
/// The flag bits of a best-move to-byte (not castling, sneak). // micro-Max: M in Y&~M
constexpr int kBestToFlags = kNotCastlingBit | kSneakBit;
/// Shift that moves kNotCastlingBit onto kSneakBit. // micro-Max: Y>>4
constexpr int kNotCastlingToSneak = 4;
static_assert((kNotCastlingBit >> kNotCastlingToSneak) == kSneakBit);
/// The draft at which a node is a quiescence search: it may stand pat on the
/// static eval, and only recaptures get a reply searched. // micro-Max: d>1
constexpr int kQuiescenceDraft = 1;
/// The depth of the legality check: the entered move, then every reply (a
/// reply that takes the king makes the move illegal). // micro-Max: n = 2 in D(k,-I,I,Q,1,1,O,9,2)
constexpr int kLegalityDepth = 2;
/// The hash table's dummy slot, used when a probe window is full; it is
/// emptied after every store so that it always looks free. // micro-Max: A[0]
constexpr int kDummySlot = 0;

/// The flag the search reads when the caller gave none, and outside thinks:
/// never raised. Pointing at it keeps the per-node check to one load.
const std::atomic<bool> kNeverRaised{false};

/// Thrown at a counted node when the stop flag is up; thinkWith() catches it.
/// Unwinding skips every store and undo on the way out, so the hash table
/// keeps only what finished nodes wrote, and thinkWith() restores the board.
/// The flag costs nothing while it is down: no test after each move.
struct ThinkAborted {};

/// Asks the memory system to bring the cache line holding `address` closer.
/// On x86 an asm statement: GCC deletes a loop whose only effect is
/// __builtin_prefetch, as if it did nothing (prefetchLaterReplies below
/// vanished so), and in one build it also removed the single reply
/// prefetch of the traced search. Elsewhere the builtin.
[[gnu::always_inline]] inline void prefetchLine(const void* address) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(address)));
#else
  __builtin_prefetch(address);
#endif
}

/// Debug builds copy the board before a move is made, to check that the undo
/// restores every square (the dummy b[128] excepted: the undo writes a rook
/// there whatever it held). Release builds keep nothing.
class UndoCheck {
 public:
#ifndef NDEBUG
  explicit UndoCheck(const Board& board) : before_(board) {}
  void verify(const Board& board) const {
    assert(std::equal(board.begin(), board.begin() + kNoSquare, before_.begin()));
  }

 private:
  Board before_;
#else
  explicit UndoCheck(const Board&) {}
  void verify(const Board&) const {}
#endif
};

}  // namespace

// The table's memory, mapped on its own: anonymous pages start zeroed, as
// the original's global A[] does, and are only touched when first used. The
// mapping is rounded up to whole 2 MB pages and handed to the kernel's
// transparent huge pages before any slot is touched (where the kernel
// offers them only on request, as Debian's does by default).
namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
std::size_t tableBytes(std::size_t slots) {
  return (slots * sizeof(HashEntry) + kHugePage - 1) / kHugePage * kHugePage;
}
}  // namespace

HashTableMemory::HashTableMemory() : size_(kHashEntries + 1), slots_(nullptr, Release{tableBytes(size_)}) {
  const std::size_t bytes = slots_.get_deleter().bytes;
  // Map one huge page more, so that the table can start on a 2 MB boundary.
  void* mapped = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  auto* start = static_cast<char*>(mapped);
  auto* aligned =
      reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(start) + kHugePage - 1) & ~(kHugePage - 1));
  if (aligned != start) munmap(start, static_cast<std::size_t>(aligned - start));
  const std::size_t tail = static_cast<std::size_t>(start + bytes + kHugePage - (aligned + bytes));
  if (tail != 0) munmap(aligned + bytes, tail);
#ifdef MADV_HUGEPAGE
  madvise(aligned, bytes, MADV_HUGEPAGE);  // a hint: without huge pages the table works the same
#endif
  slots_.reset(reinterpret_cast<HashEntry*>(aligned));
}

void HashTableMemory::Release::operator()(HashEntry* slots) const { munmap(slots, bytes); }

// [key-table]
const std::array<int8_t, kKeyTableSize>& standardKeyTable() {
  // main(): F(i,M,1035)T[i]=random()>>9;  The extra slot past the end stands
  // in for the memory a 9th probe of the very last window reads in the original.
  static const std::array<int8_t, kKeyTableSize> keys = [] {
    std::array<int8_t, kKeyTableSize> table{};
    GlibcRandom random;
    for (int index = kFirstRandomKey; index < kKeyTableSize; ++index)
      table[index] = static_cast<int8_t>(random.next() >> 9);
    return table;
  }();
  return keys;
}

Engine::Engine() : keys_(standardKeyTable()), stop_(&kNeverRaised) {
  board_ = startBoard();  // main()'s set-up of the pieces
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

void Engine::clearHashTable() {
  std::fill(table_.data(), table_.data() + table_.size(), HashEntry{});
  tableUnused_ = true;
}

// [clear-locks]
void Engine::clearHashLocks() {
  for (int32_t slot = 0; slot < kHashEntries; ++slot) table_[slot].lock = 0;
}
// [clear-locks]

void Engine::clearRootProbeWindow() {
  const uint32_t first = firstProbeSlot(side_, epChar_, kRootHashCode);
  for (uint32_t slot = first + 1; slot <= first + 8; ++slot) table_[slot].lock = 0;
  table_[kDummySlot].lock = 0;
}

void Engine::setStopFlag(const std::atomic<bool>* flag) { stopFlag_ = flag; }

void Engine::setIterationListener(IterationListener listener) { iterationListener_ = std::move(listener); }

ThinkResult Engine::think(long budget) { return thinkWith<false>(budget); }

ThinkResult Engine::think(long budget, SearchObserver& observer) {
  observer_ = &observer;
  tellReturns_ = observer.wantsReturns();
  const ThinkResult result = thinkWith<true>(budget);
  observer_ = nullptr;
  return result;
}

// The start of a call told hook by hook, for observers that do not
// override onEnter.
void SearchObserver::onEnter(const NodeCall& call, const ProbeReport& report, const HashEntry& entry,
                             int nodeCount) {
  onCall(call);
  onProbe(report, entry);
  if (report.endsNode)
    onReturn(entry.score, entry.from & ~kExactBits, entry.to, entry.draft);
  else
    onNodeCounted(nodeCount);
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
  tableUnused_ = false;  // the search stores from here on
  try {
    result.score = search<kTraced>(side_, -kInfinity, kInfinity, eval_, kRootHashCode, kRootHashCode, epChar_,
                                   kThinkMarker, 0);
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
  assert(result.aborted || result.completedIterations == 0 ||
         (result.from == lastIteration_.from && result.to == lastIteration_.to));
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
  tableUnused_ = false;  // the search stores from here on
  if (search<false>(side_, -kInfinity, kInfinity, eval_, kRootHashCode, kRootHashCode, epChar_,
                    kLegalityMarker, kLegalityDepth) == kInfinity) {
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

// ---- The tools of the search: hash keys, probe, king capture, make and undo

// [key-words]
// Hash keys: a piece on a square has one random word for the key J and
// another for the lock Z, read from overlapping places of the byte table T[]:
// offset square (+8 for the lock), +8 for white, +128 per type. // micro-Max: K(A,B)
[[gnu::always_inline]] inline int32_t Engine::keyWord(int offset, int piece) const {
  return hashWord(keys_, offset, piece);
}

// How a move changes a hash key (kKeySalt) or lock (kLockSalt): add the word of
// the piece arriving on the to-square (arrivingPiece: a promoted pawn counts
// as a queen), take away the mover's word on its from-square and the victim's
// on the capture square. The castling rook is not in it; the lock adds G-S for that.
// micro-Max: J(A) = K(y+A,b[y])-K(x+A,u)-K(H+A,t), in wrapping arithmetic (b[y] after the move).
[[gnu::always_inline]] inline uint32_t Engine::keyChange(int salt, const Move& move, int arriving) const {
  return hashChange(keys_, salt, move.from, move.to, move.captureSquare, move.piece, move.victim, arriving);
}
// [key-words]

// [probe]
// The hash probe of Step 1: look at up to 9 consecutive slots from
// (k*E ^ J) & mask for the first one that is empty or holds our lock. If all
// are taken by other positions, use the dummy slot 0, which always looks empty.
[[gnu::always_inline]] inline HashEntry& Engine::probe(int side, int passedSquare, uint32_t hashKey,
                                                       uint32_t hashLock) {
  uint32_t slot = firstProbeSlot(side, passedSquare, hashKey);
  for (int tries = 0; tries < kProbeSlots; ++tries) {
    assert(slot + 1 < table_.size());
    HashEntry& entry = table_[++slot];
    if (entry.lock == 0 || static_cast<uint32_t>(entry.lock) == hashLock) return entry;
  }
  return table_[kDummySlot];
}
// [probe]

// Asks the memory system for the first slot a probe of this position will
// read (the slot after (k*E ^ J) & mask), so that it is on its way while the
// caller still makes the move and prepares the call. Most probes stop at that
// slot: an empty one (a new position) or the position's own. Not in the
// original: it changes when memory is read, never what is read.
[[gnu::always_inline]] inline void Engine::prefetchProbeWindow(int side, int passedSquare,
                                                               uint32_t hashKey) const {
  const uint32_t first = firstProbeSlot(side, passedSquare, hashKey);
  prefetchLine(&table_.data()[first + 1]);  // a hint: no fault, no effect on the search
  // A 12-byte slot can straddle two 64-byte cache lines (1 slot in 8): ask for its last byte too.
  prefetchLine(reinterpret_cast<const char*>(&table_.data()[first + 2]) - 1);
}

// What probe() did, told again for an observer: where the window starts,
// how many slots were looked at and how it ended. Only traced searches ask.
[[gnu::always_inline]] inline ProbeReport Engine::probeReport(int side, int passedSquare, uint32_t hashKey,
                                                              const HashEntry& entry) const {
  ProbeReport report;
  report.firstSlot = firstProbeSlot(side, passedSquare, hashKey);
  report.slot = slotOf(entry);
  if (report.slot == kDummySlot) {
    report.slotsProbed = kProbeSlots;
    report.outcome = ProbeOutcome::kFull;
  } else {
    report.slotsProbed = static_cast<int>(report.slot - report.firstSlot);
    report.outcome = entry.lock != 0 ? ProbeOutcome::kHit : ProbeOutcome::kMiss;
  }
  return report;
}

[[gnu::always_inline]] inline uint32_t Engine::slotOf(const HashEntry& entry) const {
  return static_cast<uint32_t>(&entry - table_.data());
}

// [captures-king]
// The test of Step 8: a capture of the king means the previous move was
// illegal. The same verdict if a reply lands on or next to the square a
// castling king passed (E, still holding the castled rook), so castling out
// of, through or into check is refused. // micro-Max: i<0||E-S&&b[E]&&y-E<2&E-y<2
[[gnu::always_inline]] inline bool Engine::capturesKing(int gain, int to, int passedSquare) const {
  return gain < 0 || (passedSquare != kNoSquare && to - passedSquare < 2 && passedSquare - to < 2 &&
                      board_[passedSquare]);
}
// [captures-king]

// [make-move]
namespace {

// A pawn whose next step would leave the board has reached the last rank.
// The +1 keeps a capture towards the a-file (step -17) from row 1 at 0. // micro-Max: y+r+1&S
bool promotes(const Move& move) {
  return move.type <= kDownwardPawn && ((move.to + move.step + 1) & kNoSquare);
}

// The piece that stands on the to-square once the move is made: the mover
// without its virgin bit, a queen if a pawn promotes.
int arrivingPiece(const Move& move) { return (move.piece & kColourAndType) | (promotes(move) ? kQueen : 0); }

}  // namespace

// Do the move (Step 11): strip the virgin bit, place a castling rook, promote.
// Returns the positional gain (centre points, castling bonus, pawn
// structure); `gain` grows by the promotion bonus.
[[gnu::always_inline]] inline int Engine::makeMove(const Move& move, int side, int& gain) {
  int score =
      move.type < kRook ? board_[move.from + kCentreTableOffset] - board_[move.to + kCentreTableOffset] : 0;
  board_[move.rookFrom] = board_[move.captureSquare] = board_[move.from] = 0;
  board_[move.to] = move.piece & kColourAndType;  // strip the virgin bit
  if (!(move.rookFrom & kOffBoard)) {
    board_[move.passedSquare] = static_cast<int8_t>(side + kRook);  // castling: the rook lands on F
    score += kCastlingBonus;
  }
  if (move.type <= kDownwardPawn) {
    // A pawn without a twin two files to either side costs a unit (the -1 is a bias).
    const int left = move.from - kPawnNeighbourFiles;
    const int right = move.from + kPawnNeighbourFiles;
    score -= kPawnStructureUnit * (((left & kOffBoard) || board_[left] != move.piece) +
                                   ((right & kOffBoard) || board_[right] != move.piece) - 1);
    if (promotes(move)) {  // last rank: a queen
      board_[move.to] |= kQueen;
      gain += kPromotionBonus;
    }
  }
  return score;
}
// [make-move]

// [unmake-move]
// Undo the move (Step 14). rookFrom may be the dummy square 128, which then
// receives a rook: harmless, nothing reads it. // micro-Max: b[G]=k+38
[[gnu::always_inline]] inline void Engine::unmakeMove(const Move& move, int side) {
  board_[move.rookFrom] = static_cast<int8_t>(side + kRook + kVirgin);
  board_[move.passedSquare] = board_[move.to] = 0;
  board_[move.from] = move.piece;
  board_[move.captureSquare] = move.victim;
}
// [unmake-move]

// Asks the memory system, all at once, for the first probe slot of every
// reply the current iteration may search: a pass of the generator that only
// computes each move's reply key (as Step 11 does). The reads overlap instead
// of each reply waiting for its own; the replies' probes then mostly find
// their slot in the cache. Not in the original, and no effect on the search.
// Once per full-width iteration (draft 2 or more: every move is searched),
// when the first move that was not sneaked in is about to be searched. If
// the sneaked-in best move fails high, no other move is searched and the
// pass is saved (about half of the full-width iterations of the bench's
// searches end so). Quiescence searches only recaptures: no pass.
[[gnu::always_inline]] inline void Engine::prefetchLaterReplies(Node& node) {
  if (node.repliesPrefetched || (node.bestTo & kSneakBit) || node.draft <= kQuiescenceDraft) return;
  node.repliesPrefetched = true;
  int8_t noHint = 0;
  generateMoves(
      node.side, node.passedSquare, 0, noHint, [&](const Move& move) __attribute__((always_inline)) {
        prefetchProbeWindow(opponentOf(node.side), move.passedSquare,
                            node.hashKey + keyChange(kKeySalt, move, arrivingPiece(move)));
        return Verdict::kNext;
      });
}

// ---- The search, in the order one node runs it ------------------------------

// [search-signature]
// micro-Max's D(): the score of the position for `side`, searched to
// `depth` within the window (alpha, beta). Steps 1-4 are here; the loop
// hands every move to searchMove() and ends each iteration in
// finishIteration(); leaveNode() returns. All three follow below.
template <bool kTraced>
int Engine::search(int side,           // k: the side to move, 8 or 16
                   int alpha,          // q: lower end of the window
                   int beta,           // l: upper end of the window
                   int eval,           // e: incremental evaluation for the side to move
                   uint32_t hashKey,   // J: hash key (selects the slot)
                   uint32_t hashLock,  // Z: hash lock (identifies the position)
                   int passedSquare,   // E: the square the previous move passed over (its F)
                   int lastTo,         // z: previous move's destination; 8 = think, 9 = legality check
                   int depth) {        // n: requested depth (draft)
  Node node{side, alpha, beta, eval, hashKey, hashLock, passedSquare, lastTo, depth};
  // [search-signature]
  assert(side == kWhite || side == kBlack);
  assert(alpha < beta);

  // [hash-hit]
  // Step 1. Look the position up in the hash table.
  HashEntry& entry = probe(side, passedSquare, hashKey, hashLock);  // a
  if constexpr (kTraced) {
    ProbeReport report = probeReport(side, passedSquare, hashKey, entry);
    report.endsNode = entry.lock != 0 && entry.draft >= depth &&
                      (entry.score >= beta || (entry.from & kUpperBoundBit)) &&
                      (entry.score <= alpha || (entry.from & kLowerBoundBit));
    // kCall, kProbe, then kReturn or kNodeCounted (Step 3), in one hook.
    observer_->onEnter({side, alpha, beta, eval, hashKey, hashLock, passedSquare, lastTo, depth}, report,
                       entry, nodes_ + 1);
  }
  if (entry.lock != 0) {
    // Step 2. A hit: use the stored score if it was searched deep enough and
    // its bound type settles our window; otherwise start deepening from it.
    node.draft = entry.draft;
    const int stored = entry.score;
    node.bestFrom = entry.from;
    if (node.draft >= depth) {
      const bool settlesHigh = stored >= beta || (node.bestFrom & kUpperBoundBit);
      const bool settlesLow = stored <= alpha || (node.bestFrom & kLowerBoundBit);
      if (settlesHigh && settlesLow) return stored;
      node.draft = depth - 1;
    }
    node.bestFrom &= ~kExactBits;  // the move without its bound bits
    node.bestTo = entry.to;
    node.bestTo = node.draft ? node.bestTo : 0;  // no best-move hint for a draft-0 start
  } else {
    node.draft = node.bestFrom = node.bestTo = 0;  // a miss: start from scratch, no hint
  }

  // Step 3. Count the node: the node count is the think's clock.
  ++nodes_;
  // [hash-hit]
  if (stop_->load(std::memory_order_relaxed)) [[unlikely]]
    throw ThinkAborted{};  // the stop flag (see ThinkAborted)

  // [deepening]
  // Step 4. Iterative deepening: one more ply per pass until the requested
  // depth; the root of a think goes on while nodes remain in the budget.
  while (node.draft++ < depth ||
         (lastTo == kThinkMarker && nodes_ < kNodeLimit && node.draft < kMaxIteration)) {
    if constexpr (kTraced) observer_->onIteration(node.draft);
    const int8_t scanStart = node.bestFrom;  // B: start the board scan at the previous best
    // Try the previous best move first unless it castles. // micro-Max: Y|=8&Y>>4
    node.bestTo |= kSneakBit & (node.bestTo >> kNotCastlingToSneak);
    // Quiescence: at draft 1 the node may "stand pat" on its static eval
    // (Step 10 then searches only recaptures). Deeper, best starts at -infinity:
    // the side to move has to play one of its moves.
    node.best = node.draft > kQuiescenceDraft ? -kInfinity : eval;
    node.repliesPrefetched = false;  // not in the original (prefetchLaterReplies)
    // [deepening]

    // Steps 5-16: the generator finds each move, searchMove() searches it.
    generateMoves(
        side, passedSquare, scanStart, node.bestTo, [&](const Move& move) __attribute__((always_inline)) {
          return searchMove<kTraced>(node, move);
        });
    if (node.played) return beta;           // Step 13 played the entered move: it stays on the board
    finishIteration<kTraced>(node, entry);  // Steps 17-18
  }
  return leaveNode<kTraced>(node);  // Step 19
}

// [generate-loops]
// Step 5. The move generator: scan the board from `scanStart` for pieces of
// `side`; for each, each of its step vectors; along each, the ray of squares
// until the board edge, an own piece, a capture, or the one step of a pawn,
// knight or king. Every move found goes to `visit`, which answers whether to
// go on, to stop the scan (a cutoff), or to replay the direction (after the
// previous iteration's best move was "sneaked in" first, see Step 15).
// While bestTo has kSneakBit, every ray yields that move's square instead.
template <class Visit>
[[gnu::always_inline]] inline bool Engine::generateMoves(int side, int passedSquare, int8_t scanStart,
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
        move.passedSquare = move.rookFrom = kNoSquare;
        // t after the fake capture of Step 7: non-zero ends the ray.
        int8_t stop;
        // [generate-loops]
        do {
          // [next-square]
          // Step 6. Next square of the ray (or the best move's square, sneaked in).
          move.captureSquare = move.to = static_cast<int8_t>(move.to + step);
          if (bestTo & kSneakBit) move.captureSquare = move.to = bestTo & ~kBestToFlags;
          if (move.to & kOffBoard) break;  // board edge
          // E.p.: the victim stands one row behind the skipped square (row 2 <-> 3 or 5 <-> 4).
          if (move.type <= kDownwardPawn && move.to == passedSquare)
            move.captureSquare = move.to ^ kRowStep;  // micro-Max: H=y^16
          move.victim = board_[move.captureSquare];
          // Own piece, or a pawn moving straight onto a piece / diagonally onto nothing.
          if ((move.victim & side) || (move.type <= kDownwardPawn && !(step & kFileMask) != !move.victim))
            break;
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
          // Step 7. End the ray after a capture or a non-slider's step,
          // except for a pawn's first step to its double-step row and a
          // virgin king's sideways step towards a virgin rook with two
          // empty squares beside it: those continue, and the next move
          // remembers the square passed over (F: the e.p. square, or where
          // the castling rook lands).
          stop = static_cast<int8_t>(move.victim + (move.type < kBishop));  // fake capture
          if ((move.type <= kDownwardPawn && 6 * side + (move.to & kRowMask) == kDoubleStepSum) ||
              ((move.piece & ~kColourMask) == kVirginKing && stepIndex == kSidewaysStepIndex &&
               (move.rookFrom & kOffBoard) &&
               // the corner on the king's side of the step: h-file for +1, a-file for -1
               (board_[move.rookFrom = (move.from | kFileMask) - ((step >> 1) & kFileMask)] & kVirgin) &&
               // the two squares beside the corner (g, f or b, c) are empty
               !(board_[move.rookFrom ^ 1] | board_[move.rookFrom ^ 2]))) {
            move.passedSquare = move.to;
            stop--;  // unfake the capture: the ray goes on
          }
        } while (!stop);
      } while (replay);
    }
  } while ((move.from = static_cast<int8_t>((move.from + kBoardScanStep) & ~kOffBoard)) != scanStart);
  return true;
}
// [ray-end]

// [visit-move]
// The move body: what the original's loop does with one move x -> y. It
// answers the generator: next move, stop the scan, or replay the direction.
template <bool kTraced>
[[gnu::always_inline]] inline Engine::Verdict Engine::searchMove(Node& node, const Move& move) {
  // Step 8. King capture: the move takes the king, so the previous move was
  // illegal (capturesKing above); this node is worth "infinity".
  int gain = kValueScale * kPieceValue[move.victim & kTypeMask];  // i
  if (capturesKing(gain, move.to, node.passedSquare)) {
    node.best = kInfinity;
    if constexpr (kTraced) observer_->onKingCapture(move.from, move.to, gain >= 0);
  }
  // Step 9. Fail high: the opponent will avoid this position; stop the scan.
  if (node.best >= node.beta) {
    if constexpr (kTraced) observer_->onCutoff(node.best);
    return Verdict::kStop;
  }

  // Step 10. Quiescence and the recapture extension: a move to the previous
  // destination keeps the full draft, any other loses a ply. So at draft 1
  // (quiescence) only recaptures are searched; the rest stand on the stand pat.
  const int remaining = node.draft - (move.to != node.lastTo);  // h
  if (!remaining) return Verdict::kNext;

  // Step 11. Make the move (makeMove above). The reply's hash key does not
  // need the board: it is computed first and the reply's probe window is
  // fetched from memory while the move is made (prefetchProbeWindow). If
  // prefetchLaterReplies asked for it already, this second request finds
  // the line in the cache and costs almost nothing.
  prefetchLaterReplies(node);
  const int arriving = arrivingPiece(move);
  const uint32_t replyKey = node.hashKey + keyChange(kKeySalt, move, arriving);
  prefetchProbeWindow(opponentOf(node.side), move.passedSquare, replyKey);
  const UndoCheck undoCheck(board_);
  int score = makeMove(move, node.side, gain);  // v
  assert(board_[move.to] == arriving);
  if constexpr (kTraced) observer_->onMoveMade(Move{move}, remaining, (node.bestTo & kSneakBit) != 0);
  // [visit-move]

  // [recursion]
  // Step 12. Search the reply with the window turned round. Beta loses a
  // point when it exceeds the eval, to match the delayed-gain penalty below.
  score = -search<kTraced>(
      opponentOf(node.side), -node.beta - (node.beta > node.eval),
      node.best > node.alpha ? -node.best : -node.alpha, -node.eval - score - gain, replyKey,
      node.hashLock + keyChange(kLockSalt, move, arriving) + static_cast<uint32_t>(move.rookFrom - kNoSquare),
      move.passedSquare, move.to, remaining);
  score -= score > node.eval;  // delayed-gain penalty: a gain now beats the same gain later
  // [recursion]

  // [legality-root]
  // Step 13. As legality checker: stop at the entered move if legal.
  if (node.lastTo == kLegalityMarker) {
    if (score != -kInfinity && move.from == bestFrom_ && move.to == bestTo_) {
      eval_ = -node.eval - gain;
      epChar_ = static_cast<int8_t>(move.passedSquare);
      node.played = true;
      return Verdict::kStop;  // the move stays on the board
    }
    score = node.best;  // no fail-low on king-capture replies
  }
  // [legality-root]

  // Step 14. Undo the move (unmakeMove above).
  unmakeMove(move, node.side);
  undoCheck.verify(board_);
  if constexpr (kTraced) observer_->onMoveScored(score);

  // [sneak-replay]
  // Step 15. The best move of the last iteration was searched first; its
  // score is the starting best, then this direction is scanned normally.
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
    node.bestTo = static_cast<int8_t>(move.to | (kNotCastlingBit & move.rookFrom));
    if constexpr (kTraced) observer_->onBestMove(node.best, node.bestFrom, node.bestTo);
  }
  return Verdict::kNext;
  // [best-move]
}

// [mate-stalemate]
// The end of one iteration of the deepening loop (the original's label C:).
template <bool kTraced>
[[gnu::always_inline]] inline void Engine::finishIteration(Node& node, HashEntry& entry) {
  // Step 17. Mate scores hold at any depth. No move at all kept the king
  // (best is still -infinity): mate or stalemate, told apart by letting the
  // opponent move twice, a quiescence search from a neutral eval of 0 with
  // no e.p. square and no previous move: half of its score is -I/2 (mated)
  // if it takes the king, else about 0 (stalemate). // micro-Max: -D(24-k,-I,I,0,J,Z,S,S,1)/2
  if (node.best > kMateBound || node.best < -kMateBound) node.draft = kMateDraft;
  const bool noMoveKeptTheKing = node.best == -kInfinity;  // micro-Max: m+I == 0
  if constexpr (kTraced) {
    if (noMoveKeptTheKing) observer_->onMateProbe();
  }
  if (noMoveKeptTheKing)
    node.best = -search<kTraced>(opponentOf(node.side), -kInfinity, kInfinity, 0, node.hashKey, node.hashLock,
                                 kNoSquare, kNoSquare, kQuiescenceDraft) /
                2;
  // [mate-stalemate]

  // [hash-store]
  // Step 18. Store in the hash table unless that would overwrite an exact
  // score of a deeper search.
  if constexpr (kTraced) entryBeforeStore_ = entry;
  const bool store = !entry.lock || (entry.from & kExactBits) != kExactBits || entry.draft <= node.draft;
  if (store) {
    assert(node.draft <= kMateDraft);
    entry.lock = static_cast<int32_t>(node.hashLock);
    entry.score = node.best;
    entry.draft = static_cast<int8_t>(node.draft);
    table_[kDummySlot].lock = 0;  // the dummy slot stays empty
    entry.from = static_cast<int8_t>(node.bestFrom | kLowerBoundBit * (node.best > node.alpha) |
                                     kUpperBoundBit * (node.best < node.beta));
    entry.to = node.bestTo;
  }
  if constexpr (kTraced) observer_->onStore(slotOf(entry), entryBeforeStore_, entry, store);
  // [hash-store]
  if (node.lastTo == kThinkMarker)
    finishRootIteration(node.draft, node.best, node.bestFrom,
                        static_cast<int8_t>(node.bestTo & ~kBestToFlags));
}

// [root-report]
// Step 19. Return the best score. A root (think or legality check) also
// leaves its best move in K, L for main(). // micro-Max: if(z&8){K=X;L=Y&~M;}
template <bool kTraced>
[[gnu::always_inline]] inline int Engine::leaveNode(const Node& node) {
  if (node.lastTo & kRootMarkerBit) {
    bestFrom_ = node.bestFrom;
    bestTo_ = node.bestTo & ~kBestToFlags;
  }
  if constexpr (kTraced) {
    if (tellReturns_) observer_->onReturn(node.best, node.bestFrom, node.bestTo, node.draft);
  }
  return node.best;
}
// [root-report]

// ---- perft: the same generator, legality by king capture ------------------

bool Engine::kingCapturable(int side, int passedSquare) {
  int8_t noHint = 0;
  return !generateMoves(side, passedSquare, 0, noHint, [&](const Move& move) {
    const int gain = kValueScale * kPieceValue[move.victim & kTypeMask];
    return capturesKing(gain, move.to, passedSquare) ? Verdict::kStop : Verdict::kNext;
  });
}

long Engine::perftFrom(int side, int passedSquare, int depth, std::vector<PerftMove>* divide) {
  long leaves = 0;
  int8_t noHint = 0;
  generateMoves(side, passedSquare, 0, noHint, [&](const Move& move) {
    int gain = 0;
    const UndoCheck undoCheck(board_);
    makeMove(move, side, gain);
    if (!kingCapturable(opponentOf(side), move.passedSquare)) {
      const long below = depth > 1 ? perftFrom(opponentOf(side), move.passedSquare, depth - 1, nullptr) : 1;
      leaves += below;
      if (divide) divide->push_back({move.from, move.to, below});
    }
    unmakeMove(move, side);
    undoCheck.verify(board_);
    return Verdict::kNext;
  });
  return leaves;
}

long Engine::perft(int depth, std::vector<PerftMove>* divide) {
  if (depth <= 0) return 1;
  return perftFrom(side_, epChar_, depth, divide);
}

}  // namespace umax
