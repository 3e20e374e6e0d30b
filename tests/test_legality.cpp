// Legality verdicts: for every pseudo-legal move of every test position, both
// builds' legality check (the original's D(k,-I,I,Q,1,1,O,9,2)) agrees.
#include <algorithm>
#include <catch2/catch.hpp>

#include "engines.h"
#include "support.h"

using namespace umax;
using namespace umax::test;

namespace {

struct Verdicts {
  long legal = 0;
  long illegal = 0;
};

Verdicts compareVerdicts(int shard, int shards) {
  auto minimal = makeEngine("minimal");
  auto readable = makeEngine("readable");
  Verdicts verdicts;
  const auto& positions = testPositions();
  for (std::size_t index = shard; index < positions.size(); index += shards) {
    const Position position = parseFen(positions[index].fen);
    minimal->setPosition(position);
    readable->setPosition(position);
    auto moves = pseudoLegalMoves(position);
    moves.push_back({makeSquare(0, 1), makeSquare(0, 1)});  // a1a1: never a move
    for (auto [from, to] : moves) {
      CAPTURE(positions[index].fen, squareName(from) + squareName(to));
      const bool expected = minimal->checkMove(from, to);
      const bool actual = readable->checkMove(from, to);
      REQUIRE(actual == expected);
      const Position afterMinimal = minimal->position();
      const Position afterReadable = readable->position();
      REQUIRE(afterReadable.board == afterMinimal.board);
      REQUIRE(afterReadable.side == afterMinimal.side);
      REQUIRE(afterReadable.epSquare == afterMinimal.epSquare);
      REQUIRE(afterReadable.eval == afterMinimal.eval);
      if (expected) {
        REQUIRE(afterMinimal.board != position.board);  // the check played the move
        ++verdicts.legal;
        // Put the position back, keeping the table.
        minimal->setGameState(position);
        readable->setGameState(position);
      } else {
        // Refused: every square as it was (the dummy b[128] may differ).
        REQUIRE(std::equal(position.board.begin(), position.board.begin() + 128, afterMinimal.board.begin()));
        ++verdicts.illegal;
      }
    }
  }
  return verdicts;
}

}  // namespace

TEST_CASE("legality verdicts agree for every pseudo-legal move (first half of the positions)", "[legality]") {
  const Verdicts verdicts = compareVerdicts(0, 2);
  CHECK(verdicts.legal > 5000);
  CHECK(verdicts.illegal > 300);
  WARN("verdicts: " << verdicts.legal << " legal, " << verdicts.illegal << " illegal");
}

TEST_CASE("legality verdicts agree for every pseudo-legal move (second half of the positions)",
          "[legality]") {
  const Verdicts verdicts = compareVerdicts(1, 2);
  CHECK(verdicts.legal > 5000);
  CHECK(verdicts.illegal > 300);
  WARN("verdicts: " << verdicts.legal << " legal, " << verdicts.illegal << " illegal");
}

TEST_CASE("the legality check accepts a legal move and refuses a move into check", "[legality][rules]") {
  auto build = GENERATE(as<std::string>{}, "minimal", "readable");
  auto engine = makeEngine(build);
  CAPTURE(build);
  engine->reset();
  CHECK(engine->playMove(makeSquare(4, 2), makeSquare(4, 4)));  // e2e4
  CHECK(engine->position().side == kBlack);
  CHECK(!engine->playMove(makeSquare(4, 7), makeSquare(4, 4)));  // e7e4: a pawn cannot capture ahead
  CHECK(engine->position().side == kBlack);
  // The king may not step next to the enemy queen's line.
  engine->setPosition(parseFen("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"));
  CHECK(!engine->playMove(makeSquare(4, 1), makeSquare(4, 2)));  // e1e2 stays in the queen's reach
  CHECK(engine->playMove(makeSquare(4, 1), makeSquare(3, 2)));   // e1xd2 captures it
}
