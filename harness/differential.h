/// \file differential.h
/// \brief The differential check behind fuzz_equivalence: one input, a short game, both builds.
///
/// An input is a string of bytes read as choices: a seed position (main()'s
/// start or a row of tests/data/positions.tsv), a few random legal moves
/// from it, then one to eight thinks with small node budgets, each followed by
/// a move played as a game plays it. Every think runs in three engines that
/// start from the same tables: the minimal build (the reference), the
/// readable build untraced (the search a game uses) and the readable build
/// traced (the search the tracer uses, whose observer reports every probe
/// window). After each think the three must agree on the move, the score,
/// the node count, the game state and every slot of every probe window.
///
/// Clearing three 16M-entry tables per input would cost far more than the
/// searches, so only the windows an input probed are cleared after it; a
/// scan of all three tables (at the start and every kCleanScanInterval
/// inputs) proves that nothing else was left behind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engines.h"
#include "umax/engine.h"
#include "umax/position.h"

namespace umax {

/// Reads an input's bytes as a sequence of choices; past the end every choice is 0.
class ByteChoices {
 public:
  /// Reads `size` bytes at `data` (not copied: they must outlive the reader).
  ByteChoices(const uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  /// The next byte, or 0 past the end.
  int byte() { return position_ < size_ ? data_[position_++] : 0; }
  /// The next two bytes as 0..65535 (big-endian).
  int word() {
    const int high = byte();
    return high << 8 | byte();
  }
  /// A choice among `count` options (count > 0), from the next two bytes.
  int pick(int count) { return word() % count; }

 private:
  const uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

/// Runs inputs through the three engines and compares them.
class DifferentialChecker {
 public:
  /// Inputs between two scans of the whole tables.
  static constexpr long kCleanScanInterval = 2000;

  /// `seedFens` are the positions an input may start from besides main()'s
  /// start. Makes the engines (only one minimal engine may exist at a time).
  explicit DifferentialChecker(std::vector<std::string> seedFens);

  /// Plays the input's game; returns an empty string when all engines
  /// agreed, else a description of the first difference (position, budget,
  /// the differing fields). Leaves the tables clean either way.
  std::string run(const uint8_t* data, std::size_t size);

  /// Scans all three tables; returns an empty string if every slot is zero,
  /// else which engine holds which non-empty slot.
  std::string findDirtySlot() const;

  /// Thinks compared so far (every think of every input).
  long searchesCompared() const { return searches_; }
  /// Inputs run so far.
  long inputsRun() const { return inputs_; }

 private:
  struct Game;
  std::vector<PerftMove> legalMoves(const Position& position);
  ThinkResult thinkInAll(Game& game, long budget, std::string& difference);
  /// What clearProbedSlots() zeroes: the locks (main()'s clearing before an
  /// entered move) or whole slots (the cleaning after an input).
  enum class Clearing { kLocks, kWholeSlots };
  void clearProbedSlots(Game& game, Clearing clearing);

  std::vector<Position> seeds_;
  std::vector<std::string> seedFens_;
  std::unique_ptr<AnyEngine> minimal_;
  std::unique_ptr<Engine> untraced_;
  std::unique_ptr<Engine> traced_;
  long searches_ = 0;
  long inputs_ = 0;
};

/// The game state after `from`-`to` (a legal move) is played, as main()'s
/// legality check leaves it: applyMove() with the game's own O as the e.p.
/// square (the move made as the search makes it: castling rook, e.p.
/// victim, queen promotion, virgin bit stripped; the side flipped, O set to
/// the square a pawn skipped or a castling king passed, else 128; Q = -Q - i).
/// tests/test_differential.cpp checks it against the engine's own check.
Position positionAfter(const Position& before, int from, int to);

/// The FEN column of tests/data/positions.tsv (or any TSV with a `fen` header).
/// \throws std::runtime_error when the file cannot be read or has no fen column.
std::vector<std::string> readSeedFens(const std::string& path);

}  // namespace umax
