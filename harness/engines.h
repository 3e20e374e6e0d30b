/// \file engines.h
/// \brief One interface over both builds, for the tests and umax-probe.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "umax/engine.h"
#include "umax/position.h"

namespace umax {

/// What both builds can do, through the same calls. Each call maps onto the
/// statements of the original's main() (see minimal_api.h for the minimal side).
class AnyEngine {
 public:
  virtual ~AnyEngine() = default;
  /// "minimal" or "readable".
  virtual std::string_view name() const = 0;
  /// Back to main()'s start: its board, white to move, O = 0, Q = 0, empty table.
  virtual void reset() = 0;
  /// A position from FEN (or any Position) with an empty hash table.
  virtual void setPosition(const Position& position) = 0;
  /// Sets board, side, e.p. square and eval, keeping the hash table as it is.
  virtual void setGameState(const Position& position) = 0;
  /// The game state; epSquare is the value of the char O (so -128 for none).
  virtual Position position() const = 0;
  /// Zeroes the whole hash table.
  virtual void clearHashTable() = 0;
  /// Zeroes one hash-table slot.
  virtual void clearHashSlot(int32_t slot) = 0;
  /// Sets one slot's lock to 0 (main()'s clearing, slot by slot).
  virtual void clearHashLock(int32_t slot) = 0;
  /// Think with a node budget from the current table.
  virtual ThinkResult think(long budget) = 0;
  /// The Lab's switches for later thinks (variant.h). Only the readable
  /// build has them: the minimal one throws std::invalid_argument for any
  /// variant but the default.
  virtual void setVariant(const SearchVariant& variant) = 0;
  /// main()'s path for an entered move (clear locks, legality check, play).
  virtual bool playMove(int from, int to) = 0;
  /// The legality check after clearing only the root's probe window.
  virtual bool checkMove(int from, int to) = 0;
  /// One hash-table slot.
  virtual HashEntry hashEntry(int32_t slot) const = 0;
  /// The slots first .. first + slots.size() - 1, copied into `slots`: a
  /// whole-table comparison makes one call per block, not two per slot.
  virtual void copyHashEntries(int32_t first, std::span<HashEntry> slots) const = 0;
  /// One byte of the key table T[].
  virtual int keyByte(int index) const = 0;
};

/// Makes the engine of the named build; throws std::invalid_argument for
/// another name. Only one minimal engine may exist at a time: the original
/// keeps its state in globals.
std::unique_ptr<AnyEngine> makeEngine(std::string_view build);

/// Set up a game as umax-probe does: FEN (empty = main()'s start) and moves.
void setUpGame(AnyEngine& engine, const std::string& fen, const std::string& moves);

}  // namespace umax
