// position.cpp - FEN strings to micro-Max's board, side, e.p. square and eval.
#include "umax/position.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include "umax/search_rules.h"

namespace umax {
namespace {

// [back-rank]
/// The back rank of main()'s start board, by file. // micro-Max: o[24..31]
constexpr std::array<int, 8> kStartBackRank = {kRook, kKnight, kBishop, kQueen,
                                               kKing, kBishop, kKnight, kRook};
// [back-rank]

/// A field of the FEN with the column where it starts.
struct Field {
  std::string_view text;
  std::size_t column;
};

std::vector<Field> splitFields(std::string_view fen) {
  std::vector<Field> fields;
  std::size_t position = 0;
  while (position < fen.size()) {
    while (position < fen.size() && fen[position] == ' ') ++position;
    if (position >= fen.size()) break;
    const std::size_t start = position;
    while (position < fen.size() && fen[position] != ' ') ++position;
    fields.push_back({fen.substr(start, position - start), start});
  }
  return fields;
}

int pieceCodeOfLetter(char letter) {
  int type = kEmpty;
  switch (letter | 0x20) {  // lower case
    case 'p':
      type = (letter == 'P') ? kUpwardPawn : kDownwardPawn;
      break;
    case 'n':
      type = kKnight;
      break;
    case 'b':
      type = kBishop;
      break;
    case 'r':
      type = kRook;
      break;
    case 'q':
      type = kQueen;
      break;
    case 'k':
      type = kKing;
      break;
    default:
      return 0;
  }
  const bool white = letter >= 'A' && letter <= 'Z';
  return type | (white ? kWhite : kBlack);
}

std::string quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 32 || byte >= 127) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 15];
    } else {
      out += c;
    }
  }
  return out + "'";
}

void parsePlacement(const Field& field, Board& board) {
  int row = 0;
  int file = 0;
  for (std::size_t index = 0; index < field.text.size(); ++index) {
    const char c = field.text[index];
    const std::size_t column = field.column + index;
    if (c == '/') {
      if (file != 8)
        throw FenError("rank " + std::to_string(8 - row) + " has " + std::to_string(file) + " squares, not 8",
                       column);
      if (++row > 7) throw FenError("piece placement has more than 8 ranks", column);
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) throw FenError("rank " + std::to_string(8 - row) + " has more than 8 squares", column);
    } else if (int code = pieceCodeOfLetter(c)) {
      if (file > 7) throw FenError("rank " + std::to_string(8 - row) + " has more than 8 squares", column);
      if (typeOf(code) <= kDownwardPawn && (row == 0 || row == 7))
        throw FenError("a pawn on rank " + std::to_string(8 - row) + " is impossible", column);
      board[16 * row + file] = static_cast<int8_t>(code);
      ++file;
    } else {
      throw FenError("unexpected character " + quoted(std::string_view(&field.text[index], 1)) +
                         " in piece placement (expected one of PNBRQKpnbrqk, 1-8 or /)",
                     column);
    }
  }
  const std::size_t end = field.column + field.text.size();
  if (row != 7 || file != 8)
    throw FenError("piece placement describes " + std::to_string(row + (file > 0)) +
                       " ranks; it needs 8 ranks of 8 squares",
                   end);
}

int countKings(const Board& board, int colour) {
  int count = 0;
  for (int square = 0; square < 128; ++square)
    if (isOnBoard(square) && (board[square] & ~kVirgin) == (kKing | colour)) ++count;
  return count;
}

/// Refuses an army that no game can have: more than 16 men, more than 8
/// pawns, or more pieces than promotions of the missing pawns can explain
/// (one queen, two rooks, two bishops, two knights to start with).
void checkArmy(const Board& board, int colour, std::size_t column) {
  std::array<int, 8> count{};
  for (int square = 0; square < 128; ++square)
    if (isOnBoard(square) && board[square] != 0 && (board[square] & colour)) ++count[typeOf(board[square])];
  const int pawns = count[kUpwardPawn] + count[kDownwardPawn];
  int men = pawns;
  for (int type = kKnight; type <= kQueen; ++type) men += count[type];
  const std::string side = colour == kWhite ? "white" : "black";
  if (men > 16) throw FenError(side + " has " + std::to_string(men) + " men: a side has at most 16", column);
  if (pawns > 8)
    throw FenError(side + " has " + std::to_string(pawns) + " pawns: a side has at most 8", column);
  const int promoted = std::max(0, count[kQueen] - 1) + std::max(0, count[kRook] - 2) +
                       std::max(0, count[kBishop] - 2) + std::max(0, count[kKnight] - 2);
  if (pawns + promoted > 8)
    throw FenError(side + " has " + std::to_string(promoted) + " pieces beyond its first army but only " +
                       std::to_string(8 - pawns) + " pawns missing to have promoted",
                   column);
}

