// The rules of micro-Max, pinned on both builds: castling, e.p., promotion,
// king capture. Where micro-Max differs from FIDE, the test says so.
#include <catch2/catch.hpp>

#include "engines.h"
#include "support.h"

using namespace umax;

namespace {

/// Plays `moves` (space-separated) from `fen` in the named build; returns
/// whether the last one was accepted (all earlier ones must be).
bool lastMoveAccepted(AnyEngine& engine, const std::string& fen, const std::vector<std::string>& moves) {
  engine.setPosition(parseFen(fen));
  for (std::size_t index = 0; index < moves.size(); ++index) {
    int from;
    int to;
    REQUIRE(parseMove(moves[index], from, to));
    const bool played = engine.playMove(from, to);
    if (index + 1 == moves.size()) return played;
    REQUIRE(played);
  }
  return false;
}

}  // namespace

TEST_CASE("castling follows micro-Max's rules in both builds", "[rules]") {
  using Row = std::tuple<std::string, std::string, std::vector<std::string>, bool>;
  auto [why, fen, moves, accepted] = GENERATE(table<std::string, std::string, std::vector<std::string>, bool>({
      Row{"king side, path free", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"e1g1"}, true},
      Row{"queen side, path free", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"e1c1"}, true},
      Row{"black king side", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", {"e8g8"}, true},
      Row{"black queen side", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", {"e8c8"}, true},
      Row{"a piece between", "r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1", {"e1g1"}, false},
      Row{"b1 occupied blocks O-O-O", "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", {"e1c1"}, false},
      Row{"through check (f1 attacked by a rook)", "r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1", {"e1g1"}, false},
      Row{"into check (g1 attacked by a rook)", "r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1", {"e1g1"}, false},
      Row{"out of a rook's check", "1r4k1/8/8/8/8/8/8/R3K2R b KQ - 0 1", {"b8e8", "e1g1"}, false},
      Row{"out of check, rook on e-file", "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", {"e1g1"}, false},
      Row{"after the king moved and came back", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
          {"e1f1", "a8b8", "f1e1", "b8a8", "e1g1"}, false},
      Row{"after the rook moved and came back", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
          {"h1h2", "a8b8", "h2h1", "b8a8", "e1g1"}, false},
      Row{"the other rook still may", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
          {"h1h2", "a8b8", "h2h1", "b8a8", "e1c1"}, true},
      Row{"after the rook was captured (a bishop now on a8)", "r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1",
          {"g2a8", "e8c8"}, false},
      Row{"rook under attack (b1 attacked) does not matter", "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", {"e1c1"}, true},
      // micro-Max only: castling out of a pawn's check is accepted (FIDE: illegal).
      Row{"out of a pawn's check (micro-Max accepts)", "r3k2r/8/8/8/8/8/3p4/R3K2R w KQkq - 0 1", {"e1g1"}, true},
      // micro-Max only: through f1 attacked by a pawn on g2. The reply's pawn
      // capture onto E = f1 is taken for e.p. and looks for its victim on f2.
      Row{"through a square a pawn attacks (micro-Max accepts)", "4k3/8/8/8/8/8/6p1/4K2R w K - 0 1", {"e1g1"}, true},
      Row{"a pawn checking the king (refused)", "4k3/8/8/8/8/8/5p2/4K2R w K - 0 1", {"e1g1"}, false},
  }));
  auto build = GENERATE(as<std::string>{}, "minimal", "readable");
  CAPTURE(why, fen, build);
  auto engine = makeEngine(build);
  CHECK(lastMoveAccepted(*engine, fen, moves) == accepted);
  if (accepted && moves.back() == "e1g1") {
    const Position after = engine->position();
    CHECK(after.board[makeSquare(6, 1)] == (kKing | kWhite));  // king on g1, virgin bit gone
    CHECK(after.board[makeSquare(5, 1)] == (kRook | kWhite));  // rook on f1
    CHECK(after.board[makeSquare(7, 1)] == 0);
  }
}

TEST_CASE("e.p. captures the right pawn, and only on the next move", "[rules]") {
  auto build = GENERATE(as<std::string>{}, "minimal", "readable");
  CAPTURE(build);
  auto engine = makeEngine(build);
  const std::string fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
  SECTION("right after the double step") {
    REQUIRE(lastMoveAccepted(*engine, fen, {"d7d5", "e5d6"}));
    const Position after = engine->position();
    CHECK(after.board[makeSquare(3, 6)] == (kUpwardPawn | kWhite));
    CHECK(after.board[makeSquare(3, 5)] == 0);  // the black pawn that passed is gone
    CHECK(after.board[makeSquare(4, 5)] == 0);
  }
  SECTION("not a move later") {
    CHECK(!lastMoveAccepted(*engine, fen, {"d7d5", "e1e2", "e8e7", "e5d6"}));
  }
  SECTION("not after a single step") {
    CHECK(!lastMoveAccepted(*engine, fen, {"d7d6", "e1e2", "d6d5", "e5d6"}));
  }
  SECTION("the e.p. square of a FEN is honoured") {
    engine->setPosition(parseFen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"));
    CHECK(engine->playMove(makeSquare(4, 5), makeSquare(3, 6)));
  }
}

TEST_CASE("a pawn promotes to a queen only; the promotion letter is never read", "[rules]") {
  auto build = GENERATE(as<std::string>{}, "minimal", "readable");
  CAPTURE(build);
  auto engine = makeEngine(build);
  REQUIRE(lastMoveAccepted(*engine, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", {"a7a8"}));
  CHECK(engine->position().board[makeSquare(0, 8)] == (kQueen | kWhite));
  // Q for black to move: minus (white's pawn, 99, plus the promotion bonus
  // 799); the pawn is not taken off, the bonus stands in for the exchange.
  CHECK(engine->position().eval == -99 - kPromotionBonus);
  REQUIRE(lastMoveAccepted(*engine, "4k3/8/8/8/8/8/p7/4K3 b - - 0 1", {"a2a1"}));
  CHECK(engine->position().board[makeSquare(0, 1)] == (kQueen | kBlack));
}

TEST_CASE("under-promotion input like a7a8n plays a queen in the classic interface", "[rules]") {
  // The original reads the first four characters of a line only.
  int status = -1;
  const std::string readable = test::runCommand(
      "printf 'a7a8n\\n' | '" + test::binPath("umax-readable") + "' --fen '4k3/P7/8/8/8/8/8/4K3 w - - 0 1' 2>&1",
      &status);
  CHECK(status == 0);
  CHECK_THAT(readable, Catch::Contains(" Q . . . k"));
  CHECK_THAT(readable, !Catch::Contains("illegal"));
}

TEST_CASE("a move that leaves the king capturable is refused", "[rules]") {
  auto build = GENERATE(as<std::string>{}, "minimal", "readable");
  CAPTURE(build);
  auto engine = makeEngine(build);
  // The bishop on e2 is pinned by the rook on e8.
  CHECK(!lastMoveAccepted(*engine, "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", {"e2d3"}));
  CHECK(lastMoveAccepted(*engine, "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", {"e1d1"}));
  // e.p. that would expose the king along the rank is refused.
  CHECK(!lastMoveAccepted(*engine, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2", {"e5d6"}));
}
