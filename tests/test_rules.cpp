// The rules of micro-Max, pinned on both builds: castling, e.p., promotion,
// king capture. Where micro-Max differs from FIDE, the test says so.
#include <catch2/catch.hpp>
#include <tuple>

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
  auto [why, fen, moves,
        accepted] = GENERATE(table<std::string, std::string, std::vector<std::string>, bool>({
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
      Row{"after the king moved and came back",
          "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
          {"e1f1", "a8b8", "f1e1", "b8a8", "e1g1"},
          false},
      Row{"after the rook moved and came back",
          "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
          {"h1h2", "a8b8", "h2h1", "b8a8", "e1g1"},
          false},
      Row{"the other rook still may",
          "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
          {"h1h2", "a8b8", "h2h1", "b8a8", "e1c1"},
          true},
      Row{"after the rook was captured (a bishop now on a8)",
          "r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1",
          {"g2a8", "e8c8"},
          false},
      Row{"rook under attack (b1 attacked) does not matter",
          "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
          {"e1c1"},
          true},
      // micro-Max only: castling out of a pawn's check is accepted (FIDE: illegal).
      Row{"out of a pawn's check (micro-Max accepts)",
          "r3k2r/8/8/8/8/8/3p4/R3K2R w KQkq - 0 1",
          {"e1g1"},
          true},
      // micro-Max only: through f1 attacked by a pawn on g2. The reply's pawn
      // capture onto E = f1 is taken for e.p. and looks for its victim on f2.
      Row{"through a square a pawn attacks (micro-Max accepts)",
          "4k3/8/8/8/8/8/6p1/4K2R w K - 0 1",
          {"e1g1"},
          true},
      Row{"a pawn checking the king (refused)", "4k3/8/8/8/8/8/5p2/4K2R w K - 0 1", {"e1g1"}, false},
      // The pawn's capture onto the passed square f1 is taken for e.p. with
      // its victim on f2: with a white piece there the capture exists and
      // the castling is refused, as in FIDE.
      Row{"past a pawn, a piece of ours behind f1 (refused)",
          "4k3/8/8/8/8/8/5Np1/4K2R w K - 0 1",
          {"e1g1"},
          false},
      Row{"past a pawn, a piece of theirs behind f1 (micro-Max accepts)",
          "4k3/8/8/8/8/8/5np1/4K2R w K - 0 1",
          {"e1g1"},
          true},
      // A pawn on e2 hits f1, and its push onto the emptied e1 lands next to
      // the passed square: refused (for FIDE's reason and for micro-Max's).
      Row{"a pawn on e2 (refused)", "4k3/8/8/8/8/8/4p3/4K2R w K - 0 1", {"e1g1"}, false},
      Row{"black past a pawn on c7 (micro-Max accepts)", "r3k3/2P5/8/8/8/8/8/4K3 b q - 0 1", {"e8c8"}, true},
      Row{"black past a pawn on b7 that hits c8 (refused)",
          "r3k3/1P6/8/8/8/8/8/4K3 b q - 0 1",
          {"e8c8"},
          false},
      Row{"a knight guards f1 (refused)", "4k3/8/8/8/8/8/7n/4K2R w K - 0 1", {"e1g1"}, false},
      Row{"a knight on b2 guards d1 (refused)", "4k3/8/8/8/8/8/1n6/R3K3 w Q - 0 1", {"e1c1"}, false},
      Row{"the enemy king guards f1 and g1 (refused)", "8/8/8/8/8/8/6k1/4K2R w K - 0 1", {"e1g1"}, false},
      Row{"a rook that reaches the corner later brings no right",
          "4k3/8/8/8/8/8/8/R3K1R1 w Q - 0 1",
          {"g1h1", "e8e7", "e1g1"},
          false},
      Row{"the same king still castles with the virgin rook",
          "4k3/8/8/8/8/8/8/R3K1R1 w Q - 0 1",
          {"g1h1", "e8e7", "e1c1"},
          true},
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
  SECTION("not a move later") { CHECK(!lastMoveAccepted(*engine, fen, {"d7d5", "e1e2", "e8e7", "e5d6"})); }
  SECTION("not after a single step") {
    CHECK(!lastMoveAccepted(*engine, fen, {"d7d6", "e1e2", "d6d5", "e5d6"}));
  }
  SECTION("black captures e.p. as well") {
    REQUIRE(lastMoveAccepted(*engine, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", {"e2e4", "d4e3"}));
    const Position after = engine->position();
    CHECK(after.board[makeSquare(4, 3)] == (kDownwardPawn | kBlack));
    CHECK(after.board[makeSquare(4, 4)] == 0);  // the white pawn is gone
  }
  SECTION("a double step that passes no enemy pawn gives nothing to take") {
    CHECK(!lastMoveAccepted(*engine, "4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1", {"e2e4", "d3e3"}));
  }
  SECTION("the e.p. square of a FEN is honoured") {
    engine->setPosition(parseFen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"));
    CHECK(engine->playMove(makeSquare(4, 5), makeSquare(3, 6)));
  }
}

TEST_CASE("a pawn promotes to a queen only, the promotion letter is never read", "[rules]") {
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
  // A capturing promotion makes a queen as well.
  REQUIRE(lastMoveAccepted(*engine, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", {"a7b8"}));
  CHECK(engine->position().board[makeSquare(1, 8)] == (kQueen | kWhite));
  CHECK(engine->position().board[makeSquare(0, 7)] == 0);
  REQUIRE(lastMoveAccepted(*engine, "4k3/8/8/8/8/8/6p1/4K2R b K - 0 1", {"g2h1"}));
  CHECK(engine->position().board[makeSquare(7, 1)] == (kQueen | kBlack));
}

TEST_CASE("under-promotion input like a7a8n plays a queen in the classic interface", "[rules]") {
  // The original reads the first four characters of a line only.
  int status = -1;
  const std::string readable = test::runCommand("printf 'a7a8n\\n' | '" + test::binPath("umax-readable") +
                                                    "' --fen '4k3/P7/8/8/8/8/8/4K3 w - - 0 1' 2>&1",
                                                &status);
  CHECK(status == 0);
  CHECK_THAT(readable, Catch::Contains(" Q . . . k"));
  CHECK_THAT(readable, !Catch::Contains("illegal"));
}

TEST_CASE("a move that leaves the king capturable is refused: a pin, an e.p. capture, a king's step",
          "[rules]") {
  auto build = GENERATE(as<std::string>{}, "minimal", "readable");
  CAPTURE(build);
  auto engine = makeEngine(build);
  // The bishop on e2 is pinned by the rook on e8; the king may step aside.
  CHECK(!lastMoveAccepted(*engine, "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", {"e2d3"}));
  CHECK(lastMoveAccepted(*engine, "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", {"e1d1"}));
  // e.p. that would expose the king along the rank is refused.
  CHECK(!lastMoveAccepted(*engine, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2", {"e5d6"}));
  // A king may not step next to the other king or into a pawn's attack.
  CHECK(!lastMoveAccepted(*engine, "8/8/8/3k4/8/3K4/8/8 w - - 0 1", {"d3d4"}));
  CHECK(lastMoveAccepted(*engine, "8/8/8/3k4/8/3K4/8/8 w - - 0 1", {"d3d2"}));
  CHECK(!lastMoveAccepted(*engine, "8/8/8/3k4/8/5p2/8/4K3 w - - 0 1", {"e1e2"}));
  CHECK(lastMoveAccepted(*engine, "8/8/8/3k4/8/5p2/8/4K3 w - - 0 1", {"e1f2"}));
}

TEST_CASE("the pawn a king castled past cannot take the rook on the very next move", "[rules][quirk]") {
  // After e1g1 the passed square f1 is the reply's e.p. square, so the pawn's
  // capture g2xf1 is taken for e.p. and looks for a victim on f2: there is
  // none and the capture is not generated. One move later it is an ordinary
  // capture (and a promotion).
  auto build = GENERATE(as<std::string>{}, "minimal", "readable");
  CAPTURE(build);
  auto engine = makeEngine(build);
  const std::string fen = "4k3/8/8/8/8/8/6p1/4K2R w K - 0 1";
  CHECK(!lastMoveAccepted(*engine, fen, {"e1g1", "g2f1"}));
  CHECK(lastMoveAccepted(*engine, fen, {"e1g1", "e8d8", "g1h2", "g2f1"}));
  CHECK(engine->position().board[makeSquare(5, 1)] == (kQueen | kBlack));
}

TEST_CASE("mate, stalemate and mate-in-one scores are exact in both builds, both colours", "[rules]") {
  using Row = std::tuple<std::string, std::string, int, std::string>;
  auto [why, fen, score, move] = GENERATE(table<std::string, std::string, int, std::string>({
      // Mated: every move loses the king (-I), and a probe from the other
      // side finds a king capture: -I/2.
      Row{"white mated", "8/8/8/8/8/2k5/1q6/K7 w - - 0 1", -kInfinity / 2, ""},
      Row{"black mated", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", -kInfinity / 2, ""},
      // Stalemated: the probe finds no king capture: exactly 0.
      Row{"white stalemated", "8/8/8/8/8/1q6/2k5/K7 w - - 0 1", 0, ""},
      Row{"black stalemated", "8/8/8/8/8/6K1/5Q2/7k b - - 0 1", 0, ""},
      // Mate in one: I/2 minus the one point of the delayed-gain penalty.
      Row{"white mates in one", "6k1/5ppp/8/8/8/8/8/2R3K1 w - - 0 1", kInfinity / 2 - 1, "c1c8"},
      Row{"black mates in one", "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", kInfinity / 2 - 1, "a8a1"},
  }));
  auto build = GENERATE(as<std::string>{}, "minimal", "readable");
  CAPTURE(why, fen, build);
  auto engine = makeEngine(build);
  engine->setPosition(parseFen(fen));
  const ThinkResult result = engine->think(100000);
  CHECK(result.score == score);
  if (!move.empty()) CHECK(squareName(result.from) + squareName(result.to) == move);
}
