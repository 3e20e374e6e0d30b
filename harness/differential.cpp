// differential.cpp - one fuzz input as a short game in three engines, compared think by think.
#include "differential.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <span>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "umax/search_observer.h"
#include "umax/session.h"

namespace umax {
namespace {

/// Node budgets: most thinks get kSmallestBudget..kSmallBudget nodes
/// (log-uniform, so that tiny searches are as common as big ones); one in
/// thirty-two gets up to kLargeBudget, which reaches a few more iterations.
/// A budget of 1 is left out: the root's node uses it up, no iteration
/// starts, and the original returns its best score m uninitialised.
constexpr long kSmallestBudget = 2;
constexpr long kSmallBudget = 3000;
constexpr long kLargeBudget = 12000;
/// At most this many random legal moves are played from the seed.
constexpr int kMaxRandomPlies = 63;
/// At most this many thinks per input.
constexpr int kMaxThinks = 8;

/// A SearchObserver that keeps only the start of every probe window.
class WindowRecorder final : public SearchObserver {
 public:
  explicit WindowRecorder(std::vector<uint32_t>& windows) : windows_(windows) {}
  void onProbe(const ProbeReport& report, const HashEntry&) override { windows_.push_back(report.firstSlot); }

 private:
  std::vector<uint32_t>& windows_;
};

/// The slots of the window that starts after `firstSlot` (probe() looks at
/// firstSlot + 1 .. firstSlot + 9).
constexpr uint32_t windowSlot(uint32_t firstSlot, int index) { return firstSlot + 1 + index; }

/// How many slots of that window lie in the table. The last window
/// (firstSlot = kHashSlotMask) runs one past its end: the original reads
/// A[U] there, past its table, if the 8 slots before it are all taken. The
/// checker compares and clears only slots inside the table.
constexpr int windowSize(uint32_t firstSlot) {
  return firstSlot + kProbeSlots < static_cast<uint32_t>(kHashEntries) ? kProbeSlots
                                                                       : kHashEntries - 1 - firstSlot;
}

void sortUnique(std::vector<uint32_t>& slots) {
  std::sort(slots.begin(), slots.end());
  slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
}

bool sameEntry(const HashEntry& a, const HashEntry& b) {
  return a.lock == b.lock && a.score == b.score && a.from == b.from && a.to == b.to && a.draft == b.draft;
}

std::string entryText(const HashEntry& entry) {
  return "{lock " + std::to_string(entry.lock) + " score " + std::to_string(entry.score) + " from " +
         std::to_string(entry.from) + " to " + std::to_string(entry.to) + " draft " +
         std::to_string(entry.draft) + "}";
}

std::string resultText(const ThinkResult& result) {
  return formatThink(result.from, result.to, result.score, result.nodes);
}

/// Stands for slot 0 (the dummy) in a list of window starts; no window starts
/// there, as a window's first slot is at most kHashSlotMask.
constexpr uint32_t kNoWindow = 0xffffffffu;

/// Calls `visit` for every slot of the listed windows (each slot once, as
/// the windows are sorted and a slot can lie in more than one).
template <class Visit>
void forEachSlot(const std::vector<uint32_t>& windows, Visit&& visit) {
  std::vector<int32_t> slots;
  slots.reserve(windows.size() * kProbeSlots + 1);
  slots.push_back(0);
  for (const uint32_t first : windows)
    if (first != kNoWindow)
      for (int index = 0; index < windowSize(first); ++index)
        slots.push_back(static_cast<int32_t>(windowSlot(first, index)));
  std::sort(slots.begin(), slots.end());
  slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
  for (const int32_t slot : slots) visit(slot);
}

}  // namespace

Position positionAfter(const Position& before, int from, int to) {
  Position after = before;
  applyMove(after, from, to, before.epSquare);  // the search's e.p. rule: a pawn arriving on O
  return after;
}

/// What one input has done so far: where it started, the moves played since,
/// and the start of every probe window its thinks used.
struct DifferentialChecker::Game {
  std::string seed;
  std::string moves;
  Position position;
  std::vector<uint32_t> windows;
  int thinks = 0;

