/// \file session.h
/// \brief Setting up a game from the command line, the same way for any engine.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "umax/engine.h"
#include "umax/position.h"

namespace umax {

/// Plays space-separated coordinate moves ("e2e4 e7e5") through the engine's
/// legality-check path, as the original's game loop plays entered moves.
/// \throws std::runtime_error naming the first malformed or illegal move.
template <class AnyEngine>
void playMoves(AnyEngine& engine, std::string_view moves) {
  std::istringstream stream{std::string(moves)};
  std::string move;
  int number = 0;
  while (stream >> move) {
    ++number;
    int from;
    int to;
    if (!parseMove(move, from, to))
      throw std::runtime_error("move " + std::to_string(number) + " '" + move + "' is not a move like e2e4");
    if (!engine.playMove(from, to))
      throw std::runtime_error("move " + std::to_string(number) + " '" + move + "' is illegal here");
  }
}

/// The one-line result of a think: `bestmove e2e4 score 12 nodes 73211`.
/// A search that found no move (from == to) prints `bestmove none`.
inline std::string formatThink(int from, int to, int score, long nodes) {
  const std::string move = from == to ? "none" : moveName(from, to);
  return "bestmove " + move + " score " + std::to_string(score) + " nodes " + std::to_string(nodes);
}

}  // namespace umax
