// Search equivalence: from the same position, table and budget, both builds
// return the same move, score and node count, and leave the same hash table.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <span>
#include <vector>

#include "engines.h"
#include "minimal_api.h"
#include "support.h"

using namespace umax;
using namespace umax::test;

namespace {

/// Budgets per think. The original stops only new iterations at the budget,
/// so a search visits up to several times more nodes than its budget.
constexpr long kBudgets[] = {300, 3000, 30000};

/// Compares the original's hash table (its globals: the one minimal engine)
/// with the readable build's, slot by slot; returns the number of slots in
/// use. The original's is read in place, the readable one's fetched in blocks
/// (a call per slot took five times as long as the searches of a whole test
/// case; copying both tables took as long as the comparison).
long compareTables(const AnyEngine& readable) {
  constexpr int32_t kBlock = 4096;
  const umaxm_hash_entry* original = umaxm_hash_table();
  std::vector<HashEntry> block(kBlock);
  long used = 0;
  for (int32_t first = 0; first < kHashEntries; first += kBlock) {
    const auto count = static_cast<std::size_t>(std::min(kBlock, kHashEntries - first));
    readable.copyHashEntries(first, std::span(block).first(count));
    for (std::size_t index = 0; index < count; ++index) {
      const umaxm_hash_entry& x = original[first + static_cast<int32_t>(index)];
      const HashEntry& y = block[index];
      if (x.lock != y.lock || x.score != y.score || x.from != y.from || x.to != y.to || x.draft != y.draft) {
        const int32_t slot = first + static_cast<int32_t>(index);
        CAPTURE(slot, x.lock, y.lock, x.score, y.score, int(x.from), int(y.from), int(x.to), int(y.to),
                int(x.draft), int(y.draft));
        FAIL("hash tables differ");
      }
      used += x.lock != 0;
    }
  }
  return used;
}

struct Totals {
  long searches = 0;
  long nodes = 0;
};

/// Thinks in both builds from every test position of the given categories,
/// with each budget in turn: the first from empty tables, the others from
/// the table the think before left.
Totals compareThinks(const std::vector<std::string>& categories, bool compareWholeTables) {
  auto minimal = makeEngine("minimal");
  auto readable = makeEngine("readable");
  Totals totals;
  int index = 0;
  for (const auto& row : testPositions()) {
    if (std::find(categories.begin(), categories.end(), row.category) == categories.end()) continue;
    ++index;
    const Position position = parseFen(row.fen);
    // Empty tables once per position (clearing 192 MiB takes tens of ms);
    // each later budget starts from the table the previous think left, the
    // same in both builds (whole tables compared below at every 4th position).
    minimal->setPosition(position);
    readable->setPosition(position);
    for (long budget : kBudgets) {
      CAPTURE(row.category, row.fen, budget);
      minimal->setGameState(position);
      readable->setGameState(position);
      const ThinkResult expected = minimal->think(budget);
      const ThinkResult actual = readable->think(budget);
      REQUIRE(actual.from == expected.from);
      REQUIRE(actual.to == expected.to);
      REQUIRE(actual.score == expected.score);
      REQUIRE(actual.nodes == expected.nodes);
      REQUIRE(readable->position().board == minimal->position().board);  // dummy b[128] included
      // Do/undo restored every square; only the dummy b[128] keeps what the
      // last undo of a non-castling move wrote there (k+38 or 0).
      REQUIRE(std::equal(position.board.begin(), position.board.begin() + 128,
                         readable->position().board.begin()));
      ++totals.searches;
      totals.nodes += expected.nodes;
      if (compareWholeTables && budget == kBudgets[1] && index % 4 == 0) CHECK(compareTables(*readable) > 0);
    }
  }
  return totals;
}

}  // namespace

TEST_CASE("both builds think alike from the opening positions", "[equivalence]") {
  const Totals totals = compareThinks({"opening"}, true);
  CHECK(totals.searches >= 3 * 90);
  WARN("opening: " << totals.searches << " searches, " << totals.nodes << " nodes each build");
}

TEST_CASE("both builds think alike from the middlegame positions", "[equivalence]") {
  const Totals totals = compareThinks({"middlegame"}, true);
  CHECK(totals.searches >= 3 * 120);
  WARN("middlegame: " << totals.searches << " searches, " << totals.nodes << " nodes each build");
}

TEST_CASE("both builds think alike from the endgame positions", "[equivalence]") {
  const Totals totals = compareThinks({"endgame"}, true);
  CHECK(totals.searches >= 3 * 100);
  WARN("endgame: " << totals.searches << " searches, " << totals.nodes << " nodes each build");
}

TEST_CASE("both builds think alike in e.p., castling and promotion situations", "[equivalence]") {
  const Totals totals = compareThinks({"ep", "castling", "promotion"}, true);
  CHECK(totals.searches >= 3 * 120);
  WARN("special moves: " << totals.searches << " searches, " << totals.nodes << " nodes each build");
}

TEST_CASE("both builds think alike when in check, mated, stalemated or mating", "[equivalence]") {
  const Totals totals = compareThinks({"check", "mate", "stalemate", "mate_in_1"}, true);
  CHECK(totals.searches >= 3 * 100);
  WARN("check/mate/stalemate: " << totals.searches << " searches, " << totals.nodes << " nodes each build");
}

