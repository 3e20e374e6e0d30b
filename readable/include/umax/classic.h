/// \file classic.h
/// \brief The original's stdin/stdout play loop, byte for byte.
#pragma once

#include <cstdio>
#include <string>

#include "umax/engine.h"

namespace umax {

/// The longest input line the original can hold: `int c[9]` takes 8
/// characters and the terminator.
inline constexpr int kMaxLineLength = 8;

/// The board as main() prints it: 8 rows of " x" per square, each row ended
/// by " \n"; white pieces upper case, white pawns '*', black pawns '+'.
std::string boardText(const Board& board);

/// The original's play loop. Prints the board, reads a line (ended by any
/// byte <= 10, as getchar()>10 decides), then either thinks (empty line) and
/// plays its move, or checks the entered move and plays it if legal, and so on.
/// stdout is byte-identical to the original's for the same input. Unlike the
/// original it returns at end of input (instead of looping for ever) and
/// refuses lines longer than 8 characters (which overrun the original's
/// buffer) with a message on `err`; illegal moves also get a message there.
/// `budget` is the node budget of a think (the original's is 10,000,000).
/// \returns 0.
int runClassicInterface(Engine& engine, std::FILE* in, std::FILE* out, std::FILE* err,
                        long budget = kNodeLimit);

}  // namespace umax
