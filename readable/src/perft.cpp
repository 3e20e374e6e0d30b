// perft.cpp - perft: the leaves of the tree of legal moves, counted with
// the search's own generator, make and undo (moves.h) and its legality rule
// (a move is illegal if a reply can capture the king, see capturesKing).
#include <algorithm>
#include <cassert>

#include "moves.h"
#include "umax/engine.h"

namespace umax {
namespace {

/// Debug builds copy the board before a move is made, to check that the undo
/// restores every square (the dummy b[128] excepted: the undo writes a rook
/// there whatever it held). Release builds keep nothing.
class UndoCheck {
 public:
#ifndef NDEBUG
  explicit UndoCheck(const Board& board) : before_(board) {}
  void verify(const Board& board) const {
    assert(std::equal(board.begin(), board.begin() + kNoSquare, before_.begin()));
  }

 private:
  Board before_;
#else
  explicit UndoCheck(const Board&) {}
  void verify(const Board&) const {}
#endif
};

}  // namespace

bool Engine::kingCapturable(int side, int epSquare) {
  int8_t noHint = 0;
  return !generateMoves(side, epSquare, 0, noHint, [&](const Move& move) {
    const int gain = captureGain(move.victim);
    return capturesKing(gain, move.to, epSquare) ? Verdict::kStop : Verdict::kNext;
  });
}

long Engine::perftFrom(int side, int epSquare, int depth, std::vector<PerftMove>* divide) {
  long leaves = 0;
  int8_t noHint = 0;
  generateMoves(side, epSquare, 0, noHint, [&](const Move& move) {
    int gain = 0;
    const UndoCheck undoCheck(board_);
    makeMove(move, side, gain);
    if (!kingCapturable(opponentOf(side), move.passedSquare)) {
      const long below = depth > 1 ? perftFrom(opponentOf(side), move.passedSquare, depth - 1, nullptr) : 1;
      leaves += below;
      if (divide) divide->push_back({move.from, move.to, below});
    }
    unmakeMove(move, side);
    undoCheck.verify(board_);
    return Verdict::kNext;
  });
  return leaves;
}

std::vector<Move> Engine::generatedMoves(int side, int epSquare, int scanStart) {
  std::vector<Move> moves;
  int8_t noHint = 0;
  generateMoves(side, epSquare, static_cast<int8_t>(scanStart), noHint, [&](const Move& move) {
    moves.push_back(move);
    return Verdict::kNext;
  });
  return moves;
}

long Engine::perft(int depth, std::vector<PerftMove>* divide) {
  if (depth <= 0) return 1;
  return perftFrom(side_, epSquare_, depth, divide);
}

}  // namespace umax
