// The differential fuzzer's machinery, in every build: its committed corpus
// replayed, and the game states it builds checked against the engines' own.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "differential.h"
#include "support.h"
#include "umax/engine.h"

using namespace umax;
using namespace umax::test;

TEST_CASE("every input of the committed fuzz_equivalence corpus gives the same searches in both builds",
          "[equivalence][fuzz-corpus]") {
  // Each input is a short game of one to eight thinks in the minimal build
  // and the readable build, untraced and traced.
  DifferentialChecker checker(readSeedFens(sourcePath("tests/data/positions.tsv")));
  REQUIRE(checker.findDirtySlot().empty());
  for (const auto& [name, bytes] : corpusInputs("fuzz_equivalence")) {
    CAPTURE(name);
    CHECK(checker.run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) == "");
  }
  CHECK(checker.inputsRun() >= 100);
  CHECK(checker.searchesCompared() > checker.inputsRun());  // some inputs go on after their first think
  CHECK(checker.findDirtySlot().empty());                   // only the probed windows were written
}

TEST_CASE("the fuzzer's games reach the state the original's own move entry leaves", "[equivalence]") {
  // positionAfter() stands in for main()'s legality check, which the fuzzer
  // cannot afford (it clears every lock of the table): after every legal
  // move of every test position the engine's check must leave the same board,
  // side, e.p. square and eval. The quick check (root window cleared) runs
  // on the table earlier checks left; where that refuses, main()'s own path
  // (every lock cleared) decides.
  Engine engine;
  long moves = 0;
  long fullChecks = 0;
  for (const auto& row : testPositions()) {
    const Position position = parseFen(row.fen);
    engine.setPosition(position);
    std::vector<PerftMove> legal;
    engine.perft(1, &legal);
    for (const PerftMove& move : legal) {
      CAPTURE(row.fen, squareName(move.from) + squareName(move.to));
      engine.setPosition(position);
      if (!engine.checkMove(move.from, move.to)) {
        ++fullChecks;
        engine.setPosition(position);
        REQUIRE(engine.playMove(move.from, move.to));
      }
      const Position expected = engine.position();
      const Position actual = positionAfter(position, move.from, move.to);
      CHECK(actual.board == expected.board);
      CHECK(actual.side == expected.side);
      CHECK(static_cast<int8_t>(actual.epSquare) == expected.epSquare);  // O is a char
      CHECK(actual.eval == expected.eval);
      ++moves;
    }
  }
  CHECK(moves > 10000);
  CHECK(fullChecks < moves / 100);
}
