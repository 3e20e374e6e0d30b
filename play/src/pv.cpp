// pv.cpp - the principal variation read back from the hash table: the
// search's own key arithmetic replayed outside the engine.
#include "umax/play/pv.h"

#include "umax/play/fide.h"

namespace umax::play {
namespace {

/// A word of the key table at `offset` for `piece`, as the search reads it. // micro-Max: K(A,B)
uint32_t keyWord(const Engine& engine, int offset, int piece) {
  const auto& keys = engine.keyTable();
  const int index = offset + (piece & kWhite) + kNoSquare * (piece & kTypeMask);
  uint32_t word = 0;
  for (int byte = 3; byte >= 0; --byte) word = (word << 8) | static_cast<uint8_t>(keys[index + byte]);
  return word;
}

/// The slot the search's probe finds for this position, or nullptr.
const HashEntry* find(const Engine& engine, int side, int epSquare, uint32_t key, uint32_t lock) {
  const auto& table = engine.hashTable();
  uint32_t slot = (static_cast<uint32_t>(side * epSquare) ^ key) & kHashSlotMask;
  for (int tries = 0; tries < kProbeSlots; ++tries) {
    const HashEntry& entry = table[++slot];
    if (entry.lock == 0) return nullptr;
    if (static_cast<uint32_t>(entry.lock) == lock) return &entry;
  }
  return nullptr;
}

}  // namespace

int rootDraft(const Engine& engine) {
  const Position position = engine.position();
  const HashEntry* entry = find(engine, position.side, position.epSquare, 1, 1);  // the root's J and Z
  return entry ? entry->draft : 0;
}

std::string principalVariation(const Engine& engine, int maxPlies) {
  Position position = engine.position();
  int searchEp = position.epSquare;  // the root passes O; deeper calls pass the square or 128
  uint32_t key = 1;                  // the root's J and Z
  uint32_t lock = 1;
  std::string line;
  for (int ply = 0; ply < maxPlies; ++ply) {
    const HashEntry* entry = find(engine, position.side, searchEp, key, lock);
    if (!entry) break;
    const int from = static_cast<uint8_t>(entry->from) & ~kOffBoard;  // int8: drop the sign first
    const int to = static_cast<uint8_t>(entry->to) & ~kOffBoard;
    if (from == to || !isFideLegal(position, from, to)) break;

    // The move as the generator makes it: victim square, castling rook, skipped square.
    Board& board = position.board;
    const int piece = board[from];
    const int type = typeOf(piece);
    int captureSquare = to;
    if (type <= kDownwardPawn && to == fideEpSquare(position)) captureSquare = to ^ 16;
    const int victim = board[captureSquare];
    int rookFrom = kNoSquare;
    int skipped = kNoSquare;
    if (type == kKing && (to - from == 2 || from - to == 2)) {
      rookFrom = to > from ? (from | 7) : (from & ~7);
      skipped = (from + to) / 2;
    } else if (type <= kDownwardPawn && (to - from == 32 || from - to == 32)) {
      skipped = (from + to) / 2;
    }
    board[captureSquare] = 0;
    board[from] = 0;
    board[to] = static_cast<int8_t>(piece & 31);
    if (rookFrom != kNoSquare) {
      board[rookFrom] = 0;
      board[skipped] = static_cast<int8_t>(position.side + kRook);
    }
    if (type <= kDownwardPawn && ((to & kRowMask) == 0 || (to & kRowMask) == 0x70)) board[to] |= kQueen;

    // micro-Max: J+J(0), Z+J(8)+G-S.
    key += keyWord(engine, to, board[to]) - keyWord(engine, from, piece) -
           keyWord(engine, captureSquare, victim);
    lock += keyWord(engine, to + 8, board[to]) - keyWord(engine, from + 8, piece) -
            keyWord(engine, captureSquare + 8, victim) + static_cast<uint32_t>(rookFrom - kNoSquare);
    line += (line.empty() ? "" : " ") + moveName(from, to);
    position.side = opponentOf(position.side);
    position.epSquare = skipped;
    searchEp = skipped;
  }
  return line;
}

}  // namespace umax::play
