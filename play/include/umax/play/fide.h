/// \file fide.h
/// \brief FIDE's move rules on micro-Max's board, for the protocol front ends.
///
/// The search keeps the original's rules, which differ from FIDE's in two
/// places (a king may castle out of, or through, a pawn's attack: see the
/// quirks page). A chess GUI is a FIDE referee, so the front ends check the
/// engine's chosen root move here before they send it, and use the same
/// generator to see mate and stalemate, which the original never announces.
#pragma once

#include <string>
#include <vector>

#include "umax/position.h"

namespace umax::play {

/// A legal move under FIDE rules.
struct FideMove {
  int from = 0;            ///< from-square (0x88)
  int to = 0;              ///< to-square (0x88)
  bool promotion = false;  ///< a pawn reaching the last rank (any of q, r, b, n)
  bool castling = false;   ///< a king's two-file step
  bool enPassant = false;  ///< a pawn capturing the pawn that just made a double step
};

/// The e.p. square of `position` if a pawn of the side to move could really
/// capture there (micro-Max also leaves the passed square of a castling
/// king in it), else kNoSquare.
int fideEpSquare(const Position& position);

/// Every legal move of the side to move under FIDE rules (promotions once each).
std::vector<FideMove> fideLegalMoves(const Position& position);

/// Is the king of `side` attacked?
bool inCheck(const Position& position, int side);

/// Is the move from-to legal under FIDE rules in `position`?
bool isFideLegal(const Position& position, int from, int to);

/// Why a move micro-Max's rules accept fails FIDE's, e.g. "castles out of
/// check" (empty if it is legal).
std::string fideRefusal(const Position& position, int from, int to);

/// Plays `text` ("e2e4", "e7e8n") on `position` as the protocol front ends place a move (FIDE's
/// rules, FIDE's e.p. square, no e.p. square after a castling, an under-promotion's piece on the
/// last rank); returns why not ("" when played) if it is not a legal move there.
std::string playFideMove(Position& position, const std::string& text);

/// The FEN of a position (umax::toFen: half-move clock 0; castling rights
/// from the virgin bits of kings and rooks on their start squares), its e.p.
/// square only where a pawn could capture there (fideEpSquare).
std::string toFen(const Position& position, int fullMove);

}  // namespace umax::play
