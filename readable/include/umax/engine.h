/// \file engine.h
/// \brief The readable micro-Max 3.2: the same search as the original's D(), node for node.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "umax/position.h"
#include "umax/search_observer.h"
#include "umax/types.h"

namespace umax {

/// One slot of the hash table, laid out as the original's `struct _`.
struct HashEntry {
  int32_t lock = 0;   ///< hash lock Z of the position; 0 = empty // micro-Max: K
  int32_t score = 0;  ///< score found // micro-Max: V
  int8_t from = 0;    ///< best from-square | bound bits (see kLowerBoundBit) // micro-Max: X
  int8_t to = 0;      ///< best to-square | kNotCastlingBit // micro-Max: Y
  int8_t draft = 0;   ///< depth the score was searched to // micro-Max: D
};

/// Bit of HashEntry::from: the score was above alpha, so it is a lower bound.
inline constexpr int kLowerBoundBit = 8;
/// Bit of HashEntry::from: the score was below beta, so it is an upper bound.
inline constexpr int kUpperBoundBit = 128;
/// Bit of a best-move to-byte (Y): the move is not a castling, so it may be
/// searched first in the next iteration.
inline constexpr int kNotCastlingBit = 128;
/// Bit of Y while the best move is waiting to be searched first ("sneaked in").
inline constexpr int kSneakBit = 8;

/// Number of slots: 16M + 8. // micro-Max: U
inline constexpr int32_t kHashEntries = 16777224;
/// Mask that picks the first slot of a probe window. // micro-Max: U-9
inline constexpr int32_t kHashSlotMask = kHashEntries - 9;
/// Slots examined per probe. The original's comment says 8, but its loop
/// (`i=9; while(... && --i)`) examines up to 9.
inline constexpr int kProbeSlots = 9;
/// Size of the hash-key table T[]. // micro-Max: T[1035]
inline constexpr int kKeyTableSize = 1035;
/// Entries of T[] below this stay zero; main() fills from M = 136 on.
inline constexpr int kFirstRandomKey = 136;

// [hash-words]
/// The hash-key table T[] every engine holds: main() fills it from M = 136
/// on with `random()>>9`, from glibc's random() never seeded, so it is the
/// same in every run. A trace's reader derives keys and locks from it.
const std::array<int8_t, kKeyTableSize>& standardKeyTable();
/// The salt that selects a piece's key word in T[] (for J). // micro-Max: J(0)
inline constexpr int kKeySalt = 0;
/// The salt that selects its lock word, 8 bytes further on (for Z). // micro-Max: J(8)
inline constexpr int kLockSalt = 8;
/// Bytes of T[] between the key words of two piece types. // micro-Max: S in K(A,B)
inline constexpr int kKeyTypeStride = 128;

/// Reads four bytes of the key table as one little-endian int, as the
/// original's `*(int*)(T+...)` does on the x86 it ran on.
[[gnu::always_inline]] inline int32_t loadWord(const int8_t* bytes) {
  // Spelled out byte by byte (GCC turns this form into one 4-byte load; a loop it leaves as a loop).
  const auto byte = [bytes](int index) { return static_cast<uint32_t>(static_cast<uint8_t>(bytes[index])); };
  return static_cast<int32_t>(byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24);
}

/// The word of `piece` on square `offset` (+ salt) in the key table `keys`:
/// offset square, +8 for white, +128 per type. // micro-Max: K(A,B)
[[gnu::always_inline]] inline int32_t hashWord(const std::array<int8_t, kKeyTableSize>& keys, int offset,
                                               int piece) {
  return loadWord(&keys[offset + (piece & kWhite) + kKeyTypeStride * (piece & kTypeMask)]);
}

/// How a move changes a hash key (kKeySalt) or lock (kLockSalt): the word of
/// the piece arriving on the to-square, less the mover's word on its
/// from-square and the victim's on the capture square, in wrapping arithmetic.
/// // micro-Max: J(A) = K(y+A,b[y])-K(x+A,u)-K(H+A,t)
[[gnu::always_inline]] inline uint32_t hashChange(const std::array<int8_t, kKeyTableSize>& keys, int salt,
                                                  int from, int to, int captureSquare, int piece, int victim,
                                                  int arriving) {
  return static_cast<uint32_t>(hashWord(keys, to + salt, arriving)) -
         static_cast<uint32_t>(hashWord(keys, from + salt, piece)) -
         static_cast<uint32_t>(hashWord(keys, captureSquare + salt, victim));
}

/// The slot before a probe's window of 9: (k*E ^ J) & mask. // micro-Max: j=(k*E^J)&U-9
[[gnu::always_inline]] inline uint32_t firstProbeSlot(int side, int passedSquare, uint32_t hashKey) {
  return (static_cast<uint32_t>(side * passedSquare) ^ hashKey) & kHashSlotMask;
}
// [hash-words]

/// A move as the generator offers it: what the original keeps in D()'s
/// locals while it tries one.
struct Move {
  int8_t from = 0;           ///< micro-Max: x
  int8_t to = 0;             ///< micro-Max: y
  int8_t captureSquare = 0;  ///< where the victim stands; differs from `to` for e.p. // micro-Max: H
  int8_t victim = 0;         ///< the piece on captureSquare, 0 if none // micro-Max: t
  int8_t piece = 0;          ///< the moving piece // micro-Max: u
  int8_t type = 0;           ///< its type // micro-Max: p
  int step = 0;              ///< the step vector of the ray // micro-Max: r
  int rookFrom = kNoSquare;  ///< castling rook's corner, else 128 (the dummy) // micro-Max: G
  /// The square the move passed over, else 128. One square, two roles: for a
  /// pawn's double step it is the skipped square, which the reply may capture
  /// e.p.; for a castling it is the square the king crossed, where the rook
  /// lands and which no reply may attack. The child search receives it as its
  /// E and tells the two apart by what stands there (nothing, or the rook).
  /// // micro-Max: F
  int passedSquare = kNoSquare;
};

/// One root move of a perft with the leaves below it.
struct PerftMove {
  /// From-square of the root move.
  int from = 0;
  /// To-square of the root move.
  int to = 0;
  /// Leaves counted below it.
  long leaves = 0;
};

/// What a think found.
///
/// `from`, `to` and `score` are the root's result, as the original leaves
/// them in K, L and D()'s return value. When the stop flag ended the think
/// (`aborted`), they are those of the last completed root iteration; if no
/// iteration was completed, there is no move (`from == to == 0`, score 0).
struct ThinkResult {
  int from = 0;    ///< from-square of the best move (micro-Max: K)
  int to = 0;      ///< to-square of the best move (micro-Max: L)
  int score = 0;   ///< the root's score
  long nodes = 0;  ///< nodes searched (calls of the search that passed the hash probe)
  /// Draft of the last completed root iteration (kMateDraft once a mate
  /// score made the result final); 0 if none was completed.
  int depth = 0;
  /// Root iterations completed. 0 when the root was answered from the hash
  /// table or the stop flag was raised before the first iteration ended.
  int completedIterations = 0;
  /// True when the stop flag ended the think in the middle of an iteration.
  bool aborted = false;
  /// False when the think has no move to offer (see above). The first
  /// iteration of a think from an empty root slot looks at no move (at
  /// draft 1 the root only checks for king captures), so a think stopped
  /// right after it has none either.
  bool hasMove() const { return from != to; }
};

/// What the root of a think tells its listener after each completed
/// iteration: the result the think would return if it stopped there.
///
/// A think with budget B starts another iteration while fewer than B nodes
/// are counted, so a fresh think with budget `nodes` (same position, same
/// table) ends after this iteration with the same move and score, provided
/// this iteration counted a node of its own (`nodes` above the previous
/// report's). The first iteration from an empty root slot never does: at
/// draft 1 the root looks at no move, so its report has `nodes` 1 and no move.
struct IterationReport {
  int iteration = 0;  ///< 1 for the first iteration this think completed
  int draft = 0;      ///< the draft it searched (d; kMateDraft after a mate score)
  int score = 0;      ///< the root's best score after it (m)
  int from = 0;       ///< best move's from-square (X), 0 if none yet
  int to = 0;         ///< best move's to-square (Y without its flag bits), 0 if none yet
  long nodes = 0;     ///< nodes this think has counted so far
};

/// Receives an IterationReport after each completed root iteration of a think.
using IterationListener = std::function<void(const IterationReport&)>;

/// The memory of the hash table: kHashEntries + 1 zeroed slots (the extra
/// one stands in for what the original's last probe window reads past its
/// array). Where the system offers transparent huge pages, the slots lie on
/// 2 MB pages: a probe lands on a random slot of a 200 MB table, and with
/// 4 KB pages nearly every probe also misses the TLB (see the performance
/// page of the walkthrough). The slots are the same either way.
class HashTableMemory {
 public:
  HashTableMemory();
  /// The first slot.
  HashEntry* data() { return slots_.get(); }
  /// The first slot, read-only.
  const HashEntry* data() const { return slots_.get(); }
  /// One slot.
  HashEntry& operator[](std::size_t slot) { return slots_.get()[slot]; }
  /// Number of slots (kHashEntries + 1).
  std::size_t size() const { return size_; }
  /// The slots as a read-only range.
  std::span<const HashEntry> view() const { return {slots_.get(), size_}; }

