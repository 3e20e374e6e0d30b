/// \file stats.h
/// \brief Figures about a trace: event counts, hash hit rate, cutoffs, branching; and a folder's
/// games listed, each with its move list.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "umax/trace/game_dir.h"
#include "umax/trace/reader.h"
#include "umax/view/hash_history.h"

namespace umax::trace {

/// One iteration of the root.
struct IterationStats {
  int draft = 0;           ///< the root's draft d
  uint64_t nodes = 0;      ///< counted nodes searched in it
  uint64_t calls = 0;      ///< calls made in it (with hash cutoffs)
  double branching = 0;    ///< nodes / nodes of the previous iteration (0 for the first)
  bool completed = false;  ///< the root stored its result (a stopped or cut trace's last may not)
  int best = 0;            ///< the root's best score m at the iteration's end
  int bestFrom = 0;        ///< its best move's from-square (X)
  int bestTo = 0;          ///< its to-square, flag bits stripped (Y & ~M)
};

/// What `umax-trace info` prints.
struct TraceStats {
  uint64_t nodes = 0;                               ///< counted nodes (kNodeCounted events)
  uint64_t events = 0;                              ///< events in the file
  uint64_t bytes = 0;                               ///< file size
  std::array<uint64_t, kEventKindCount> perKind{};  ///< events of each kind
  HashCounters hash;                                ///< probes and stores, by outcome
  std::map<int, uint64_t> cutoffsPerDraft;          ///< beta cutoffs by the draft of the iteration
  std::vector<IterationStats> iterations;           ///< the root's iterations, in order
  int maxPly = 0;                                   ///< deepest call (root = 0)
  uint64_t openCalls = 0;                           ///< calls still open at the trace's end
};

/// Reads every event once (checking each against the search state) and
/// gathers the figures. Throws TraceError for an inconsistent trace.
TraceStats computeStats(const TraceReader& reader);

/// `umax-trace info`: the header's position, search and table, the result and computeStats'
/// figures, one `name value` a line. Throws TraceError for an inconsistent trace.
void writeInfo(const TraceReader& reader, std::ostream& out);

/// One half-move of a game's move list.
struct GamePly {
  int ply = 1;         ///< 1 = the first move of the game
  int moveNumber = 1;  ///< the chess move number
  bool white = true;   ///< the side that moved
  std::string move;    ///< "e2e4" as the game records it
  int think = -1;      ///< index of the think that chose it in GameRecord::thinks, -1: the opponent's
};

/// The game's moves: its `game.txt` record's, else the moves before its last think and the move
/// that think chose. The plies our engine thought about point to their think.
std::vector<GamePly> gamePlies(const GameRecord& game);

/// A think's label, "12. ... g8f6": the move number, dots for black, the move ("(not played)"
/// after it when it was not).
std::string thinkLabel(const GameThink& think);

/// Where `game` started: "the start position" (an empty FEN or the standard start FEN), else the FEN.
std::string startText(const GameRecord& game);

/// The listing `umax-trace game` prints: per game a header line, then one line per think.
std::string formatGameDir(const GameDir& dir);

}  // namespace umax::trace
