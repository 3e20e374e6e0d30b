// pv.cpp - the principal variation read back from the hash table: the
// search's own keys, probe windows and move rules (search_rules.h) replayed
// outside the engine.
#include "umax/play/pv.h"

#include "umax/play/fide.h"
#include "umax/search_rules.h"

namespace umax::play {
namespace {

/// The slot that holds this position, or nullptr: the search's own probe (probedEntry, from the
/// engine's firstProbeSlot, cut to its table's size), read only.
const HashEntry* find(const Engine& engine, int side, int passedSquare, uint32_t key, uint32_t lock) {
  const std::span<const HashEntry> table = engine.hashTable();
  const HashEntry& entry = probedEntry(table, engine.firstProbeSlot(side, passedSquare, key), lock);
  return entry.lock != 0 ? &entry : nullptr;  // an empty slot, or the dummy slot of a full window
}

/// A move as the search's generator makes it: the victim's square, the castling rook's corner
/// and the square passed over (the next position's e.p. square).
struct MadeMove {
  int piece = 0;
  int victim = 0;
  int captureSquare = 0;
  int rookFrom = kNoSquare;
  int passedSquare = kNoSquare;
  int arriving = 0;  ///< the piece on the to-square after the move (a promoted pawn: a queen)
};

/// Makes the move from-to on `position` by the search's rules (search_rules.h).
MadeMove makeMove(Position& position, int from, int to) {
  Board& board = position.board;
  MadeMove move;
  move.piece = board[from];
  const int type = typeOf(move.piece);
  const bool pawn = type <= kDownwardPawn;
  move.captureSquare = pawn && to == fideEpSquare(position) ? enPassantVictimSquare(to) : to;
  move.victim = board[move.captureSquare];
  if (type == kKing && (to - from == 2 || from - to == 2)) {
    move.rookFrom = castlingCorner(from, to > from ? 1 : -1);
    move.passedSquare = skippedSquare(from, to);
  } else if (pawn && (to - from == 2 * kRowStep || from - to == 2 * kRowStep)) {
    move.passedSquare = skippedSquare(from, to);
  }
  // A pawn's step is to - from (a double step never reaches the last rank).
  move.arriving = arrivingPiece(move.piece, promotes(type, to, to - from));
  board[move.captureSquare] = 0;
  board[from] = 0;
  board[to] = static_cast<int8_t>(move.arriving);
  if (move.rookFrom != kNoSquare) {
    board[move.rookFrom] = 0;
    board[move.passedSquare] = static_cast<int8_t>(position.side + kRook);
  }
  position.side = opponentOf(position.side);
  position.epSquare = move.passedSquare;
  return move;
}

}  // namespace

int rootDraft(const Engine& engine) {
  const Position position = engine.position();
  const HashEntry* entry = find(engine, position.side, position.epSquare, kRootHashCode, kRootHashCode);
  return entry ? entry->draft : 0;
}

std::string principalVariation(const Engine& engine, int maxPlies) {
  const auto& keys = engine.keyTable();
  Position position = engine.position();
  uint32_t key = kRootHashCode;
  uint32_t lock = kRootHashCode;
  std::string line;
  for (int ply = 0; ply < maxPlies; ++ply) {
    // The root passes O; deeper calls pass the square their move passed, or 128.
    const HashEntry* entry = find(engine, position.side, position.epSquare, key, lock);
    if (!entry) break;
    const int from = withoutBoundBits(static_cast<uint8_t>(entry->from));  // int8: drop the sign first
    const int to = static_cast<uint8_t>(entry->to) & ~kBestToFlags;
    if (from == to || !isFideLegal(position, from, to)) break;
    const MadeMove move = makeMove(position, from, to);
    // micro-Max: J+J(0), Z+J(8)+G-S.
    key += hashChange(keys, kKeySalt, from, to, move.captureSquare, move.piece, move.victim, move.arriving);
    lock +=
        hashChange(keys, kLockSalt, from, to, move.captureSquare, move.piece, move.victim, move.arriving) +
        castlingLockTerm(move.rookFrom);
    line += (line.empty() ? "" : " ") + moveName(from, to);
  }
  return line;
}

}  // namespace umax::play