/// How many men of `attacker` attack `square`: each tested alone, the
/// others turned into blockers of the other colour.
int countAttackers(const Board& board, int square, int attacker) {
  int count = 0;
  for (int from = 0; from < 128; ++from) {
    if (!isOnBoard(from) || board[from] == 0 || !(board[from] & attacker)) continue;
    Board alone = board;
    for (int other = 0; other < 128; ++other)
      if (other != from && isOnBoard(other) && alone[other] != 0 && (alone[other] & attacker))
        alone[other] = static_cast<int8_t>((alone[other] & ~attacker & ~kVirgin) | opponentOf(attacker));
    if (isAttacked(alone, square, attacker)) ++count;
  }
  return count;
}

void applyCastlingRights(const Field& field, Board& board) {
  if (field.text == "-") return;
  std::string seen;
  for (std::size_t index = 0; index < field.text.size(); ++index) {
    const char right = field.text[index];
    const std::size_t column = field.column + index;
    const bool white = right == 'K' || right == 'Q';
    const bool kingSide = right == 'K' || right == 'k';
    if (right != 'K' && right != 'Q' && right != 'k' && right != 'q')
      throw FenError("castling rights must be '-' or letters from KQkq, found " +
                         quoted(std::string_view(&field.text[index], 1)),
                     column);
    if (seen.find(right) != std::string::npos)
      throw FenError(std::string("castling right '") + right + "' is given twice", column);
    seen += right;
    const int colour = white ? kWhite : kBlack;
    const int homeRank = white ? 1 : 8;
    const int kingSquare = makeSquare(4, homeRank);
    const int rookSquare = makeSquare(kingSide ? 7 : 0, homeRank);
    if (board[kingSquare] != (kKing | colour) && board[kingSquare] != (kKing | colour | kVirgin))
      throw FenError(std::string("castling right '") + right + "' needs the " + (white ? "white" : "black") +
                         " king on " + squareName(kingSquare),
                     column);
    if (board[rookSquare] != (kRook | colour))
      throw FenError(std::string("castling right '") + right + "' needs a " + (white ? "white" : "black") +
                         " rook on " + squareName(rookSquare),
                     column);
    board[kingSquare] = static_cast<int8_t>(kKing | colour | kVirgin);
    board[rookSquare] = static_cast<int8_t>(kRook | colour | kVirgin);
  }
}

/// main() marks every piece of both back ranks as virgin. Only kings and
/// rooks ever look at the bit; knights, bishops and queens on their start
/// squares get it too so that the start FEN gives main()'s board byte for byte.
void markUnmovedMinorPieces(Board& board) {
  for (int file = 0; file < 8; ++file) {
    const int type = kStartBackRank[file];
    if (type == kRook || type == kKing) continue;
    for (int colour : {kWhite, kBlack}) {
      const int square = makeSquare(file, colour == kWhite ? 1 : 8);
      if (board[square] == (type | colour)) board[square] = static_cast<int8_t>(type | colour | kVirgin);
    }
  }
}

int parseEpSquare(const Field& field, const Board& board, int side) {
  if (field.text == "-") return kNoSquare;
  const int square = parseSquare(field.text);
  if (square < 0)
    throw FenError("e.p. square must be '-' or a square like e3, found " + quoted(field.text), field.column);
  const int expectedRank = side == kWhite ? 6 : 3;
  if (rankOf(square) != expectedRank)
    throw FenError("e.p. square " + std::string(field.text) + " is not on rank " +
                       std::to_string(expectedRank) + " (the rank a pawn of the side that just moved skips)",
                   field.column);
  const int pawnSquare = square + (side == kWhite ? 16 : -16);   // where the pawn landed
  const int startSquare = square - (side == kWhite ? 16 : -16);  // where it started
  const int pawn = side == kWhite ? pieceCode(kDownwardPawn, kBlack) : pieceCode(kUpwardPawn, kWhite);
  if (board[square] != 0 || board[pawnSquare] != pawn)
    throw FenError(
        "e.p. square " + std::string(field.text) + " does not lie behind a pawn that just made a double step",
        field.column);
  if (board[startSquare] != 0)
    throw FenError("e.p. square " + std::string(field.text) +
                       ": the square the pawn started from is occupied, so it cannot have just moved",
                   field.column);
  return square;
}

void checkCounter(const Field& field, const char* name, bool positive) {
  bool digits = !field.text.empty() && field.text.size() <= 9;
  for (char c : field.text) digits = digits && c >= '0' && c <= '9';
  if (!digits || (positive && std::atoi(std::string(field.text).c_str()) < 1))
    throw FenError(std::string(name) + " must be a " + (positive ? "positive" : "non-negative") +
                       " number, found " + quoted(field.text),
                   field.column);
}

}  // namespace

