/// \file engine.h
/// \brief The readable micro-Max 3.2: the same search as the original's D(), node for node.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "umax/hash_table.h"
#include "umax/position.h"
#include "umax/search_observer.h"
#include "umax/search_rules.h"
#include "umax/types.h"
#include "umax/variant.h"

namespace umax {

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

/// The observer of the ordinary search: none. Engine::search<NoObserver>
/// compiles every hook away (search_seam.h).
struct NoObserver;

/// micro-Max 3.2 as a C++ object: the board, the hash table and the search.
///
/// The state and every operation follow the original's globals and main():
/// a new Engine holds main()'s start position with an empty table.
class Engine {
 public:
  /// main()'s start: the key table from random(), the start board, an empty table.
  Engine();
  /// The same with a table of 2^bits probe-window starts mapped from the start (as
  /// resizeHashTable(bits) would leave it, without mapping the original's table first: a
  /// `--hash-bits` table needs only its own address space). std::invalid_argument outside
  /// kMinHashSlotBits..kHashSlotBits.
  explicit Engine(int hashSlotBits);

  /// Sets up a game position (board, side, e.p. square, material eval).
  void setPosition(const Position& position);
  /// The current game state; epSquare is the char the original stores in O.
  Position position() const;

  /// Zeroes every slot, as in a freshly started program.
  void clearHashTable();
  /// Replaces the table by an empty one with 2^bits probe-window starts
  /// (kMinHashSlotBits..kHashSlotBits; std::invalid_argument otherwise).
  /// kHashSlotBits is the original's table; any smaller one makes a
  /// different search (other slots collide), no longer node-identical.
  void resizeHashTable(int bits);
  /// log2 of the table's window starts: kHashSlotBits unless resized.
  int hashSlotBits() const { return slotBits_; }
  /// Bytes of the slots in use (12 per slot).
  std::size_t hashTableBytes() const { return table_.size() * sizeof(HashEntry); }
  /// The slot before a probe window of this table: the original's
  /// umax::firstProbeSlot in this engine's table.
  uint32_t firstProbeSlot(int side, int epSquare, uint32_t hashKey) const {
    return umax::firstProbeSlot(side, epSquare, hashKey, table_.slotMask());
  }
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
  /// The search compiled for one final observer class (Engine::search<Observer>),
  /// which calls its hooks directly, not through SearchObserver's table, where
  /// both the search and those hooks are defined: the trace recorder's, at the
  /// end of tracer/src/event_kinds.cpp.
  using CompiledSearch = int (Engine::*)(int, int, int, int, uint32_t, uint32_t, int, int, int);
  /// The search compiled for `Observer` (see CompiledSearch).
  template <class Observer>
  static CompiledSearch compiledSearch() {
    return &Engine::search<Observer, false>;
  }
  /// think(budget, observer), searched by `search`: compiledSearch<Observer>()
  /// of the observer's own class. (A think of the Lab goes through the
  /// observer's virtual hooks.)
  ThinkResult think(long budget, SearchObserver& observer, CompiledSearch search);
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
  /// Called at the root of a think whenever a move becomes the best of the
  /// iteration under way (Step 16), on the searching thread, with that
  /// iteration's draft, the move's score and the nodes so far (`iteration`:
  /// the iterations completed before). An empty function: none, and the
  /// search only tests a flag. It must not raise the stop flag.
  void setRootMoveListener(IterationListener listener);

  /// The Lab: the ideas later thinks go without and the depth they stop at
  /// (variant.h). The default, SearchVariant{}, is micro-Max's own search;
  /// any other runs the Lab's instantiation of the search (search.cpp's
  /// `without<kLab>` lines). Legality checks (playMove, checkMove) always
  /// run the whole search, as main() does.
  void setVariant(const SearchVariant& variant) { variant_ = variant; }
  /// The variant later thinks run (setVariant).
  const SearchVariant& variant() const { return variant_; }

  /// main()'s path for an entered move: clear the locks, check legality by
  /// search, play the move if legal. Returns true if it was played. When no
  /// think ran since the last sweep, only the slots the checks since stored
  /// into are cleared: the same table, at a cost that does not grow with it.
  bool playMove(int from, int to);
  /// The same check after clearing only the root's probe window (fast).
  bool checkMove(int from, int to);

