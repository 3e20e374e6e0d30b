// fide.cpp - FIDE's legal moves on micro-Max's 0x88 board: the referee that
// checks the engine's root move before a chess GUI sees it, and a game record's moves.
#include "umax/play/fide.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "umax/notation.h"
#include "umax/search_rules.h"
#include "umax/session.h"

namespace umax::play {
namespace {

constexpr std::array<int, 8> kKnightSteps = {14, 18, 31, 33, -14, -18, -31, -33};
constexpr std::array<int, 8> kKingSteps = {1, -1, 16, -16, 15, -15, 17, -17};

/// The direction a pawn of `side` moves: white pawns go up the board (row 0 is rank 8).
int pawnStep(int side) { return side == kWhite ? -16 : 16; }

/// Makes the move on a copy of the board and tells whether the mover's king is safe.
bool leavesKingSafe(const Position& position, const FideMove& move) {
  Board board = position.board;
  const int side = position.side;
  if (move.enPassant) board[move.to - pawnStep(side)] = 0;
  board[move.to] = static_cast<int8_t>(board[move.from] & ~kVirgin);
  board[move.from] = 0;
  if (move.castling) {
    board[skippedSquare(move.from, move.to)] = static_cast<int8_t>(kRook | side);
    board[castlingCorner(move.from, move.to > move.from ? 1 : -1)] = 0;
  }
  const int king = findKing(board, side);
  return king != kNoSquare && !isAttacked(board, king, opponentOf(side));
}

/// Castling under FIDE rules: king and rook unmoved (virgin), the squares
/// between them empty, and the king neither in check nor passing or landing
/// on an attacked square.
void addCastlings(const Position& position, int king, std::vector<FideMove>& moves) {
  const Board& board = position.board;
  const int side = position.side;
  const int homeRow = side == kWhite ? 0x70 : 0x00;
  if (king != homeRow + 4 || !(board[king] & kVirgin)) return;
  const int enemy = opponentOf(side);
  if (isAttacked(board, king, enemy)) return;
  for (const bool kingSide : {true, false}) {
    const int rook = kingSide ? homeRow + 7 : homeRow;
    if (board[rook] != (kRook | side | kVirgin)) continue;
    bool empty = true;
    for (int square = std::min(king, rook) + 1; square < std::max(king, rook); ++square)
      empty = empty && board[square] == 0;
    const int step = kingSide ? 1 : -1;
    if (!empty || isAttacked(board, king + step, enemy)) continue;
    FideMove move{king, king + 2 * step, false, true, false};
    if (leavesKingSafe(position, move)) moves.push_back(move);
  }
}

void addPawnMoves(const Position& position, int from, int epSquare, std::vector<FideMove>& moves) {
  const Board& board = position.board;
  const int side = position.side;
  const int step = pawnStep(side);
  auto add = [&](int to, bool enPassant) {
    FideMove move{from, to, (to & kRowMask) == 0 || (to & kRowMask) == 0x70, false, enPassant};
    if (leavesKingSafe(position, move)) moves.push_back(move);
  };
  const int ahead = from + step;
  if (isOnBoard(ahead) && board[ahead] == 0) {
    add(ahead, false);
    const bool onStartRow = (from & kRowMask) == (side == kWhite ? 0x60 : 0x10);
    if (onStartRow && board[ahead + step] == 0) add(ahead + step, false);
  }
  for (int side_step : {-1, 1}) {
    const int to = ahead + side_step;
    if (!isOnBoard(to)) continue;
    if (board[to] != 0 && (board[to] & opponentOf(side)))
      add(to, false);
    else if (to == epSquare)
      add(to, true);
  }
}

void addPieceMoves(const Position& position, int from, std::vector<FideMove>& moves) {
  const Board& board = position.board;
  const int type = typeOf(board[from]);
  const bool slides = type == kBishop || type == kRook || type == kQueen;
  for (int index = 0; index < 8; ++index) {
    const int step = type == kKnight ? kKnightSteps[index] : kKingSteps[index];
    const bool straight = index < 4;
    if ((type == kBishop && straight) || (type == kRook && !straight)) continue;
    for (int to = from + step; isOnBoard(to); to += step) {
      if (board[to] & position.side) break;
      FideMove move{from, to, false, false, false};
      if (leavesKingSafe(position, move)) moves.push_back(move);
      if (board[to] != 0 || !slides) break;
    }
  }
}

}  // namespace

int fideEpSquare(const Position& position) {
  const int square = position.epSquare;
  if (square < 0 || !isOnBoard(square)) return kNoSquare;
  const int wantedRow = position.side == kWhite ? 0x20 : 0x50;  // rank 6 or rank 3
  const int victim = square - pawnStep(position.side);
  const int pawn = position.side == kWhite ? (kDownwardPawn | kBlack) : (kUpwardPawn | kWhite);
  if ((square & kRowMask) != wantedRow || position.board[square] != 0 ||
      (position.board[victim] & ~kVirgin) != pawn)
    return kNoSquare;
  return square;
}

std::vector<FideMove> fideLegalMoves(const Position& position) {
  std::vector<FideMove> moves;
  const int epSquare = fideEpSquare(position);
  for (int from = 0; from < 128; ++from) {
    if (!isOnBoard(from) || !(position.board[from] & position.side)) continue;
    const int type = typeOf(position.board[from]);
    if (type <= kDownwardPawn) {
      addPawnMoves(position, from, epSquare, moves);
    } else {
      addPieceMoves(position, from, moves);
      if (type == kKing) addCastlings(position, from, moves);
    }
  }
  return moves;
}

bool inCheck(const Position& position, int side) {
  const int king = findKing(position.board, side);
  return king != kNoSquare && isAttacked(position.board, king, opponentOf(side));
}

bool isFideLegal(const Position& position, int from, int to) {
  for (const FideMove& move : fideLegalMoves(position))
    if (move.from == from && move.to == to) return true;
  return false;
}

std::string fideRefusal(const Position& position, int from, int to) {
  if (isFideLegal(position, from, to)) return "";
  const Board& board = position.board;
  const int homeRow = position.side == kWhite ? 0x70 : 0x00;
  const bool kingSide = to > from;
  const int rook = kingSide ? homeRow + 7 : homeRow;
  bool empty = true;  // the squares between king and rook
  for (int square = std::min(from, rook) + 1; square < std::max(from, rook); ++square)
    empty = empty && board[square] == 0;
  // A castling refused for the attacks alone: king and rook unmoved at home, nothing between.
  const bool castling = typeOf(board[from]) == kKing && (board[from] & kVirgin) && from == homeRow + 4 &&
                        (to - from == 2 || from - to == 2) &&
                        board[rook] == (kRook | position.side | kVirgin) && empty;
  if (castling) {
    if (inCheck(position, position.side)) return "castles out of check";
    return "castles through or into an attacked square";
  }
  return "is not legal under FIDE rules";
}

std::string toFen(const Position& position, int fullMove) {
  return umax::toFen(position.board, position.side, fideEpSquare(position), fullMove);
}

std::string playFideMove(Position& position, const std::string& text) {
  int from = 0;
  int to = 0;
  if (text.size() < 4 || text.size() > 5 || !parseMove(std::string_view(text).substr(0, 4), from, to))
    return "'" + shownText(text) + "' is not a move like e2e4";
  const int piece = position.board[static_cast<std::size_t>(from)];
  const bool pawn = (piece & position.side) != 0 && typeOf(piece) <= kDownwardPawn && typeOf(piece) != kEmpty;
  const bool promotion = pawn && (to & kRowMask) == (position.side == kWhite ? 0 : 0x70);
  int type = kQueen;
  if (text.size() == 5) {
    const std::string_view pieces = "nbrq";
    const std::size_t letter = pieces.find(text[4]);
    if (!promotion || letter == std::string_view::npos)
      return "'" + shownText(text) + "': only a pawn reaching the last rank promotes, to q, r, b or n";
    type = std::array{kKnight, kBishop, kRook, kQueen}[letter];
  }
  if (!isFideLegal(position, from, to)) {
    // fideRefusal names a reason of its own for a castling refused for the
    // attacks only; for any other move it says again what "not legal here" says.
    const std::string why = fideRefusal(position, from, to);
    return "'" + shownText(text) + "' is not legal here" +
           (why.starts_with("castles") ? " (" + why + ")" : "");
  }
  const MadeMove made = applyMove(position, from, to, fideEpSquare(position));
  if (made.rookFrom != kNoSquare) position.epSquare = kNoSquare;
  if (promotion)
    position.board[static_cast<std::size_t>(to)] =
        static_cast<int8_t>(pieceCode(type, opponentOf(position.side)));
  return "";
}

}  // namespace umax::play