 private:
  struct Release {
    std::size_t bytes;
    void operator()(HashEntry* slots) const;
  };
  std::size_t size_;
  std::unique_ptr<HashEntry, Release> slots_;
};

/// micro-Max 3.2 as a C++ object: the board, the hash table and the search.
///
/// The state and every operation follow the original's globals and main():
/// a new Engine holds main()'s start position with an empty table.
class Engine {
 public:
  /// main()'s start: the key table from random(), the start board, an empty table.
  Engine();

  /// Sets up a game position (board, side, e.p. square, material eval).
  void setPosition(const Position& position);
  /// The current game state; epSquare is the char the original stores in O.
  Position position() const;

  /// Zeroes every slot, as in a freshly started program.
  void clearHashTable();
  /// True when no search ran since the table was made or cleared
  /// (clearHashTable), so that no slot holds a lock: a tracer need not scan
  /// 200 MB to find the table's entries. False after any think or legality
  /// check, whether or not it stored anything.
  bool hashTableUnused() const { return tableUnused_; }
  /// main()'s clearing before each legality check: every lock set to 0.
  void clearHashLocks();
  /// Clears the locks of the root's probe window (J = Z = 1) and of slot 0.
  void clearRootProbeWindow();
  /// Zeroes one slot (the differential fuzzer cleans only the slots a search touched).
  void clearHashSlot(int32_t slot) { table_[slot] = HashEntry{}; }
  /// Sets one slot's lock to 0, as main()'s clearing does for every slot.
  void clearHashLock(int32_t slot) { table_[slot].lock = 0; }