  /// Counts the leaves of the tree of legal moves `depth` plies deep from
  /// the game position, with the search's own move generator and its
  /// legality rule (a move is illegal if the reply can capture the king, or
  /// lands next to the square a castling king passed). Only queen promotions.
  /// With `divide`, the count of each root move is appended to it.
  long perft(int depth, std::vector<PerftMove>* divide = nullptr);
  /// The moves the search's generator (Steps 5-7) offers `side` in the game
  /// position, the board scan starting at square `scanStart`, in the order
  /// the search meets them: pseudo-legal, queen promotions only. The
  /// tracer's narration counts with it the moves a cutoff left untried.
  std::vector<Move> generatedMoves(int side, int epSquare, int scanStart);

  /// The hash table's slots in use (kHashEntries + 1 for the original's).
  std::span<const HashEntry> hashTable() const { return table_.view(); }
  /// The hash-key table T[].
  const std::array<int8_t, kKeyTableSize>& keyTable() const { return keys_; }
  /// The node counter N.
  int nodeCount() const { return nodes_; }
  /// Nodes the think under way has counted so far (0 before the first
  /// think), for another thread while the think runs (analysis posts it
  /// every second). At the very start of a think it may still be the last
  /// think's count.
  long thinkNodes() const {
    return std::max(0L, static_cast<long>(__atomic_load_n(&nodes_, __ATOMIC_RELAXED)) -
                            thinkStart_.load(std::memory_order_relaxed));
  }
  /// The best move of the last search: from (K) and to (L).
  int bestFrom() const { return bestFrom_; }
  /// The to-square of that move (L).
  int bestTo() const { return bestTo_; }

 private:
  // The search (search.cpp) with its move generator and board moves
  // (moves.h), and the think around it (engine.cpp), perft (perft.cpp).
  // Speed: the compiler inlines these helpers into search() on its own, as
  // D() is one function; only the hooks and memory hints of search_seam.h
  // are forced inline (see the walkthrough's performance page).

  /// What a visitor of generateMoves() wants next.
  enum class Verdict { kNext, kStop, kReplay };
  /// One call of the search: its nine arguments and the locals that the
  /// move body and the end of an iteration share with it. // micro-Max: D()'s frame
  struct Node {
    int side;             ///< k
    int alpha;            ///< q
    int beta;             ///< l
    int eval;             ///< e
    uint32_t hashKey;     ///< J
    uint32_t hashLock;    ///< Z
    int epSquare;         ///< E
    int lastTo;           ///< z
    int depth;            ///< n
    int best = 0;         ///< m: best score so far (the original leaves it unset)
    int draft = 0;        ///< d: depth of the current iteration
    int8_t bestFrom = 0;  ///< X: best move's from-square (+ bound bits in the table)
    int8_t bestTo = 0;    ///< Y: best move's to-square + kNotCastlingBit + kSneakBit
    bool played = false;  ///< as legality checker: the entered move was found and played
    /// The draft whose replies were prefetched (not in the original: search_seam.h).
    int8_t repliesPrefetched = 0;
  };
  /// The hooks through which the search tells an observer its events and
  /// asks memory for what it will read (search_seam.h): for NoObserver
  /// every event hook does nothing.
  template <class Observer>
  struct Hooks;
  template <class Observer>
  inline Hooks<Observer> hooks();

