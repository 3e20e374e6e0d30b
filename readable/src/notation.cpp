// notation.cpp - squares and moves as text.
#include "umax/notation.h"

#include "umax/types.h"

namespace umax {
std::string squareName(int square) {
  if (square < 0 || square >= 128 || !isOnBoard(square)) return "--";
  return {static_cast<char>('a' + fileOf(square)), static_cast<char>('0' + rankOf(square))};
}

int parseSquare(std::string_view name) {
  if (name.size() != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8') return -1;
  return makeSquare(name[0] - 'a', name[1] - '0');
}

bool parseMove(std::string_view text, int& from, int& to) {
  if (text.size() != 4) return false;
  from = parseSquare(text.substr(0, 2));
  to = parseSquare(text.substr(2, 2));
  return from >= 0 && to >= 0;
}

std::string moveName(int from, int to) { return squareName(from) + squareName(to); }

std::string bestMoveName(int bestFrom, int bestTo) {
  return moveName(bestMoveSquare(bestFrom), bestMoveSquare(bestTo));
}

std::string thinkMoveName(int from, int to) { return from == to ? "none" : moveName(from, to); }

}  // namespace umax
