/// \file notation.h
/// \brief Squares and moves as text: "e4", "e2e4". Every tool names them through these.
#pragma once

#include <string>
#include <string_view>

#include "umax/types.h"

namespace umax {

/// The square name ("e4") of an on-board square; "--" for anything else
/// (the dummy square 128, a negative char, an off-board 0x88 index).
std::string squareName(int square);

/// Parses a square name like "e4"; returns -1 if it is not one.
int parseSquare(std::string_view name);

/// Parses a move in coordinate notation ("e2e4"); false if malformed.
bool parseMove(std::string_view text, int& from, int& to);

/// A move in coordinate notation, "e2e4", from two squares; a square that
/// is not on the board shows as "--".
std::string moveName(int from, int to);

/// The square a best-move byte (the search's X or Y) names, without the
/// flag bits beside it (bound bits 8 and 128 in X; the sneak bit 8 and the
/// not-castling bit 128 in Y).
constexpr int bestMoveSquare(int byte) { return byte & (kRowMask | kFileMask); }

/// The move a best-move pair names: the search's X and Y (a hash entry's
/// from / to bytes, a best move, a return's best) carry flag bits beside the
/// square (bound bits in X; the not-castling and sneak bits in Y), which are
/// dropped before naming it.
std::string bestMoveName(int bestFrom, int bestTo);

/// A think's result as every tool prints it: its move ("e2e4"), or "none" when the search found
/// no move (from == to: the side to move is mated or stalemated; micro-Max leaves X = Y = 0, a8a8).
std::string thinkMoveName(int from, int to);

}  // namespace umax
