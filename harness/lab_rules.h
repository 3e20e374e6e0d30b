/// \file lab_rules.h
/// \brief The Lab's game rules and test-suite files (umax-lab): legal moves
/// under FIDE's rules, moves in SAN, EPD lines, and the end of a game.
///
/// The search's generator offers pseudo-legal moves (queen promotions only);
/// a game between two searches needs to know when it is over, and a test
/// suite names its moves in SAN. Both are answered here with the
/// generator's moves, filtered by a plain attack test (position.h's
/// isAttacked), never with the search.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "umax/engine.h"
#include "umax/position.h"

namespace umax::lab {

/// A move of the side to move: its two squares.
struct LegalMove {
  int from = 0;  ///< from-square (0x88)
  int to = 0;    ///< to-square (0x88)
  bool operator==(const LegalMove&) const = default;
};

/// The legal moves of a position: the search's generator (queen promotions
/// only), less the moves that leave the king attacked and the castlings out
/// of or through check. `rules` is an engine used only for its generator.
std::vector<LegalMove> legalMoves(Engine& rules, const Position& position);

/// True when the side to move's king is attacked.
bool inCheck(const Position& position);

/// A SAN move ("Nxf7+", "exd5", "O-O", "e8=Q") that is not one of the
/// position's legal moves, or not SAN at all.
class SanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The legal move a SAN text names. Throws SanError if the text is not SAN,
/// if no legal move or more than one matches, or if it promotes to anything
/// but a queen (micro-Max promotes to a queen only: the message says so).
LegalMove parseSan(Engine& rules, const Position& position, const std::string& san);

/// One line of an EPD file: a position and its best (`bm`) or avoid (`am`)
/// moves, as SAN texts.
struct EpdEntry {
  int line = 0;                  ///< 1-based line in its file
  std::string id;                ///< the `id` operand, or "line N" without one
  std::string fen;               ///< the four FEN fields
  Position position;             ///< the position they describe
  std::vector<std::string> bm;   ///< best moves (SAN)
  std::vector<std::string> am;   ///< moves to avoid (SAN)
  std::vector<LegalMove> best;   ///< bm as moves
  std::vector<LegalMove> avoid;  ///< am as moves
};

/// Reads an EPD file. Every non-blank line must be four FEN fields and
/// operations `opcode operand...;` with a `bm` or an `am`, each move one of
/// the position's legal moves; anything else throws std::runtime_error
/// naming the file, the line and what is wrong.
std::vector<EpdEntry> readEpd(Engine& rules, const std::string& path);

/// How a game ended.
enum class Outcome { kNone, kMate, kStalemate, kRepetition, kFiftyMoves, kMaterial, kPlyCap, kIllegal };

/// The name of an outcome for reports: "mate", "stalemate", ...
const char* outcomeName(Outcome outcome);

/// A game's record of positions, for the repetition and 50-move rules.
class GameRecord {
 public:
  /// Starts the record at `position`.
  explicit GameRecord(const Position& position);
  /// Notes the move just played from `before` (a capture or pawn move resets
  /// the 50-move count) and the position it led to.
  void played(const Position& before, const LegalMove& move, const Position& after);
  /// Times the current position has stood on the board with the same side
  /// to move (1 the first time).
  int repetitions() const;
  /// Plies since the last capture or pawn move.
  int quietPlies() const { return quiet_; }
  /// Plies played since the record started.
  int plies() const { return plies_; }

 private:
  std::map<std::string, int> seen_;
  std::string current_;
  int quiet_ = 0;
  int plies_ = 0;
};

/// The rule that ends the game in this position, if any (kNone: play on):
/// no legal move (mate or stalemate), a third repetition, 100 plies without
/// capture or pawn move, bare kings or king and one minor piece against a
/// bare king, or `plyCap` plies played.
Outcome gameOver(Engine& rules, const Position& position, const GameRecord& record, int plyCap);

}  // namespace umax::lab