  std::string describe() const {
    return "FEN '" + seed + "'" + (moves.empty() ? std::string() : " moves '" + moves.substr(1) + "'");
  }
  void play(int from, int to) {
    position = positionAfter(position, from, to);
    moves += ' ' + squareName(from) + squareName(to);
  }
};

DifferentialChecker::DifferentialChecker(std::vector<std::string> seedFens)
    : seedFens_(std::move(seedFens)),
      minimal_(makeEngine("minimal")),
      untraced_(std::make_unique<Engine>()),
      traced_(std::make_unique<Engine>()) {
  seedFens_.insert(seedFens_.begin(), std::string(kStartFen));
  for (const std::string& fen : seedFens_) seeds_.push_back(parseFen(fen));
  minimal_->clearHashTable();
}

std::string DifferentialChecker::run(const uint8_t* data, std::size_t size) {
  ByteChoices choices(data, size);
  Game game;
  const int seed = choices.pick(static_cast<int>(seeds_.size()));
  game.seed = seedFens_[seed];
  game.position = seeds_[seed];

  const int plies = choices.byte() % (kMaxRandomPlies + 1);
  for (int ply = 0; ply < plies; ++ply) {
    const std::vector<PerftMove> moves = legalMoves(game.position);
    if (moves.empty()) break;
    const PerftMove& move = moves[choices.pick(static_cast<int>(moves.size()))];
    game.play(move.from, move.to);
  }

  std::string difference;
  const int thinks = 1 + choices.byte() % kMaxThinks;
  for (int think = 1; think <= thinks; ++think) {
    const int kind = choices.byte();
    const int word = choices.word();
    const long budget =
        kind < 248 ? kSmallestBudget - 1 +
                         std::lround(std::pow(static_cast<double>(kSmallBudget - kSmallestBudget + 1),
                                              word / 65535.0))
                   : kSmallBudget + word % (kLargeBudget - kSmallBudget + 1);
    const ThinkResult found = thinkInAll(game, budget, difference);
    if (!difference.empty() || think == thinks) break;

    // The game goes on: the move found is played (or a random legal one,
    // when the bytes say so or the move found is not legal), with the table
    // kept as it is or with every lock cleared, as main() clears them before
    // it plays an entered move.
    const int mode = choices.byte();
    const int pick = choices.word();
    const std::vector<PerftMove> moves = legalMoves(game.position);
    if (moves.empty()) break;
    const auto best = std::find_if(moves.begin(), moves.end(), [&](const PerftMove& move) {
      return move.from == found.from && move.to == found.to;
    });
    const PerftMove& move = (mode & 2) || best == moves.end() ? moves[pick % moves.size()] : *best;
    if (mode & 1) clearProbedSlots(game, Clearing::kLocks);
    game.play(move.from, move.to);
  }
  clearProbedSlots(game, Clearing::kWholeSlots);
  ++inputs_;
  if (difference.empty() && inputs_ % kCleanScanInterval == 0) difference = findDirtySlot();
  return difference;
}

std::vector<PerftMove> DifferentialChecker::legalMoves(const Position& position) {
  std::vector<PerftMove> moves;
  untraced_->setPosition(position);  // perft does not touch the table
  untraced_->perft(1, &moves);
  return moves;
}

ThinkResult DifferentialChecker::thinkInAll(Game& game, long budget, std::string& difference) {
  minimal_->setGameState(game.position);
  untraced_->setPosition(game.position);
  traced_->setPosition(game.position);
  std::vector<uint32_t> windows;
  WindowRecorder recorder(windows);
  const ThinkResult reference = minimal_->think(budget);
  const ThinkResult plain = untraced_->think(budget);
  const ThinkResult observed = traced_->think(budget, recorder);
  ++game.thinks;
  ++searches_;

  std::string fields;
  const auto compareResult = [&](const char* name, const ThinkResult& result) {
    std::string differing;
    if (result.from != reference.from || result.to != reference.to) differing += " move,";
    if (result.score != reference.score) differing += " score,";
    if (result.nodes != reference.nodes) differing += " node count,";
    if (!differing.empty())
      fields += ";" + differing.substr(0, differing.size() - 1) + " (" + name + " " + resultText(result) +
                ", minimal " + resultText(reference) + ")";
  };
  compareResult("readable", plain);
  compareResult("readable traced", observed);

  const Position after = minimal_->position();
  const auto comparePosition = [&](const char* name, const Position& position) {
    if (position.board != after.board) fields += std::string("; board after the search (") + name + ")";
    if (position.side != after.side) fields += std::string("; side to move (") + name + ")";
    if (position.epSquare != after.epSquare) fields += std::string("; e.p. square O (") + name + ")";
    if (position.eval != after.eval) fields += std::string("; eval Q (") + name + ")";
  };
  comparePosition("readable", untraced_->position());
  comparePosition("readable traced", traced_->position());

  windows.push_back(kNoWindow);  // stands for slot 0, the dummy
  sortUnique(windows);
  for (const uint32_t first : windows) {
    const int count = first == kNoWindow ? 1 : windowSize(first);
    for (int index = 0; index < count && fields.size() < 2000; ++index) {
      const uint32_t slot = first == kNoWindow ? 0 : windowSlot(first, index);
      const HashEntry expected = minimal_->hashEntry(static_cast<int32_t>(slot));
      const HashEntry& plainEntry = untraced_->hashTable()[slot];
      const HashEntry& tracedEntry = traced_->hashTable()[slot];
      if (!sameEntry(plainEntry, expected))
        fields += "; hash slot " + std::to_string(slot) + " (readable): " + entryText(plainEntry) +
                  ", minimal " + entryText(expected);
      if (!sameEntry(tracedEntry, expected))
        fields += "; hash slot " + std::to_string(slot) + " (readable traced): " + entryText(tracedEntry) +
                  ", minimal " + entryText(expected);
    }
  }
  game.windows.insert(game.windows.end(), windows.begin(), windows.end());

  if (!fields.empty() && difference.empty())
    difference = "think " + std::to_string(game.thinks) + " of the input, " + game.describe() + ", budget " +
                 std::to_string(budget) + ": differs in" + fields.substr(1);
  return reference;
}

void DifferentialChecker::clearProbedSlots(Game& game, Clearing clearing) {
  sortUnique(game.windows);
  forEachSlot(game.windows, [&](int32_t slot) {
    if (clearing == Clearing::kLocks) {
      minimal_->clearHashLock(slot);
      untraced_->clearHashLock(slot);
      traced_->clearHashLock(slot);
    } else {
      minimal_->clearHashSlot(slot);
      untraced_->clearHashSlot(slot);
      traced_->clearHashSlot(slot);
    }
  });
}

std::string DifferentialChecker::findDirtySlot() const {
  const HashEntry empty;
  // The original's slots are fetched in blocks, not by a call per slot.
  constexpr int32_t kBlock = 4096;
  std::vector<HashEntry> minimalSlots(kBlock);
  for (int32_t slot = 0; slot < kHashEntries; ++slot) {
    const int32_t index = slot % kBlock;
    if (index == 0)
      minimal_->copyHashEntries(
          slot,
          std::span(minimalSlots).first(static_cast<std::size_t>(std::min(kBlock, kHashEntries - slot))));
    const char* engine = !sameEntry(minimalSlots[index], empty)            ? "minimal"
                         : !sameEntry(untraced_->hashTable()[slot], empty) ? "readable"
                         : !sameEntry(traced_->hashTable()[slot], empty)   ? "readable traced"
                                                                           : nullptr;
    if (engine)
      return std::string("hash slot ") + std::to_string(slot) + " of the " + engine +
             " table is not empty after the inputs were cleaned up (" + std::to_string(inputs_) +
             " inputs run): a search wrote outside the probe windows its observer reported";
  }
  return {};
}

std::vector<std::string> readSeedFens(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read the seed positions '" + path + "'");
  std::string line;
  std::getline(file, line);
  std::istringstream header(line);
  std::string column;
  int fenColumn = -1;
  for (int index = 0; std::getline(header, column, '\t'); ++index)
    if (column == "fen") fenColumn = index;
  if (fenColumn < 0) throw std::runtime_error("'" + path + "' has no 'fen' column in its header");
  std::vector<std::string> fens;
  while (std::getline(file, line)) {
    std::istringstream row(line);
    for (int index = 0; std::getline(row, column, '\t'); ++index)
      if (index == fenColumn) fens.push_back(column);
  }
  return fens;
}

}  // namespace umax