int findKing(const Board& board, int colour) {
  for (int square = 0; square < 128; ++square)
    if (isOnBoard(square) && (board[square] & ~kVirgin) == (kKing | colour)) return square;
  return kNoSquare;
}

std::string toFen(const Board& board, int side, int epSquare, int fullMove) {
  const auto at = [&board](int square) { return board[static_cast<std::size_t>(square)]; };
  std::string fen;
  for (int rank = 8; rank >= 1; --rank) {  // a FEN starts with rank 8
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const int piece = at(makeSquare(file, rank));
      if (piece == 0) {
        ++empty;
        continue;
      }
      if (empty) fen += static_cast<char>('0' + empty);
      empty = 0;
      const char letter = "?PPNKBRQ"[typeOf(piece)];
      fen += (piece & kWhite) ? letter : static_cast<char>(letter | 0x20);
    }
    if (empty) fen += static_cast<char>('0' + empty);
    if (rank > 1) fen += '/';
  }
  fen += side == kWhite ? " w " : " b ";
  std::string rights;
  auto unmoved = [&](int square, int piece) { return at(square) == (piece | kVirgin); };
  if (unmoved(0x74, kKing | kWhite)) {
    if (unmoved(0x77, kRook | kWhite)) rights += 'K';
    if (unmoved(0x70, kRook | kWhite)) rights += 'Q';
  }
  if (unmoved(0x04, kKing | kBlack)) {
    if (unmoved(0x07, kRook | kBlack)) rights += 'k';
    if (unmoved(0x00, kRook | kBlack)) rights += 'q';
  }
  fen += rights.empty() ? "-" : rights;
  fen += " " + (isOnBoard(epSquare) && epSquare < 128 ? squareName(epSquare) : std::string("-"));
  return fen + " 0 " + std::to_string(fullMove);
}

bool isAttacked(const Board& board, int square, int attacker) {
  auto holds = [&](int target, int type) {
    return isOnBoard(target) && board[target] != 0 && (board[target] & attacker) &&
           typeOf(board[target]) == type;
  };
  // Pawns: a white pawn attacks upwards (towards row 0), so it sits below.
  const int pawnType = attacker == kWhite ? kUpwardPawn : kDownwardPawn;
  const int pawnRow = attacker == kWhite ? 16 : -16;
  if (holds(square + pawnRow - 1, pawnType) || holds(square + pawnRow + 1, pawnType)) return true;
  for (int step : {14, 18, 31, 33, -14, -18, -31, -33})
    if (holds(square + step, kKnight)) return true;
  for (int step : {1, -1, 16, -16, 15, -15, 17, -17})
    if (holds(square + step, kKing)) return true;
  for (int step : {1, -1, 16, -16, 15, -15, 17, -17}) {
    const bool straight = step == 1 || step == -1 || step == 16 || step == -16;
    for (int target = square + step; isOnBoard(target); target += step) {
      const int piece = board[target];
      if (piece == 0) continue;
      if (piece & attacker) {
        const int type = typeOf(piece);
        if (type == kQueen || type == (straight ? kRook : kBishop)) return true;
      }
      break;
    }
  }
  return false;
}

FenError::FenError(const std::string& what, std::size_t column)
    : std::runtime_error("bad FEN at column " + std::to_string(column + 1) + ": " + what), column_(column) {}

char pieceLetter(int piece) {
  static constexpr char kLetters[] = ".PPNKBRQ";
  const char letter = kLetters[typeOf(piece)];
  if (letter == '.') return letter;
  return (piece & kBlack) ? static_cast<char>(letter | 0x20) : letter;
}

// [centre-table]
void fillCentreTable(Board& board) {
  // main(): b[16*j+i+8]=(i-4)*(i-4)+(j-3.5)*(j-3.5); a double truncated to char.
  for (int file = 0; file < 8; ++file)
    for (int row = 0; row < 8; ++row)
      board[16 * row + file + kCentreTableOffset] =
          static_cast<int8_t>((file - 4) * (file - 4) + (row - 3.5) * (row - 3.5));
}
// [centre-table]

// [start-board]
Board startBoard() {
  Board board{};
  for (int file = 0; file < 8; ++file) {
    const int backRank = kStartBackRank[file] | kVirgin;
    board[makeSquare(file, 8)] = static_cast<int8_t>(backRank | kBlack);
    board[makeSquare(file, 7)] = static_cast<int8_t>(pieceCode(kDownwardPawn, kBlack));
    board[makeSquare(file, 2)] = static_cast<int8_t>(pieceCode(kUpwardPawn, kWhite));
    board[makeSquare(file, 1)] = static_cast<int8_t>(backRank | kWhite);
  }
  fillCentreTable(board);
  return board;
}
// [start-board]

