// Positions from FEN: main()'s own start board, the key table, FEN errors.
#include <catch2/catch.hpp>
#include <cstdlib>

#include "engines.h"
#include "minimal_api.h"
#include "support.h"
#include "umax/glibc_random.h"
#include "umax/position.h"

using namespace umax;

TEST_CASE("the start FEN gives exactly the board main() builds, byte by byte", "[position]") {
  auto minimal = makeEngine("minimal");  // runs the original main() up to its first read
  const Position fromMain = minimal->position();
  const Position fromFen = parseFen(kStartFen);
  for (int square = 0; square < kBoardSize; ++square) {
    CAPTURE(square);
    CHECK(int(fromFen.board[square]) == int(fromMain.board[square]));
  }
  CHECK(fromFen.side == kWhite);
  CHECK(fromFen.eval == fromMain.eval);
  CHECK(startBoard() == fromMain.board);
  // main() starts with the char O at 0, not at 128: the readable build does too.
  CHECK(fromMain.epSquare == 0);
  CHECK(makeEngine("readable")->position().epSquare == 0);
}

TEST_CASE("the readable key table equals the one main() fills with random()>>9", "[position]") {
  auto minimal = makeEngine("minimal");
  auto readable = makeEngine("readable");
  int nonZero = 0;
  for (int index = 0; index < kKeyTableSize; ++index) {
    CAPTURE(index);
    REQUIRE(readable->keyByte(index) == minimal->keyByte(index));
    nonZero += minimal->keyByte(index) != 0;
  }
  CHECK(nonZero > 800);  // 899 random bytes, a few of them zero by chance
}

TEST_CASE("GlibcRandom reproduces the C library's random() from the default seed", "[position]") {
  srandom(1);
  GlibcRandom portable;
  for (int call = 0; call < 100000; ++call) {
    CAPTURE(call);
    REQUIRE(portable.next() == static_cast<int32_t>(random()));
  }
  srandom(12345);
  GlibcRandom seeded(12345);
  for (int call = 0; call < 1000; ++call) REQUIRE(seeded.next() == static_cast<int32_t>(random()));
}

TEST_CASE("a FEN sets board, virgin bits, side, e.p. square and material eval", "[position]") {
  SECTION("castling rights give the virgin bit to the king and the rooks that keep them") {
    const Position position = parseFen("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1");
    CHECK(position.board[makeSquare(4, 1)] == (kKing | kWhite | kVirgin));
    CHECK(position.board[makeSquare(7, 1)] == (kRook | kWhite | kVirgin));
    CHECK(position.board[makeSquare(0, 1)] == (kRook | kWhite));
    CHECK(position.board[makeSquare(0, 8)] == (kRook | kBlack | kVirgin));
    CHECK(position.board[makeSquare(7, 8)] == (kRook | kBlack));
    CHECK(position.board[makeSquare(4, 8)] == (kKing | kBlack | kVirgin));
  }
  SECTION("no castling rights: no virgin bits on kings and rooks") {
    const Position position = parseFen("r3k2r/8/8/8/8/8/8/R3K2R b - - 0 1");
    CHECK(position.board[makeSquare(4, 1)] == (kKing | kWhite));
    CHECK(position.side == kBlack);
  }
  SECTION("e.p. square is the skipped square") {
    const Position position = parseFen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    CHECK(position.epSquare == makeSquare(3, 6));
    CHECK(parseFen(kStartFen).epSquare == kNoSquare);
  }
  SECTION("Q is 99 times the material balance of the side to move, kings left out") {
    // White: Q R P = 9+5+1 = 15; black: N B P P = 3+3+1+1 = 8.
    CHECK(parseFen("4k3/1nb2pp1/8/8/8/8/4P3/Q3K2R w - - 0 1").eval == 99 * 7);
    CHECK(parseFen("4k3/1nb2pp1/8/8/8/8/4P3/Q3K2R b - - 0 1").eval == -99 * 7);
  }
  SECTION("the centre table sits in the right half of every row") {
    const Position position = parseFen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(position.board[0 + 8] == 28);          // a8: 16 + 12.25
    CHECK(position.board[16 * 3 + 4 + 8] == 0);  // e5: 0 + 0.25
    CHECK(position.board[128] == 0);
  }
}

TEST_CASE("a malformed FEN is refused with what is wrong and where", "[position][fen-errors]") {
  using Row = std::tuple<std::string, std::string, std::size_t>;
  auto [fen, expected, column] = GENERATE(table<std::string, std::string, std::size_t>({
      Row{"", "4 to 6 space-separated fields", 0},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "4 to 6 space-separated fields", 44},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "found 7", 57},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unexpected character 'X'", 42},
      Row{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unexpected character '9'", 18},
      Row{"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 7 squares", 16},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "rank 1 has more than 8", 43},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "needs 8 ranks", 34},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", "more than 8 ranks", 43},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "exactly one white king, found 0", 0},
      Row{"rnbqkbnr/pppppppp/8/8/8/3k4/PPPPPPPP/RNBQKBNR w KQ - 0 1", "exactly one black king, found 2", 0},
      Row{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "a pawn on rank 8", 7},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move must be 'w' or 'b'", 44},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "letters from KQkq", 49},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1", "'K' is given twice", 47},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "needs a white rook on h1", 46},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w q - 0 1", "exactly one white king", 0},
      Row{"rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w k - 0 1", "needs the black king on e8", 46},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "must be '-' or a square", 51},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "not on rank 6", 51},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "does not lie behind a pawn", 51},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "half-move clock", 53},
      Row{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "move number must be a positive", 55},
      Row{"4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "side not to move (black) is in check", 22},
      Row{"4k3/8/8/8/8/8/8/4K2\x01 w - - 0 1", "'\\x01' is not printable", 19},
  }));
  CAPTURE(fen);
  const std::optional<FenError> error = test::fenRefusal(fen);
  REQUIRE(error.has_value());  // refused, not accepted
  CAPTURE(error->what());
  CHECK_THAT(error->what(), Catch::Contains(expected));
  CHECK(error->column() == column);
  CHECK_THAT(error->what(), Catch::Contains("bad FEN at column " + std::to_string(column + 1)));
}

TEST_CASE("every FEN of the test data parses", "[position]") {
  const auto& positions = test::testPositions();
  REQUIRE(positions.size() >= 500);
  for (const auto& row : positions) {
    CAPTURE(row.fen);
    CHECK_NOTHROW(parseFen(row.fen));
  }
}
