// moves.h - the moves of micro-Max's search: the generator (Steps 5-7 of
// search.cpp's node), the king-capture test (Step 8), making (Step 11) and
// undoing (Step 14) a move on the board.
//
// The search and perft (perft.cpp) share them, so that perft walks the very
// moves the search walks. The generator hands each move to a visitor; the
// original's `goto C` (cutoff) becomes the visitor's kStop and `goto A`
// (replay after the sneaked-in best move) its kReplay.
#pragma once

#include "umax/engine.h"

namespace umax {
namespace moves {

// [step-vectors]
/// Step vectors of all pieces, one list per piece type, each ending in 0.
/// The generator negates every entry as it fetches it (r = -o[++j]), so the
/// "downward" pawn's -16 steps +16, down the board (row 0 is rank 8).
/// Pieces other than pawns use each vector in both directions (the search
/// negates a negative step before fetching the next one). // micro-Max: o[0..16]
inline constexpr std::array<int8_t, 17> kStepVectors = {
    -16, -15, -17, 0,       // downward pawn: push, two captures
    1,   16,  0,            // rook: sideways, vertical
    1,   16,  15,  17, 0,   // king and queen: all eight; upward pawn from 16
    14,  18,  31,  33, 0};  // knight
/// For each piece type, the index just before its first step vector.
/// // micro-Max: o[p+16]
inline constexpr std::array<int8_t, 8> kFirstStepIndex = {0, 7, -1, 11, 6, 8, 3, 6};
/// The step index at which a king steps sideways (the only castling direction).
inline constexpr int kSidewaysStepIndex = 7;
// [step-vectors]

/// A king with its virgin bit, colour bits removed: only such a king castles. // micro-Max: 36
inline constexpr int kVirginKing = kKing | kVirgin;
/// 6 * side + (to & kRowMask) equals this on a pawn's double-step row: row 5
/// (rank 3, 0x50) for white (side 8), row 2 (rank 6, 0x20) for black (side 16).
/// // micro-Max: 6*k+(y&V)==S
inline constexpr int kDoubleStepSum = 128;
/// The board scan's step: +1 to the next file; the +8 carries column 7 into
/// the next row, and masking the off-board bits removes it everywhere else,
/// so the scan visits the 64 squares and wraps from h1 to a8. // micro-Max: x+9&~M
inline constexpr int kBoardScanStep = 9;
/// Files between a pawn and the squares that tell whether it is defended
/// sideways (the pawn-structure term). // micro-Max: x-2, x+2
inline constexpr int kPawnNeighbourFiles = 2;

/// Step 11: a pawn move that reaches the last rank (see promotes()).
inline bool promotes(const Move& move) { return umax::promotes(move.type, move.to, move.step); }

/// Step 11: the piece on the to-square once `move` is made.
inline int arrivingPiece(const Move& move) { return umax::arrivingPiece(move.piece, promotes(move)); }

}  // namespace moves

// [generate-loops]
// Step 5. The move generator: scan the board from `scanStart` for pieces of
// `side`; for each, each of its step vectors; along each, the ray of squares
// until the board edge, an own piece, a capture, or the one step of a pawn,
// knight or king. Every move found goes to `visit`, which answers whether to
// go on, to stop the scan (a cutoff), or to replay the direction (after the
// previous iteration's best move was "sneaked in" first, see Step 15).
// While bestTo has kSneakBit, every ray yields that move's square instead.
template <class Visit>
inline bool Engine::generateMoves(int side, int epSquare, int8_t scanStart, int8_t& bestTo, Visit&& visit) {
  using namespace moves;
  Move move;
  move.from = scanStart;
  do {
    move.piece = board_[move.from];
    if (!(move.piece & side)) continue;
    int step = move.type = typeOf(move.piece);  // r starts > 0: fetch the first vector
    int stepIndex = kFirstStepIndex[move.type];
    while ((step = (move.type > kDownwardPawn && step < 0) ? -step : -kStepVectors[++stepIndex])) {
      move.step = step;
      bool replay;
      do {
        replay = false;
        move.to = move.from;
        move.passedSquare = move.rookFrom = kNoSquare;
        // t after the fake capture of Step 7: non-zero ends the ray.
        int8_t stop;
        // [generate-loops]
        do {
          // [next-square]
          // Step 6. Next square of the ray (or the best move's square, sneaked in).
          move.captureSquare = move.to = static_cast<int8_t>(move.to + step);
          if (bestTo & kSneakBit) move.captureSquare = move.to = bestTo & ~kBestToFlags;
          if (move.to & kOffBoard) break;  // board edge
          // E.p.: the victim stands one row behind the skipped square.
          if (move.type <= kDownwardPawn && move.to == epSquare)
            move.captureSquare = static_cast<int8_t>(enPassantVictimSquare(move.to));  // micro-Max: H=y^16
          move.victim = board_[move.captureSquare];
          // Own piece, or a pawn moving straight onto a piece / diagonally onto nothing.
          if ((move.victim & side) || (move.type <= kDownwardPawn && !(step & kFileMask) != !move.victim))
            break;
          // [next-square]

          // [visit-call]
          const Verdict verdict = visit(move);
          if (verdict == Verdict::kStop) return false;
          if (verdict == Verdict::kReplay) {
            replay = true;
            break;
          }
          // [visit-call]

          // [ray-end]
          // Step 7. End the ray after a capture or a non-slider's step,
          // except for a pawn's first step to its double-step row and a
          // virgin king's sideways step towards a virgin rook with two
          // empty squares beside it: those continue, and the next move
          // remembers the square passed over (F: the e.p. square, or where
          // the castling rook lands).
          stop = static_cast<int8_t>(move.victim + (move.type < kBishop));  // fake capture
          if ((move.type <= kDownwardPawn && 6 * side + (move.to & kRowMask) == kDoubleStepSum) ||
              ((move.piece & ~kColourMask) == kVirginKing && stepIndex == kSidewaysStepIndex &&
               (move.rookFrom & kOffBoard) &&
               // a virgin rook in the corner on the king's side of the step
               (board_[move.rookFrom = castlingCorner(move.from, step)] & kVirgin) &&
               // the two squares beside the corner (g, f or b, c) are empty
               !(board_[move.rookFrom ^ 1] | board_[move.rookFrom ^ 2]))) {
            move.passedSquare = move.to;
            stop--;  // unfake the capture: the ray goes on
          }
        } while (!stop);
      } while (replay);
    }
  } while ((move.from = static_cast<int8_t>((move.from + kBoardScanStep) & ~kOffBoard)) != scanStart);
  return true;
}
// [ray-end]

// [captures-king]
// The test of Step 8: a capture of the king means the previous move was
// illegal. The same verdict if a reply lands on or next to the square a
// castling king passed (E, still holding the castled rook), so castling out
// of, through or into check is refused. // micro-Max: i<0||E-S&&b[E]&&y-E<2&E-y<2
// The distance test comes before reading b[E]: at the root E may be -128 (the
// e.p. char O), and b[-128] is outside the board.
inline bool Engine::capturesKing(int gain, int to, int epSquare) const {
  return gain < 0 || (epSquare != kNoSquare && to - epSquare < 2 && epSquare - to < 2 && board_[epSquare]);
}
// [captures-king]

// [make-move]
// Do the move (Step 11): strip the virgin bit, place a castling rook, promote.
// Returns the positional gain (centre points, castling bonus, pawn
// structure); `gain` grows by the promotion bonus.
inline int Engine::makeMove(const Move& move, int side, int& gain) {
  using namespace moves;
  int score =
      move.type < kRook ? board_[move.from + kCentreTableOffset] - board_[move.to + kCentreTableOffset] : 0;
  board_[move.rookFrom] = board_[move.captureSquare] = board_[move.from] = 0;
  board_[move.to] = move.piece & kColourAndType;  // strip the virgin bit
  if (!(move.rookFrom & kOffBoard)) {
    board_[move.passedSquare] = static_cast<int8_t>(side + kRook);  // castling: the rook lands on F
    score += kCastlingBonus;
  }
  if (move.type <= kDownwardPawn) {
    // Pawn structure: count the squares two files to either side of the
    // from-square that do not hold the same pawn; the move scores -9 * (count - 1).
    const int left = move.from - kPawnNeighbourFiles;
    const int right = move.from + kPawnNeighbourFiles;
    score -= kPawnStructureUnit * (((left & kOffBoard) || board_[left] != move.piece) +
                                   ((right & kOffBoard) || board_[right] != move.piece) - 1);
    if (promotes(move)) {  // last rank: a queen
      board_[move.to] |= kQueen;
      gain += kPromotionBonus;
    }
  }
  return score;
}
// [make-move]

// [unmake-move]
// Undo the move (Step 14). rookFrom may be the dummy square 128, which then
// receives a rook: harmless, nothing reads it. // micro-Max: b[G]=k+38
inline void Engine::unmakeMove(const Move& move, int side) {
  board_[move.rookFrom] = static_cast<int8_t>(side + kRook + kVirgin);
  board_[move.passedSquare] = board_[move.to] = 0;
  board_[move.from] = move.piece;
  board_[move.captureSquare] = move.victim;
}
// [unmake-move]

}  // namespace umax