  /// Thinks from the game position with a node budget: no new iteration
  /// starts once `budget` nodes are spent. The table is used as it is.
  ThinkResult think(long budget);
  /// The same think, reporting every event of the search to `observer`
  /// (the traced instantiation of the search; see search_observer.h).
  ThinkResult think(long budget, SearchObserver& observer);
  /// A flag that ends a think early (nullptr: none; the default). The
  /// search reads it once per counted node; when it is raised, the think
  /// unwinds at once, stores nothing more in the hash table, puts the board
  /// back and returns the last completed iteration (ThinkResult::aborted).
  /// While it stays down, the search is node for node the original's. Only
  /// thinks read the flag (not the legality check of playMove/checkMove);
  /// lower it before the next think.
  void setStopFlag(const std::atomic<bool>* flag);
  /// Called at the root of every think after each completed iteration, on
  /// the searching thread (an empty function: none). It may raise the stop
  /// flag to end the think after that iteration. Inner nodes never look at it.
  void setIterationListener(IterationListener listener);

  /// main()'s path for an entered move: clear the locks, check legality by
  /// search, play the move if legal. Returns true if it was played.
  bool playMove(int from, int to);
  /// The same check after clearing only the root's probe window (fast).
  bool checkMove(int from, int to);

  /// Counts the leaves of the tree of legal moves `depth` plies deep from
  /// the game position, with the search's own move generator and its
  /// legality rule (a move is illegal if the reply can capture the king, or
  /// lands next to the square a castling king passed). Only queen promotions.
  /// With `divide`, the count of each root move is appended to it.
  long perft(int depth, std::vector<PerftMove>* divide = nullptr);

