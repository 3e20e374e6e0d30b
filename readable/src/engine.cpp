// engine.cpp - the engine around the search: main()'s set-up, the think
// that starts the search and reads its stop flag and listener, and the
// legality check of an entered move. The search itself is search.cpp;
// perft is perft.cpp; the hash table's memory is hash_table.cpp.
#include "umax/engine.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "umax/glibc_random.h"

namespace umax {
namespace {

/// The depth of the legality check: the entered move, then every reply (a
/// reply that takes the king makes the move illegal). // micro-Max: n = 2 in D(k,-I,I,Q,1,1,O,9,2)
constexpr int kLegalityDepth = 2;

/// More listed slots than this and playMove sweeps the table instead.
constexpr std::size_t kMaxListedSlots = std::size_t{1} << 16;

/// Lists the slots a legality check stores into (through the traced search,
/// which searches node for node as the other), for playMove's next clearing.
class StoreList final : public SearchObserver {
 public:
  explicit StoreList(std::vector<uint32_t>& slots) : slots_(slots) {}
  void onStore(uint32_t slot, const HashEntry&, const HashEntry&, bool written) override {
    if (written) slots_.push_back(slot);
  }

 private:
  std::vector<uint32_t>& slots_;
};

/// The flag the search reads when the caller gave none, and outside thinks:
/// never raised. Pointing at it keeps the per-node check to one load.
const std::atomic<bool> kNeverRaised{false};

}  // namespace

// [key-table]
const std::array<int8_t, kKeyTableSize>& standardKeyTable() {
  // main(): F(i,M,1035)T[i]=random()>>9;
  static const std::array<int8_t, kKeyTableSize> keys = [] {
    std::array<int8_t, kKeyTableSize> table{};
    GlibcRandom random;
    for (int index = kFirstRandomKey; index < kKeyTableSize; ++index)
      table[index] = static_cast<int8_t>(random.next() >> 9);
    return table;
  }();
  return keys;
}

// [key-table]

namespace {

/// `bits` if a table of 2^bits window starts is offered, else std::invalid_argument.
int offeredSlotBits(int bits) {
  if (bits < kMinHashSlotBits || bits > kHashSlotBits)
    throw std::invalid_argument("hash table of 2^" + std::to_string(bits) + " slots: offered are 2^" +
                                std::to_string(kMinHashSlotBits) + " to 2^" + std::to_string(kHashSlotBits));
  return bits;
}

}  // namespace

Engine::Engine() : Engine(kHashSlotBits) {}

Engine::Engine(int hashSlotBits)
    : keys_(standardKeyTable()),
      table_(offeredSlotBits(hashSlotBits)),
      slotBits_(hashSlotBits),
      stop_(&kNeverRaised) {
  board_ = startBoard();  // main()'s set-up of the pieces
}

void Engine::setPosition(const Position& position) {
  board_ = position.board;
  side_ = position.side;
  epSquare_ = static_cast<int8_t>(position.epSquare);  // 128 becomes -128, as in O
  eval_ = position.eval;
}

Position Engine::position() const {
  Position position;
  position.board = board_;
  position.side = side_;
  position.epSquare = epSquare_;
  position.eval = eval_;
  return position;
}

// A table no search has used is all zeroes already: its pages are not
// touched (a new process keeps the memory it may never use, e.g. until a
// GUI's hash-size option has replaced the table).
void Engine::clearHashTable() {
  locksListed_ = true;
  storedSlots_.clear();
  if (tableUnused_) return;
  static_assert(std::is_trivially_copyable_v<HashEntry>);
  // Zero bytes are HashEntry{}: memset writes the 192 MiB in about two
  // thirds of the time of std::fill's entry by entry stores.
  std::memset(static_cast<void*>(table_.data()), 0, table_.size() * sizeof(HashEntry));
  tableUnused_ = true;
}

// [clear-locks]
void Engine::clearHashLocks() {
  for (std::size_t slot = 0; slot < table_.size(); ++slot) table_[slot].lock = 0;
}
// [clear-locks]

void Engine::resizeHashTable(int bits) {
  offeredSlotBits(bits);
  // The old table is released first, so that the two are never mapped at
  // once (a --hash-bits table needs no more address space than the
  // original's). If the new one cannot be mapped, the old size comes back
  // (empty) in the room the old one left, and the error goes on.
  { const HashTableMemory released = std::move(table_); }
  tableUnused_ = true;
  locksListed_ = true;
  storedSlots_.clear();
  try {
    table_ = HashTableMemory(bits);
  } catch (const std::bad_alloc&) {
    table_ = HashTableMemory(slotBits_);
    throw;
  }
  slotBits_ = bits;
}

void Engine::clearRootProbeWindow() {
  const uint32_t first = firstProbeSlot(side_, epSquare_, kRootHashCode);
  // Slots first+1..first+8 as minimal_adapter.c clears them; the root
  // misses already because its first slot, first+1, is empty.
  for (uint32_t slot = first + 1; slot <= first + 8; ++slot) table_[slot].lock = 0;
  table_[kDummySlot].lock = 0;
}

void Engine::setStopFlag(const std::atomic<bool>* flag) { stopFlag_ = flag; }

void Engine::setIterationListener(IterationListener listener) { iterationListener_ = std::move(listener); }

void Engine::setRootMoveListener(IterationListener listener) {
  rootMoveListener_ = std::move(listener);
  tellRootMoves_ = static_cast<bool>(rootMoveListener_);
}

// micro-Max's own search, or the Lab's instantiation when a variant is set.
ThinkResult Engine::think(long budget) {
  return variant_.isDefault() ? thinkWith<NoObserver, false>(budget) : thinkWith<NoObserver, true>(budget);
}

ThinkResult Engine::think(long budget, SearchObserver& observer) {
  observer_ = &observer;
  const ThinkResult result = variant_.isDefault() ? thinkWith<SearchObserver, false>(budget)
                                                  : thinkWith<SearchObserver, true>(budget);
  observer_ = nullptr;
  return result;
}

// The root call of think(budget, observer, search): the search it was given.
template <>
int Engine::search<Engine::CompiledObserver, false>(int side, int alpha, int beta, int eval, uint32_t hashKey,
                                                    uint32_t hashLock, int epSquare, int lastTo, int depth) {
  return (this->*compiledSearch_)(side, alpha, beta, eval, hashKey, hashLock, epSquare, lastTo, depth);
}

ThinkResult Engine::think(long budget, SearchObserver& observer, CompiledSearch search) {
  if (!variant_.isDefault()) return think(budget, observer);
  observer_ = &observer;
  compiledSearch_ = search;
  const ThinkResult result = thinkWith<CompiledObserver, false>(budget);
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
    onReturn(entry.score, withoutBoundBits(entry.from), entry.to, entry.draft);
  else
    onNodeCounted(nodeCount);
}

// [think]
// A think: the root of the search, with the node counter started so that the
// original's limit falls where the budget ends. The best move is left in
// bestFrom_ and bestTo_ (K and L).
template <class Observer, bool kLab>
int Engine::searchRoot(long budget) {
  // The original stops deepening once N >= 1e7; starting N that far below
  // the limit gives any budget without touching the search. (A Lab think
  // with --depth has no budget: its count starts at 0.)
  const int start = kLab && variant_.depth ? 0 : kNodeLimit - static_cast<int>(budget);
  thinkStart_.store(start, std::memory_order_relaxed);
  setNodeCount(start);
  return search<Observer, kLab>(side_, -kInfinity, kInfinity, eval_, kRootHashCode, kRootHashCode, epSquare_,
                                kThinkMarker, 0);
}
// [think]

// The think around searchRoot(): the caller's stop flag, and the result.
template <class Observer, bool kLab>
ThinkResult Engine::thinkWith(long budget) {
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
  locksListed_ = false;  // ... in slots no list keeps
  try {
    result.score = searchRoot<Observer, kLab>(budget);
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
  result.nodes = static_cast<long>(nodes_) - thinkStart_;
  result.depth = lastIteration_.draft;
  result.completedIterations = lastIteration_.iteration;
  assert(result.aborted || result.completedIterations == 0 ||
         (result.from == lastIteration_.from && result.to == lastIteration_.to));
  return result;
}

// At the root of a think, after each iteration: keep its result (an aborted
// think returns it) and tell the listener.
void Engine::finishRootIteration(int draft, int best, int bestFrom, int bestTo) {
  lastIteration_ = {lastIteration_.iteration + 1, draft, best, bestFrom, bestTo, nodes_ - thinkStart_};
  if (iterationListener_) iterationListener_(lastIteration_);
}

// At the root of a think, when Step 16 finds a better move (only while a
// listener is set: search_seam.h).
void Engine::rootMoveChanged(int draft, int best, int bestFrom, int bestTo) {
  rootMoveListener_({lastIteration_.iteration, draft, best, bestFrom, bestTo, nodes_ - thinkStart_});
}

// The legality check's search, D(k,-I,I,Q,1,1,O,9,2), run as the traced
// search (node for node the same) with an observer that lists the slots it
// stores into: the next playMove clears just those (not in the original).
int Engine::legalitySearch() {
  StoreList list(storedSlots_);
  struct ObserverScope {
    Engine& engine;
    ~ObserverScope() { engine.observer_ = nullptr; }
  } observerScope{*this};
  observer_ = &list;
  return search<SearchObserver>(side_, -kInfinity, kInfinity, eval_, kRootHashCode, kRootHashCode, epSquare_,
                                kLegalityMarker, kLegalityDepth);
}

// [legality-check]
bool Engine::legalityCheck(int from, int to) {
  bestFrom_ = static_cast<int8_t>(from);
  bestTo_ = static_cast<int8_t>(to);
  // A 2-ply search from the root that stops and plays the move if it finds
  // it and the reply cannot capture the king; it then returns beta (= I).
  tableUnused_ = false;                 // the search stores from here on
  if (legalitySearch() == kInfinity) {  // micro-Max: D(k,-I,I,Q,1,1,O,9,2)==I
    side_ = opponentOf(side_);
    return true;
  }
  return false;
}

// main() clears every lock; when only the listed slots can hold one (no
// think since the last sweep), clearing those leaves the same table, at a
// cost that does not grow with the table (a long --moves list).
bool Engine::playMove(int from, int to) {
  setNodeCount(0);
  if (!locksListed_ || storedSlots_.size() > kMaxListedSlots) {
    clearHashLocks();
  } else {
    for (const uint32_t slot : storedSlots_) table_[slot].lock = 0;
  }
  locksListed_ = true;
  storedSlots_.clear();
  return legalityCheck(from, to);
}
// [legality-check]

bool Engine::checkMove(int from, int to) {
  setNodeCount(0);
  clearRootProbeWindow();
  return legalityCheck(from, to);
}

}  // namespace umax