TEST_CASE("the test positions cover every category in number", "[equivalence]") {
  std::map<std::string, int> counts;
  for (const auto& row : testPositions()) ++counts[row.category];
  CHECK(testPositions().size() >= 500);
  for (const char* category : {"opening", "middlegame", "endgame", "ep", "castling", "promotion", "check",
                               "mate", "stalemate", "mate_in_1"}) {
    CAPTURE(category);
    CHECK(counts[category] >= 20);
  }
}

TEST_CASE("mate and stalemate give the original's scores in both builds", "[equivalence][rules]") {
  auto build = GENERATE(as<std::string>{}, "minimal", "readable");
  auto engine = makeEngine(build);
  CAPTURE(build);
  // Checkmated side to move: the mate probe (a null move) finds the king capture: -I/2.
  engine->setPosition(parseFen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"));
  CHECK(engine->think(1000).score == -kInfinity / 2);
  // Stalemate: the probe finds no king capture; the score is about zero.
  engine->setPosition(parseFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
  const int stalemate = engine->think(1000).score;
  CHECK(stalemate > -kMateBound);
  CHECK(stalemate < kMateBound);
  // A mate in one is found and scored as a mate.
  engine->setPosition(parseFen("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"));
  const ThinkResult mating = engine->think(1000);
  CHECK(mating.score > kMateBound);
  CHECK(squareName(mating.from) + squareName(mating.to) == "f7g7");
}

TEST_CASE("thinks in the middle of games, from the table the move checks leave, agree", "[equivalence]") {
  auto minimal = makeEngine("minimal");
  auto readable = makeEngine("readable");
  long thinks = 0;
  for (const auto& game : testGames()) {
    minimal->reset();
    readable->reset();
    for (std::size_t ply = 0; ply < game.size(); ++ply) {
      int from;
      int to;
      REQUIRE(parseMove(game[ply], from, to));
      CAPTURE(ply, game[ply]);
      REQUIRE(minimal->playMove(from, to));
      REQUIRE(readable->playMove(from, to));
      REQUIRE(readable->position().board == minimal->position().board);
      REQUIRE(readable->position().epSquare == minimal->position().epSquare);
      REQUIRE(readable->position().eval == minimal->position().eval);
      if (ply % 7 == 3) {
        const ThinkResult expected = minimal->think(5000);
        const ThinkResult actual = readable->think(5000);
        REQUIRE(actual.from == expected.from);
        REQUIRE(actual.to == expected.to);
        REQUIRE(actual.score == expected.score);
        REQUIRE(actual.nodes == expected.nodes);
        ++thinks;
      }
    }
    compareTables(*readable);
  }
  CHECK(thinks >= 50);
}

namespace {

/// The first slot where the original's table and the engine's differ, or -1.
long firstDifferentSlot(const Engine& engine) {
  const umaxm_hash_entry* original = umaxm_hash_table();
  const std::span<const HashEntry> table = engine.hashTable();
  for (long slot = 0; slot < umaxm_hash_entry_count(); ++slot) {
    const umaxm_hash_entry& x = original[slot];
    const HashEntry& y = table[static_cast<std::size_t>(slot)];
    if (x.lock != y.lock || x.score != y.score || x.from != y.from || x.to != y.to || x.draft != y.draft)
      return slot;
  }
  return -1;
}

}  // namespace

TEST_CASE("a long game of entered moves leaves the original's table after every move", "[equivalence]") {
  // playMove clears only the locks the legality checks listed since the last
  // think, where main() clears every lock of the table: after each move of a
  // long game (random legal moves, a few quick checks and thinks between
  // them) the whole table must be the original's, slot for slot.
  auto minimal = makeEngine("minimal");
  minimal->reset();
  Engine readable;
  std::mt19937 random(40);
  long played = 0;
  long thinks = 0;
  long quickChecks = 0;
  for (int ply = 0; ply < 150; ++ply) {
    std::vector<PerftMove> legal;
    readable.perft(1, &legal);
    if (legal.empty()) {  // mate or stalemate: start again, both tables emptied
      minimal->reset();
      readable.clearHashTable();
      readable.setPosition(minimal->position());
      continue;
    }
    const PerftMove move = legal[random() % legal.size()];
    CAPTURE(ply, squareName(move.from) + squareName(move.to));
    const bool quick = ply % 11 == 5;
    const bool expected =
        quick ? minimal->checkMove(move.from, move.to) : minimal->playMove(move.from, move.to);
    const bool actual =
        quick ? readable.checkMove(move.from, move.to) : readable.playMove(move.from, move.to);
    REQUIRE(actual == expected);
    if (!actual) REQUIRE(readable.playMove(move.from, move.to) == minimal->playMove(move.from, move.to));
    quickChecks += quick && actual;
    ++played;
    REQUIRE(readable.position().board == minimal->position().board);
    REQUIRE(firstDifferentSlot(readable) == -1);
    if (ply % 30 == 17) {  // a think ends the list: the next move sweeps
      const ThinkResult original = minimal->think(3000);
      const ThinkResult mine = readable.think(3000);
      REQUIRE(mine.from == original.from);
      REQUIRE(mine.to == original.to);
      REQUIRE(mine.nodes == original.nodes);
      ++thinks;
    }
  }
  CHECK(played >= 140);
  CHECK(thinks >= 5);
  CHECK(quickChecks >= 10);
}
