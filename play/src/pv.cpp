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
const HashEntry* find(const Engine& engine, int side, int epSquare, uint32_t key, uint32_t lock) {
  const std::span<const HashEntry> table = engine.hashTable();
  const HashEntry& entry = probedEntry(table, engine.firstProbeSlot(side, epSquare, key), lock);
  return entry.lock != 0 ? &entry : nullptr;  // an empty slot, or the dummy slot of a full window
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
    // Made as the search makes it (applyMove: e.p. victim, castling rook, the square passed).
    const MadeMove move = applyMove(position, from, to, fideEpSquare(position));
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
