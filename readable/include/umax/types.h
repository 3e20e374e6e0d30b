/// \file types.h
/// \brief The vocabulary of micro-Max: squares, piece codes, sides and score bounds.
///
/// Everything here is a name for a number the 133-line original writes as a
/// literal or as a one-letter global. Each declaration keeps the original's
/// name beside the new one (`// micro-Max: ...`).
#pragma once

#include <array>
#include <cstdint>

namespace umax {

/// A square of the 0x88 board: `16 * row + file`, row 0 is rank 8.
/// a8 = 0x00, h8 = 0x07, a1 = 0x70, h1 = 0x77. Columns 8..15 of each row are
/// off the board; micro-Max keeps its centre-points table there.
using Square = int;

// [board-constants]
/// The mask of the bits that are set on every off-board square. // micro-Max: M = 0x88
inline constexpr int kOffBoard = 0x88;
/// The row (rank) bits of a square. // micro-Max: V = 0x70
inline constexpr int kRowMask = 0x70;
/// The number of squares, and the "no square" value. // micro-Max: S = 128
inline constexpr int kNoSquare = 128;
/// The size of the board array: 128 squares plus the dummy b[128] that
/// castling's "no rook" writes land on.
inline constexpr int kBoardSize = 129;
/// Offset from a square to its centre-points entry in the unused half. // micro-Max: b[x+8]
inline constexpr int kCentreTableOffset = 8;
/// The file bits of a square (or of a step vector: 0 for a straight vertical step).
inline constexpr int kFileMask = 7;
/// One row up or down: 16 squares. XOR with it pairs rows 2 <-> 3 and 5 <-> 4,
/// the e.p. square and the square of the pawn that skipped it. // micro-Max: 16 in y^16
inline constexpr int kRowStep = 16;

/// True when a 0x88 square lies on the board.
constexpr bool isOnBoard(int square) { return (square & kOffBoard) == 0; }
/// The file (0 = a) of an on-board square.
constexpr int fileOf(Square square) { return square & kFileMask; }
/// The rank (1..8) of an on-board square.
constexpr int rankOf(Square square) { return 8 - (square >> 4); }
/// The square with the given file (0..7) and rank (1..8).
constexpr Square makeSquare(int file, int rank) { return 16 * (8 - rank) + file; }
// [board-constants]

// [piece-codes]
/// The piece-code vocabulary: the low three bits give the type, bits 3 and 4
/// the colour, bit 5 the virgin bit. One enum, so that codes combine with |.
/// \verbatim
///   bit:   7   6   5       4       3       2 1 0
///          -   -   virgin  black   white   type
/// \endverbatim
/// micro-Max tells the two pawn colours apart by direction: white pawns move
/// up the board (towards row 0), black pawns down. The virgin bit marks a
/// back-rank piece that has not moved (never a pawn); only castling reads it,
/// on the king and the rook.
enum PieceCode : int {
  kEmpty = 0,
  kUpwardPawn = 1,    ///< white pawn
  kDownwardPawn = 2,  ///< black pawn
  kKnight = 3,
  kKing = 4,
  kBishop = 5,
  kRook = 6,
  kQueen = 7,
  kTypeMask = 7,     ///< the type bits
  kWhite = 8,        ///< colour bit of white pieces; also "white to move" // micro-Max: k
  kBlack = 16,       ///< colour bit of black pieces; also "black to move"
  kColourMask = 24,  ///< white | black
  kVirgin = 32,      ///< unmoved back-rank piece (never a pawn); only castling reads it
};
// [piece-codes]

/// The other side: 8 <-> 16. // micro-Max: 24-k
constexpr int opponentOf(int side) { return 24 - side; }

/// The code of a piece of `type` for `side` (8 or 16), without the virgin bit.
constexpr int pieceCode(int type, int side) { return type | side; }

/// The piece type of a piece code.
constexpr int typeOf(int piece) { return piece & kTypeMask; }

// [score-bounds]
/// Scores. A king capture is worth "infinity". // micro-Max: I = 8e4
inline constexpr int kInfinity = 80000;
/// Scores beyond this bound mean a mate was seen: they no longer depend on depth.
inline constexpr int kMateBound = kInfinity / 4;
// [score-bounds]
/// Bonus for promoting a pawn to a queen (on top of nothing: the pawn is not
/// subtracted). // micro-Max: C = 799
inline constexpr int kPromotionBonus = 799;
/// Material is counted in units of 99 times the relative piece values.
inline constexpr int kValueScale = 99;
/// Bonus for castling.
inline constexpr int kCastlingBonus = 30;
/// Penalty unit for a pawn whose neighbour squares two files away hold no
/// friendly pawn (a crude structure term).
inline constexpr int kPawnStructureUnit = 9;

// [piece-values]
/// Relative piece values by type; the king's -1 turns a capture of it into a
/// negative "capture value", which is how king capture is recognised.
/// // micro-Max: w[]
inline constexpr std::array<int8_t, 8> kPieceValue = {0, 1, 1, 3, -1, 3, 5, 9};
// [piece-values]

// [search-markers]
/// The root of a think passes previous destination 8 (never a real square)
/// so the search knows to deepen until the node budget is spent.
inline constexpr int kThinkMarker = 8;
/// The root of a legality check passes previous destination 9.
inline constexpr int kLegalityMarker = 9;
/// The original's node limit: no new iteration starts at or beyond it.
inline constexpr int kNodeLimit = 10000000;
/// One past the deepest iteration the root starts: d < 98 is tested after
/// d++, so the deepest is 97.
inline constexpr int kMaxIteration = 98;
/// The draft given to mate scores, which hold at any depth.
inline constexpr int kMateDraft = 99;
// [search-markers]

}  // namespace umax
