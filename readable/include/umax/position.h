/// \file position.h
/// \brief Positions from FEN, in micro-Max's own terms. Used by both builds.
///
/// This is the single place where a FEN string becomes what micro-Max keeps
/// for a game: its 129-byte board (pieces in the left half of each 16-square
/// row, the centre-points table in the right half, a dummy square at 128),
/// the side to move, the e.p. square and the material eval Q.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "umax/notation.h"
#include "umax/types.h"

namespace umax {

/// The board array exactly as micro-Max stores it. // micro-Max: b[]
using Board = std::array<int8_t, kBoardSize>;

/// What a game of micro-Max keeps between moves.
struct Position {
  Board board{};             ///< pieces, centre table, dummy // micro-Max: b[]
  int side = kWhite;         ///< side to move, 8 or 16 // micro-Max: k (main's local)
  int epSquare = kNoSquare;  ///< square skipped by a double step or castling, else 128 // micro-Max: O
  int eval = 0;              ///< material balance for the side to move // micro-Max: Q
};

/// A FEN the parser refused: what is wrong, and where (0-based column).
class FenError : public std::runtime_error {
 public:
  /// A refusal: `what` is wrong at 0-based `column`; what() adds the 1-based column.
  FenError(const std::string& what, std::size_t column);
  /// Column of the offending character in the FEN string.
  std::size_t column() const { return column_; }

 private:
  std::size_t column_;
};

/// The standard start position.
inline constexpr std::string_view kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The longest FEN parseFen() reads (a real one has fewer than 100 characters).
inline constexpr std::size_t kMaxFenText = 65536;

/// Parses a FEN (4 to 6 fields) into micro-Max's representation. Refused,
/// besides malformed fields: not exactly one king a side, more than 16 men
/// or 8 pawns a side, more promoted pieces than missing pawns, a pawn on
/// rank 1 or 8, castling without its king and rook at home, an e.p. square
/// not behind a pawn that can just have made a double step, the side not
/// to move in check, the side to move in check by more than two men.
/// \throws FenError with a message naming the field and the column.
Position parseFen(std::string_view fen);

/// The board main() builds at start-up: pieces, virgin bits, centre table.
Board startBoard();

/// Writes the centre-points table into the unused half of a board, as main() does.
void fillCentreTable(Board& board);

/// Material eval Q for `side`: 99 * (sum of piece values of side - of opponent), kings excluded.
int materialEval(const Board& board, int side);

/// Is `square` attacked by a piece of `attacker` (8 or 16) under FIDE rules?
/// A plain 0x88 attack test, not the search's: the FEN parser refuses
/// positions where the side not to move is in check, and the protocol front
/// ends (play/) check the engine's root move with it.
bool isAttacked(const Board& board, int square, int attacker);

/// The square of the king of `colour` (8 or 16), or kNoSquare if it has none.
int findKing(const Board& board, int colour);

/// The FEN of a board with `side` (8 or 16) to move: castling rights from the
/// virgin bits of kings and rooks on their start squares, `epSquare` if it is
/// a square of the board (else "-"), half-move clock 0, move `fullMove`.
std::string toFen(const Board& board, int side, int epSquare, int fullMove = 1);

/// A move made on a Position by applyMove(), with what the search's
/// generator and Step 11 know of it.
struct MadeMove {
  int piece = 0;                 ///< the mover // micro-Max: u
  int victim = 0;                ///< the piece taken, 0 if none // micro-Max: t
  int captureSquare = 0;         ///< where the victim stood: `to`, or beside it (e.p.) // micro-Max: H
  int rookFrom = kNoSquare;      ///< a castling rook's corner, else 128 // micro-Max: G
  int passedSquare = kNoSquare;  ///< the square a double step or castling passed, else 128 // micro-Max: F
  int arriving = 0;              ///< the piece on the to-square afterwards (a queen for a promoted pawn)
  int gain = 0;                  ///< material gain: the capture's plus the promotion bonus // micro-Max: i
};

/// Plays `from`-`to`, a legal move of the side to move, on `position` as
/// the search makes a move (the rules of search_rules.h, Steps 6-11) and
/// main() then leaves the game: a pawn arriving on `epSquare` takes the pawn
/// behind it (e.p.); a king's two-square step castles, its rook going from
/// the corner to the square the king passed, without its virgin bit; the
/// mover loses its virgin bit; a pawn reaching the last rank becomes a queen.
/// Then the side to move flips, O becomes the square passed over (F, else
/// 128) and Q becomes -Q - i. `epSquare` is the game's O (position.epSquare)
/// for the search's own e.p. rule, or FIDE's e.p. square for a GUI's move.
MadeMove applyMove(Position& position, int from, int to, int epSquare);

/// The piece letter of a code ('P', 'n', ...), '.' for empty.
char pieceLetter(int piece);

}  // namespace umax
