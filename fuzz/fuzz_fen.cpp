// fuzz_fen: umax::parseFen on arbitrary bytes. It must either return a sane
// position or throw FenError (any other exception, a crash or a sanitizer
// report is a finding). An accepted FEN must satisfy every invariant below,
// and writing the position back as a FEN must give the same position again.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "umax/position.h"

namespace {

using namespace umax;

[[noreturn]] void fail(const char* what, std::string_view fen) {
  std::fprintf(stderr, "fuzz_fen: %s\n  FEN: %.*s\n", what, static_cast<int>(fen.size()), fen.data());
  std::abort();
}

void require(bool condition, const char* what, std::string_view fen) {
  if (!condition) fail(what, fen);
}

/// Start squares where a piece keeps main()'s virgin bit: kings and rooks
/// only with a castling right, knights, bishops and queens always.
bool mayBeVirgin(int square, int piece) {
  static constexpr int kBackRank[8] = {kRook, kKnight, kBishop, kQueen, kKing, kBishop, kKnight, kRook};
  const int rank = rankOf(square);
  const int colour = piece & kColourMask;
  if (!(rank == 1 && colour == kWhite) && !(rank == 8 && colour == kBlack)) return false;
  return typeOf(piece) == kBackRank[fileOf(square)];
}

/// The position as a FEN, with castling rights read back from the virgin bits of the rooks.
std::string writeFen(const Position& position) {
  std::string fen;
  for (int rank = 8; rank >= 1; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const int piece = position.board[makeSquare(file, rank)];
      if (piece == 0) {
        ++empty;
        continue;
      }
      if (empty) fen += static_cast<char>('0' + empty);
      empty = 0;
      fen += pieceLetter(piece);
    }
    if (empty) fen += static_cast<char>('0' + empty);
    if (rank > 1) fen += '/';
  }
  fen += position.side == kWhite ? " w " : " b ";
  std::string rights;
  const auto virginRook = [&](int file, int rank, int colour) {
    return position.board[makeSquare(file, rank)] == (kRook | colour | kVirgin);
  };
  if (virginRook(7, 1, kWhite)) rights += 'K';
  if (virginRook(0, 1, kWhite)) rights += 'Q';
  if (virginRook(7, 8, kBlack)) rights += 'k';
  if (virginRook(0, 8, kBlack)) rights += 'q';
  fen += rights.empty() ? "-" : rights;
  fen += ' ';
  fen += position.epSquare == kNoSquare ? std::string("-") : squareName(position.epSquare);
  return fen;
}

void checkPosition(const Position& position, std::string_view fen) {
  require(position.side == kWhite || position.side == kBlack, "side is neither 8 nor 16", fen);

  int kings[2] = {0, 0};
  int virginRooks[2] = {0, 0};
  bool virginKing[2] = {false, false};
  int material = 0;  // white minus black, in micro-Max's relative values
  static constexpr int kValue[8] = {0, 1, 1, 3, 0, 3, 5, 9};
  for (int square = 0; square < 128; ++square) {
    if (!isOnBoard(square)) continue;
    const int piece = position.board[square];
    if (piece == 0) continue;
    const int colour = piece & kColourMask;
    const int type = typeOf(piece);
    require(colour == kWhite || colour == kBlack, "a piece without exactly one colour bit", fen);
    require((piece & ~(kTypeMask | kColourMask | kVirgin)) == 0, "a piece code with stray bits", fen);
    require(type != kEmpty, "a coloured piece of type 0", fen);
    require(type != kUpwardPawn || colour == kWhite, "an upward pawn that is not white", fen);
    require(type != kDownwardPawn || colour == kBlack, "a downward pawn that is not black", fen);
    require(!(type <= kDownwardPawn && (rankOf(square) == 1 || rankOf(square) == 8)), "a pawn on rank 1 or 8",
            fen);
    require(!(piece & kVirgin) || mayBeVirgin(square, piece), "a virgin bit off a start square", fen);
    const int side = colour == kWhite ? 0 : 1;
    if (type == kKing) {
      ++kings[side];
      virginKing[side] = (piece & kVirgin) != 0;
    }
    if (type == kRook && (piece & kVirgin)) ++virginRooks[side];
    material += colour == kWhite ? kValue[type] : -kValue[type];
  }
  require(kings[0] == 1 && kings[1] == 1, "not exactly one king of each colour", fen);
  for (int side = 0; side < 2; ++side)
    require(virginKing[side] == (virginRooks[side] > 0),
            "a king's virgin bit disagrees with its side's castling rights", fen);

  Board centre{};
  fillCentreTable(centre);
  for (int square = 0; square < 128; ++square)
    if (!isOnBoard(square))
      require(position.board[square] == centre[square], "the centre table is not main()'s", fen);
  require(position.board[128] == 0, "the dummy square b[128] is not empty", fen);

  if (position.epSquare != kNoSquare) {
    const int square = position.epSquare;
    require(square >= 0 && square < 128 && isOnBoard(square), "e.p. square off the board", fen);
    const bool whiteToMove = position.side == kWhite;
    require(rankOf(square) == (whiteToMove ? 6 : 3), "e.p. square on the wrong rank", fen);
    require(position.board[square] == 0, "e.p. square not empty", fen);
    const int pawnSquare = square + (whiteToMove ? 16 : -16);
    require(position.board[pawnSquare] == (whiteToMove ? (kDownwardPawn | kBlack) : (kUpwardPawn | kWhite)),
            "no pawn of the side that just moved in front of the e.p. square", fen);
  }

  const int forSide = position.side == kWhite ? material : -material;
  require(position.eval == kValueScale * forSide, "eval is not 99 x the material balance", fen);

  // Written back as a FEN, the position must parse to itself.
  const std::string again = writeFen(position);
  Position reparsed;
  try {
    reparsed = parseFen(again);
  } catch (const FenError& error) {
    std::fprintf(stderr, "fuzz_fen: rewritten FEN '%s' refused: %s\n", again.c_str(), error.what());
    fail("the rewritten FEN was refused", fen);
  }
  require(reparsed.board == position.board, "round trip changed the board", fen);
  require(reparsed.side == position.side, "round trip changed the side", fen);
  require(reparsed.epSquare == position.epSquare, "round trip changed the e.p. square", fen);
  require(reparsed.eval == position.eval, "round trip changed the eval", fen);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view fen(reinterpret_cast<const char*>(data), size);
  Position position;
  try {
    position = parseFen(fen);
  } catch (const FenError& error) {
    const std::string message = error.what();
    require(message.rfind("bad FEN at column ", 0) == 0, "FenError message without its prefix", fen);
    require(message.size() > 25, "FenError without an explanation", fen);
    require(error.column() <= size, "FenError column past the end of the FEN", fen);
    return 0;
  }
  checkPosition(position, fen);
  return 0;
}