  /// The hash table (kHashEntries slots).
  std::span<const HashEntry> hashTable() const { return table_.view(); }
  /// The hash-key table T[].
  const std::array<int8_t, kKeyTableSize>& keyTable() const { return keys_; }
  /// The node counter N.
  int nodeCount() const { return nodes_; }
  /// The best move of the last search: from (K) and to (L).
  int bestFrom() const { return bestFrom_; }
  /// The to-square of that move (L).
  int bestTo() const { return bestTo_; }

 private:
  /// What a visitor of generateMoves() wants next.
  enum class Verdict { kNext, kStop, kReplay };
  template <class Visit>
  bool generateMoves(int side, int passedSquare, int8_t scanStart, int8_t& bestTo, Visit&& visit);
  bool capturesKing(int gain, int to, int passedSquare) const;
  int makeMove(const Move& move, int side, int& gain);
  void unmakeMove(const Move& move, int side);
  bool kingCapturable(int side, int passedSquare);
  long perftFrom(int side, int passedSquare, int depth, std::vector<PerftMove>* divide);
  template <bool kTraced>
  ThinkResult thinkWith(long budget);
  void finishRootIteration(int draft, int best, int bestFrom, int bestTo);
  /// One call of the search: its nine arguments and the locals that the
  /// move body and the end of an iteration share with it. // micro-Max: D()'s frame
  struct Node {
    int side;             ///< k
    int alpha;            ///< q
    int beta;             ///< l
    int eval;             ///< e
    uint32_t hashKey;     ///< J
    uint32_t hashLock;    ///< Z
    int passedSquare;     ///< E
    int lastTo;           ///< z
    int depth;            ///< n
    int best = 0;         ///< m: best score so far (the original leaves it unset)
    int draft = 0;        ///< d: depth of the current iteration
    int8_t bestFrom = 0;  ///< X: best move's from-square (+ bound bits in the table)
    int8_t bestTo = 0;    ///< Y: best move's to-square + kNotCastlingBit + kSneakBit
    bool played = false;  ///< as legality checker: the entered move was found and played
    /// This iteration's replies were prefetched (not in the original: prefetchLaterReplies).
    bool repliesPrefetched = false;
  };
  template <bool kTraced>
  int search(int side, int alpha, int beta, int eval, uint32_t hashKey, uint32_t hashLock, int passedSquare,
             int lastTo, int depth);
  template <bool kTraced>
  Verdict searchMove(Node& node, const Move& move);
  template <bool kTraced>
  void finishIteration(Node& node, HashEntry& entry);
  template <bool kTraced>
  int leaveNode(const Node& node);
  ProbeReport probeReport(int side, int passedSquare, uint32_t hashKey, const HashEntry& entry) const;
  HashEntry& probe(int side, int passedSquare, uint32_t hashKey, uint32_t hashLock);
  void prefetchProbeWindow(int side, int passedSquare, uint32_t hashKey) const;
  void prefetchLaterReplies(Node& node);
  uint32_t slotOf(const HashEntry& entry) const;
  int32_t keyWord(int offset, int piece) const;
  uint32_t keyChange(int salt, const Move& move, int arriving) const;
  bool legalityCheck(int from, int to);

  Board board_{};                                // micro-Max: b[]
  std::array<int8_t, kKeyTableSize> keys_{};     // micro-Max: T[]
  HashTableMemory table_;                        // micro-Max: A[]
  int nodes_ = 0;                                // micro-Max: N
  bool tableUnused_ = true;                      // no search since the table was made or cleared
  int8_t bestFrom_ = 0;                          // micro-Max: K
  int8_t bestTo_ = 0;                            // micro-Max: L
  int eval_ = 0;                                 // micro-Max: Q
  int8_t epChar_ = 0;                            // micro-Max: O
  int side_ = kWhite;                            // micro-Max: main()'s k
  SearchObserver* observer_ = nullptr;           // receives the events of a traced think
  bool tellReturns_ = true;                      // observer_->wantsReturns()
  const std::atomic<bool>* stopFlag_ = nullptr;  // the caller's flag (setStopFlag)
  const std::atomic<bool>* stop_;                // the flag the search reads: never null
  IterationListener iterationListener_;          // told after each root iteration
  IterationReport lastIteration_;                // the last completed root iteration
  int thinkStart_ = 0;                           // nodes_ when the current think began
  HashEntry entryBeforeStore_;                   // a traced search's slot before a store
};

}  // namespace umax