  template <class Visit>
  inline bool generateMoves(int side, int epSquare, int8_t scanStart, int8_t& bestTo, Visit&& visit);
  inline bool capturesKing(int gain, int to, int epSquare) const;
  inline int makeMove(const Move& move, int side, int& gain);
  inline void unmakeMove(const Move& move, int side);
  inline uint32_t keyChange(int salt, const Move& move, int arriving) const;
  inline HashEntry& probe(int side, int epSquare, uint32_t hashKey, uint32_t hashLock);
  template <class Observer, bool kLab = false>
  int search(int side, int alpha, int beta, int eval, uint32_t hashKey, uint32_t hashLock, int epSquare,
             int lastTo, int depth);
  template <class Observer, bool kLab>
  inline Verdict searchMove(Node& node, const Move& move);
  template <class Observer, bool kLab>
  inline void finishIteration(Node& node, HashEntry& entry);
  template <class Observer>
  inline int leaveNode(const Node& node);
  inline void prefetchLaterReplies(Node& node);
  inline void prefetchProbeWindow(int side, int epSquare, uint32_t hashKey) const;
  inline void stopIfAsked() const;
  inline void countNode();
  /// Sets N, as an atomic store (relaxed): see nodes_.
  [[gnu::always_inline]] void setNodeCount(int count) { __atomic_store_n(&nodes_, count, __ATOMIC_RELAXED); }
  /// Thrown by stopIfAsked() when the stop flag is up; thinkWith() catches it
  /// (search_seam.h).
  struct ThinkAborted {};
  /// The slot number of an entry of the table.
  uint32_t slotOf(const HashEntry& entry) const { return static_cast<uint32_t>(&entry - table_.data()); }

  /// Stands for the search a think(budget, observer, search) was given.
  struct CompiledObserver;
  template <class Observer, bool kLab>
  int searchRoot(long budget);
  template <class Observer, bool kLab>
  ThinkResult thinkWith(long budget);
  /// The Lab's switches as search.cpp reads them: `without<kLab>(idea)` is
  /// false at compile time in the default search (kLab = false).
  template <bool kLab>
  [[gnu::always_inline]] bool without(Idea idea) const {
    if constexpr (kLab) return variant_.lacks(idea);
    return false;
  }
  void finishRootIteration(int draft, int best, int bestFrom, int bestTo);
  void rootMoveChanged(int draft, int best, int bestFrom, int bestTo);
  bool legalityCheck(int from, int to);
  int legalitySearch();
  bool kingCapturable(int side, int epSquare);
  long perftFrom(int side, int epSquare, int depth, std::vector<PerftMove>* divide);

  Board board_{};                             // micro-Max: b[]
  std::array<int8_t, kKeyTableSize> keys_{};  // micro-Max: T[]
  HashTableMemory table_;                     // micro-Max: A[]
  int slotBits_ = kHashSlotBits;              // the table's size (resizeHashTable)
  // micro-Max: N. Only the searching thread writes it, always as an atomic
  // store (setNodeCount), so that thinkNodes() may read it from another
  // thread; the searching thread's own plain reads race with no write. (As a
  // std::atomic<int>, Step 4's read made the compiler keep the counter's
  // address in a register of its own and spill others in the search.)
  int nodes_ = 0;
  bool tableUnused_ = true;                      // no search since the table was made or cleared
  int8_t bestFrom_ = 0;                          // micro-Max: K
  int8_t bestTo_ = 0;                            // micro-Max: L
  int eval_ = 0;                                 // micro-Max: Q
  int8_t epSquare_ = 0;                          // micro-Max: O
  int side_ = kWhite;                            // micro-Max: main()'s k
  SearchObserver* observer_ = nullptr;           // receives the events of a traced think
  CompiledSearch compiledSearch_ = nullptr;      // think(budget, observer, search): its search
  const std::atomic<bool>* stopFlag_ = nullptr;  // the caller's flag (setStopFlag)
  const std::atomic<bool>* stop_;                // the flag the search reads: never null
  IterationListener iterationListener_;          // told after each root iteration
  IterationListener rootMoveListener_;           // told when the root's best move changes
  bool tellRootMoves_ = false;                   // rootMoveListener_ is set
  IterationReport lastIteration_;                // the last completed root iteration
  std::atomic<int> thinkStart_{0};               // nodes_ when the current think began
  HashEntry entryBeforeStore_;                   // a traced search's slot before a store
  SearchVariant variant_;                        // the Lab's switches (setVariant)
  // Every lock is 0 but maybe those of storedSlots_, the slots the legality
  // checks stored into since: playMove clears just those (a think ends it).
  bool locksListed_ = true;
  std::vector<uint32_t> storedSlots_;
};

}  // namespace umax
