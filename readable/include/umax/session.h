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

/// The longest --fen or --moves text the tools accept (what a trace's
/// header can hold, so that whatever is recorded can be read back).
inline constexpr std::size_t kMaxInputText = 65536;

/// `text` as an error message shows it: bytes outside printable ASCII as
/// a backslash, x and two hex digits, cut after `limit` characters with "..." and the full length.
inline std::string shownText(std::string_view text, std::size_t limit = 24) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string shown;
  for (std::size_t index = 0; index < text.size() && index < limit; ++index) {
    const auto byte = static_cast<unsigned char>(text[index]);
    if (byte >= 32 && byte < 127) {
      shown += static_cast<char>(byte);
    } else {
      shown += "\\x";
      shown += kHex[byte >> 4];
      shown += kHex[byte & 15];
    }
  }
  if (text.size() > limit) shown += "... (" + std::to_string(text.size()) + " characters)";
  return shown;
}

/// Throws std::runtime_error if `text` (the value of option `name`) is
/// longer than kMaxInputText.
inline void checkInputText(std::string_view name, std::string_view text) {
  if (text.size() > kMaxInputText)
    throw std::runtime_error(std::string(name) + " is " + std::to_string(text.size()) +
                             " characters long: at most " + std::to_string(kMaxInputText) + " are accepted");
}

/// Plays space-separated coordinate moves ("e2e4 e7e5") through the engine's
/// legality-check path, as the original's game loop plays entered moves.
/// \throws std::runtime_error naming the first malformed or illegal move.
template <class AnyEngine>
void playMoves(AnyEngine& engine, std::string_view moves) {
  checkInputText("--moves", moves);
  std::istringstream stream{std::string(moves)};
  std::string move;
  int number = 0;
  while (stream >> move) {
    ++number;
    int from;
    int to;
    if (!parseMove(move, from, to))
      throw std::runtime_error("move " + std::to_string(number) + " '" + shownText(move) +
                               "' is not a move like e2e4");
    if (!engine.playMove(from, to))
      throw std::runtime_error("move " + std::to_string(number) + " '" + shownText(move) +
                               "' is illegal here");
  }
}

/// The one-line result of a think: `bestmove e2e4 score 12 nodes 73211`.
/// A search that found no move (from == to) prints `bestmove none`.
inline std::string formatThink(int from, int to, int score, long nodes) {
  return "bestmove " + thinkMoveName(from, to) + " score " + std::to_string(score) + " nodes " +
         std::to_string(nodes);
}

/// What a Lab think adds to formatThink's line: ` depth D` (the draft of
/// its last completed root iteration) when --depth was given and ` without
/// hash,best-first` when ideas are off; nothing for the default search, so
/// no figure of a variant reads as the original's.
inline std::string variantSuffix(const SearchVariant& variant, int depthReached) {
  std::string suffix;
  if (variant.depth) suffix += " depth " + std::to_string(depthReached);
  if (variant.without) suffix += " without " + variant.withoutList();
  return suffix;
}

}  // namespace umax