// [material-eval]
int materialEval(const Board& board, int side) {
  int balance = 0;
  for (int square = 0; square < 128; ++square) {
    const int piece = board[square];
    if (!isOnBoard(square) || piece == 0 || typeOf(piece) == kKing) continue;
    const int value = kPieceValue[typeOf(piece)];
    balance += (piece & side) ? value : -value;
  }
  return kValueScale * balance;
}
// [material-eval]

MadeMove applyMove(Position& position, int from, int to, int epSquare) {
  Board& board = position.board;
  MadeMove move;
  move.piece = board[from];
  const int type = typeOf(move.piece);
  const bool pawn = type <= kDownwardPawn;
  move.captureSquare = pawn && to == epSquare ? enPassantVictimSquare(to) : to;
  move.victim = board[move.captureSquare];
  if (type == kKing && (to - from == 2 || from - to == 2)) {
    move.rookFrom = castlingCorner(from, to > from ? 1 : -1);
    move.passedSquare = skippedSquare(from, to);
  } else if (pawn && (to - from == 2 * kRowStep || from - to == 2 * kRowStep)) {
    move.passedSquare = skippedSquare(from, to);
  }
  const bool promoted = promotesBySquares(move.piece, from, to);
  move.arriving = arrivingPiece(move.piece, promoted);
  move.gain = materialGain(move.victim, promoted);
  board[move.captureSquare] = 0;
  board[from] = 0;
  board[to] = static_cast<int8_t>(move.arriving);
  if (move.rookFrom != kNoSquare) {
    board[move.rookFrom] = 0;
    board[move.passedSquare] = static_cast<int8_t>(position.side + kRook);
  }
  position.side = opponentOf(position.side);
  position.epSquare = move.passedSquare;
  position.eval = -position.eval - move.gain;
  return move;
}

Position parseFen(std::string_view fen) {
  if (fen.size() > kMaxFenText)
    throw FenError("a FEN of " + std::to_string(fen.size()) + " characters is too long (at most " +
                       std::to_string(kMaxFenText) + ")",
                   kMaxFenText);
  for (std::size_t index = 0; index < fen.size(); ++index) {
    const auto byte = static_cast<unsigned char>(fen[index]);
    if (byte < 32 || byte >= 127)
      throw FenError("character " + quoted(fen.substr(index, 1)) + " is not printable ASCII", index);
  }
  const std::vector<Field> fields = splitFields(fen);
  if (fields.size() < 4 || fields.size() > 6)
    throw FenError(
        "a FEN has 4 to 6 space-separated fields (placement, side, castling, e.p., "
        "half-move clock, move number); found " +
            std::to_string(fields.size()),
        fields.empty() ? 0 : fields.back().column);

  Position position;
  parsePlacement(fields[0], position.board);
  for (int colour : {kWhite, kBlack}) {
    const int kings = countKings(position.board, colour);
    if (kings != 1)
      throw FenError(std::string("there must be exactly one ") + (colour == kWhite ? "white" : "black") +
                         " king, found " + std::to_string(kings),
                     fields[0].column);
    checkArmy(position.board, colour, fields[0].column);
  }

  if (fields[1].text == "w") {
    position.side = kWhite;
  } else if (fields[1].text == "b") {
    position.side = kBlack;
  } else {
    throw FenError("side to move must be 'w' or 'b', found " + quoted(fields[1].text), fields[1].column);
  }

  applyCastlingRights(fields[2], position.board);
  markUnmovedMinorPieces(position.board);
  position.epSquare = parseEpSquare(fields[3], position.board, position.side);
  if (fields.size() > 4) checkCounter(fields[4], "half-move clock", false);
  if (fields.size() > 5) checkCounter(fields[5], "move number", true);

  const int waiting = opponentOf(position.side);
  if (isAttacked(position.board, findKing(position.board, waiting), position.side))
    throw FenError(std::string("the side not to move (") + (waiting == kWhite ? "white" : "black") +
                       ") is in check: the position cannot arise",
                   fields[1].column);
  const int checkers = countAttackers(position.board, findKing(position.board, position.side), waiting);
  if (checkers > 2)
    throw FenError(std::string(position.side == kWhite ? "white" : "black") + " is in check by " +
                       std::to_string(checkers) + " men: no move gives more than a double check",
                   fields[1].column);

  fillCentreTable(position.board);
  position.eval = materialEval(position.board, position.side);
  return position;
}

}  // namespace umax
